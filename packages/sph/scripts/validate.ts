// Longer verification runs than the unit tests (results go to docs/validation.md, "SPH engine"):
//   node --import tsx packages/sph/scripts/validate.ts [hydrostatic|poiseuille|dam]
// Hydrostatic tank at dp = H/20 and H/40, Poiseuille flow at t = 6 and t = 10, and the 2D dam break
// (dp 0.025) front position and mechanical energy up to t·√(2g/H) = 3.
import {
  damBreak,
  hydrostaticProfile,
  hydrostaticTank,
  kineticEnergy,
  poiseuilleChannel,
  poiseuilleProfile,
  probePressure,
  surgeFront,
} from '../src/index';

function hydrostatic(dp: number, end: number): void {
  const sim = hydrostaticTank({ width: 1, depth: 1, dp, g: 1, rho0: 1, mu: 0.05 });
  sim.run(end);
  const { pressure, expected, depth } = hydrostaticProfile(sim, 1, 1, 1, 5);
  const rows = Array.from(
    pressure,
    (p, b) => `depth ${depth[b]!.toFixed(3)}: ${((p / expected[b]! - 1) * 100).toFixed(2)} %`,
  );
  console.log(`hydrostatic dp=${dp} t=${end}: ${rows.reverse().join('; ')}; KE ${kineticEnergy(sim).toExponential(2)}`);
}

function poiseuille(ends: number[]): void {
  const mu = 0.1;
  const sim = poiseuilleChannel({ height: 1, length: 6, dp: 0.05, mu, rho0: 1, meanVelocity: 1 });
  for (const end of ends) {
    sim.run(end);
    const { relativeL2, u, exact } = poiseuilleProfile(sim, 1, 12 * mu, mu, 20);
    const mid = (u[9]! + u[10]!) / 2;
    const midExact = (exact[9]! + exact[10]!) / 2;
    console.log(
      `poiseuille t=${end}: relative L2 ${(relativeL2 * 100).toFixed(2)} %, centre u ${mid.toFixed(4)} (analytic at band ${midExact.toFixed(4)}), wall band u ${u[0]!.toFixed(4)} vs ${exact[0]!.toFixed(4)}`,
    );
  }
}

function dam(): void {
  const sim = damBreak({ dp: 0.025 });
  const g = 1;
  const H = 1;
  const energy = (): number => {
    const { y, mass, count } = sim.fluid;
    let pe = 0;
    for (let i = 0; i < count; i++) pe += mass[i]! * g * y[i]!;
    return pe + kineticEnergy(sim);
  };
  const e0 = energy();
  let maxRise = 0;
  let previous = e0;
  const lines: string[] = [];
  for (let T = 0.25; T <= 3.0001; T += 0.25) {
    const t = T / Math.sqrt((2 * g) / H);
    sim.run(t);
    const e = energy();
    maxRise = Math.max(maxRise, (e - previous) / e0);
    previous = e;
    lines.push(`T=${T.toFixed(2)} front/H=${(surgeFront(sim) / H).toFixed(3)} E/E0=${(e / e0).toFixed(5)}`);
  }
  // Continue to SPH_DAM_END (default 20): pressure probe at (5.366, 0.2) every 0.5 s, and the energy.
  const probes: string[] = [];
  const endTime = Number(process.env.SPH_DAM_END ?? 20);
  for (let t = 2.5; t <= endTime + 1e-9; t += 0.5) {
    sim.run(t);
    const e = energy();
    maxRise = Math.max(maxRise, (e - previous) / e0);
    previous = e;
    probes.push(
      `t=${t.toFixed(1)} p/(rho g H)=${probePressure(sim, 5.366, 0.2).toFixed(3)} E/E0=${(e / e0).toFixed(4)}`,
    );
  }
  console.log(`dam break dp=0.025:\n  ${lines.join('\n  ')}\n  ${probes.join('\n  ')}`);
  console.log(`  largest energy rise between samples: ${(maxRise * 100).toFixed(4)} % of E0`);
}

const only = process.argv[2];
if (only === undefined || only === 'hydrostatic') {
  hydrostatic(0.05, 4);
  hydrostatic(0.025, 4);
}
if (only === undefined || only === 'poiseuille') poiseuille([6, 10]);
if (only === undefined || only === 'dam') dam();
