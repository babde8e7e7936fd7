import { describe, expect, it } from 'vitest';
import { poiseuilleChannel } from './cases';
import { wallShearStress } from './derived';
import { CaseMonitors } from './monitors';
import { hagenPoiseuilleTube } from './openCases';
import { tube } from '../test/shapes';
import { openVessel } from './vessel';
import { wallViscousTraction } from './wallTraction';

describe('wall shear stress from the wall friction of the scheme', () => {
  it('steady 2D Poiseuille channel (H/20): every surface particle within 1 % of ρgH/2 (force balance); the velocity fit reads high because the fluid slips; the monitor reports the traction', () => {
    const [H, mu, g, dp] = [1, 0.1, 1.2, 1 / 20];
    const sim = poiseuilleChannel({ height: H, length: 1, dp, mu, rho0: 1, meanVelocity: 1 });
    const exactU = (y: number): number => (g / (2 * mu)) * y * (H - y);
    for (let i = 0; i < sim.fluid.count; i++) sim.fluid.vx[i] = exactU(sim.fluid.y[i]!);
    sim.run(2);
    const tau = (g * H) / 2; // the body force on the fluid per unit wall length, shared by the two walls
    const t = wallViscousTraction(sim);
    const wall = sim.wall;
    let n = 0;
    let sum = 0;
    for (let i = 0; i < wall.count; i++) {
      if (!t.surface[i]) continue;
      n++;
      sum += t.magnitude[i]!;
      expect(Math.abs(t.magnitude[i]! / tau - 1)).toBeLessThan(0.01);
      // Along the flow, against the fluid's drag: the wall is pulled in +x.
      expect(t.traction[3 * i]).toBeGreaterThan(0);
    }
    expect(n).toBe(40); // one lattice row on each wall, 20 particles long
    expect(Math.abs(sum / n / tau - 1)).toBeLessThan(0.01); // measured +0.73 % (every particle the same)
    // The cause of the velocity fit's excess (+7.9 %): the first fluid layer runs 5.1 % faster than the analytic
    // profile at its height (slip at the SPH wall), and the fit forces u = 0 at the surface.
    const fit = wallShearStress(sim.fluid, wall, { dp, mu, domain: sim.options.domain });
    let fitSum = 0;
    for (let i = 0; i < wall.count; i++) if (fit.surface[i]) fitSum += fit.magnitude[i]!;
    expect(fitSum / n / tau).toBeGreaterThan(1.05);
    let [fast, layer] = [0, 0];
    for (let i = 0; i < sim.fluid.count; i++) {
      const y = sim.fluid.y[i]!;
      if (Math.min(y, H - y) > dp) continue;
      fast += sim.fluid.vx[i]!;
      layer += exactU(y);
    }
    expect(fast / layer).toBeGreaterThan(1.02);
    // The case files' monitor reports the traction (mean and max, Pa).
    const monitors = new CaseMonitors(
      { planes: [], pressureDrops: [], wallShearStress: true, residenceTime: false },
      { fluid: sim, open: undefined, trackers: [] },
      mu,
    );
    expect(monitors.header()).toBe('time (s),mean wall_shear_stress (Pa),max wall_shear_stress (Pa)');
    const [time, mean, max] = monitors.row().split(',').map(Number) as [number, number, number];
    expect(time).toBeCloseTo(2, 12);
    expect(Math.abs(mean / tau - 1)).toBeLessThan(0.01);
    expect(Math.abs(max / tau - 1)).toBeLessThan(0.01);
  }, 60_000);

  it('surface areas of the tube walls (R/6): rings and a lattice staircase from a mesh both sum to 2πR·length within 3 %', () => {
    const [R, L, dp] = [0.5, 2, 0.5 / 6];
    const lb = 4 * dp;
    const area = 2 * Math.PI * R * (L - 2 * R);
    const ring = hagenPoiseuilleTube({ radius: R, length: L, dp, rho0: 1, mu: 0.5, meanVelocity: 1 }).open.sim;
    ring.updateNeighbours(); // the depth is estimated from the fluid neighbours
    const mesh = openVessel(tube(R, -lb - 3 * dp, L + lb + 3 * dp, 96, 16), {
      scale: 1,
      dp,
      rho0: 1,
      inlets: [{ centre: [0, 0, 0], direction: [1, 0, 0], radius: R, flowRate: Math.PI * R * R }],
      outlets: [{ centre: [L, 0, 0], direction: [1, 0, 0], radius: R, pressure: 0 }],
      mu: 0.5,
      uRef: 2,
      c0: 20,
    }).sim;
    const cases = [
      { sim: ring, t: wallViscousTraction(ring) },
      { sim: mesh, t: wallViscousTraction(mesh, { surfaceDistance: (_x, y, z) => Math.hypot(y, z) - R }) },
    ];
    // Measured: rings 0.997, mesh 0.980 (V/dp per particle gave 1.083 and 1.167: curvature and the staircase).
    for (const { sim, t } of cases) {
      let sum = 0;
      for (let i = 0; i < sim.wall.count; i++) {
        if (t.surface[i] && sim.wall.x[i]! > R && sim.wall.x[i]! < L - R) sum += t.area[i]!;
      }
      expect(Math.abs(sum / area - 1)).toBeLessThan(0.03);
    }
  }, 60_000);
});
