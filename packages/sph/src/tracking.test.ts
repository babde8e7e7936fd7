import { describe, expect, it } from 'vitest';
import { captureSummary } from './derived';
import { hydrostaticTank, poiseuilleChannel } from './cases';
import { WeaklyCompressibleFluid } from './fluid';
import { box, particlesFromShape } from './geometry';
import { ParticleArrays } from './particles';
import { ParticleTracker } from './tracking';

/** Steps `fluid` to `end` s, advancing `tracker` by each advection step and calling `sample` after it. */
function runTracked(fluid: WeaklyCompressibleFluid, tracker: ParticleTracker, end: number, sample?: () => void): void {
  while (fluid.counters.time < end * (1 - 1e-12)) {
    const before = fluid.counters.time;
    fluid.step(end);
    tracker.advance(fluid.counters.time - before);
    sample?.();
  }
}

/** Tracked particles at the given 2D points (m). */
function released(points: readonly [number, number][]): ParticleArrays {
  const p = new ParticleArrays(2, points.length);
  for (const [x, y] of points) p.add(x, y, 0, 0, 0);
  return p;
}

describe('particle tracking', () => {
  it('a passive particle in Poiseuille flow moves with the analytic velocity u(y) = (g/2ν)·y·(H − y)', () => {
    const mu = 0.1;
    const g = 12 * mu; // U = 1, H = 1, ρ = 1
    const fluid = poiseuilleChannel({ height: 1, length: 6, dp: 0.05, mu, rho0: 1, meanVelocity: 1 });
    const u = (y: number): number => (g / (2 * mu)) * y * (1 - y);
    // Start from the steady profile, so the flow is developed from the first step.
    for (let i = 0; i < fluid.fluid.count; i++) fluid.fluid.vx[i] = u(fluid.fluid.y[i]!);
    const tracer = released([
      [1, 0.3],
      [3, 0.5],
      [5.5, 0.8],
    ]);
    const tracker = new ParticleTracker(fluid, tracer, { mode: 'passive', diameter: 1e-3, capture: [fluid.wall] });
    const x0 = [1, 3, 5.5];
    const end = 1;
    runTracked(fluid, tracker, end);
    [0.3, 0.5, 0.8].forEach((y, i) => {
      expect(tracer.vx[i]! / u(y)).toBeCloseTo(1, 1);
      expect(Math.abs(tracer.vx[i]! / u(y) - 1)).toBeLessThan(0.02);
      expect(Math.abs(tracer.y[i]! - y)).toBeLessThan(0.01);
      // Travelled distance (the channel is periodic in x over L = 6).
      const travelled = (((tracer.x[i]! - x0[i]!) % 6) + 6) % 6;
      expect(Math.abs(travelled / (u(y) * end) - 1)).toBeLessThan(0.02);
    });
    expect(tracker.capturedCount()).toBe(0);
  }, 60_000);

  it('an inertial particle relaxes to the fluid velocity with the Stokes time τ = ρ_p d² / (18 μ)', () => {
    const mu = 0.1;
    const fluid = new WeaklyCompressibleFluid(
      particlesFromShape(box([0, 0, 0], [1, 1, 0]), 0.05, 2, 1),
      new ParticleArrays(2, 0),
      {
        dim: 2,
        dp: 0.05,
        rho0: 1,
        c0: 10,
        mu,
        gravity: [0, 0, 0],
        uRef: 1,
        freeSurface: false,
        domain: { lower: [0, 0, 0], upper: [1, 1, 0], periodic: [true, true, false] },
      },
    );
    const particle = released([[0.5, 0.5]]);
    particle.vx[0] = 0.01;
    const rhoP = 1000;
    const d = 0.01;
    const tracker = new ParticleTracker(fluid, particle, {
      mode: 'inertial',
      diameter: d,
      density: rhoP,
      drag: 'stokes',
    });
    const tauStokes = (rhoP * d * d) / (18 * mu);
    expect(tracker.relaxationTime).toBeCloseTo(tauStokes, 12);
    const times: number[] = [];
    const speeds: number[] = [];
    runTracked(fluid, tracker, 2 * tauStokes, () => {
      times.push(fluid.counters.time);
      speeds.push(particle.vx[0]!);
    });
    // Least-squares slope of ln v(t): −1/τ.
    const n = times.length;
    const mt = times.reduce((a, b) => a + b, 0) / n;
    const ml = speeds.reduce((a, b) => a + Math.log(b), 0) / n;
    let num = 0;
    let den = 0;
    for (let k = 0; k < n; k++) {
      num += (times[k]! - mt) * (Math.log(speeds[k]!) - ml);
      den += (times[k]! - mt) ** 2;
    }
    const tauFit = -den / num;
    expect(Math.abs(tauFit / tauStokes - 1)).toBeLessThan(0.01);
    // Stopping distance v₀ τ (1 − e⁻²) after two relaxation times.
    expect((particle.x[0]! - 0.5) / (0.01 * tauStokes * (1 - Math.exp(-2)))).toBeCloseTo(1, 2);
  }, 60_000);

  it('a heavy particle settles through water at rest and is captured by the bottom wall at the analytic time', () => {
    const g = 1;
    const fluid = hydrostaticTank({ width: 0.5, depth: 0.5, dp: 0.05, g, rho0: 1, mu: 0.05 });
    // Released straight above a wall particle (the wall lattice has x = −0.175, −0.125, …, 0.225, …).
    const particle = released([[0.225, 0.2]]);
    const rhoP = 1000;
    const d = 0.02;
    const tracker = new ParticleTracker(fluid, particle, {
      mode: 'inertial',
      diameter: d,
      density: rhoP,
      drag: 'stokes',
      gravity: [0, -g, 0],
      // A 'device' far from the particle first, then the walls: the capture is attributed to the walls (set 1).
      capture: [released([[0.025, 0.45]]), fluid.wall],
    });
    const tau = tracker.relaxationTime;
    const vt = (1 - 1 / rhoP) * g * tau;
    // Captured when the centre comes within d/2 + dp/2 of the wall particle below it, at y = −dp/2.
    const yCapture = -0.025 + 0.5 * d + 0.025;
    const fall = (t: number): number => 0.2 - vt * t + vt * tau * (1 - Math.exp(-t / tau));
    let lo = 0;
    let hi = 5;
    for (let k = 0; k < 60; k++) {
      const mid = 0.5 * (lo + hi);
      if (fall(mid) > yCapture) lo = mid;
      else hi = mid;
    }
    runTracked(fluid, tracker, 1.2);
    expect(tracker.capturedCount()).toBe(1);
    const dtMax = (0.25 * 1.3 * 0.05) / (2 * Math.sqrt(g * 0.5)); // one advection step
    expect(Math.abs(tracker.captureTime[0]! - lo)).toBeLessThan(2 * dtMax);
    expect(particle.vy[0]).toBe(0);
    expect(tracker.capturedBy[0]).toBe(1);
    const summary = captureSummary(tracker);
    expect(summary).toMatchObject({ released: 1, captured: 1, bySet: [0, 1], capturePercentage: 100 });
    expect(summary.residenceTime[0]).toBe(tracker.captureTime[0]);
  }, 60_000);

  it('refuses inertial particles without density or in an inviscid fluid', () => {
    const fluid = hydrostaticTank({ width: 0.5, depth: 0.5, dp: 0.05, g: 1, rho0: 1, mu: 0 });
    const p = released([[0.25, 0.25]]);
    expect(() => new ParticleTracker(fluid, p, { mode: 'inertial', diameter: 0.01 })).toThrow(/positive density/);
    expect(() => new ParticleTracker(fluid, p, { mode: 'inertial', diameter: 0.01, density: 1000 })).toThrow(
      /viscous fluid/,
    );
    expect(() => new ParticleTracker(fluid, p, { mode: 'passive', diameter: 0 })).toThrow(/diameter/);
  });
});
