// Longer verification runs than the unit tests (results go to docs/validation.md, "SPH engine"):
//   node --import tsx packages/sph/scripts/validate.ts [hydrostatic|poiseuille|dam|martin-moyce [dp,…]|beam [div order clamp]]
// Hydrostatic tank at dp = H/20 and H/40, Poiseuille flow at t = 6 and t = 10, the 2D dam break (dp 0.025) with the
// wall-pressure probe at every advection step (CSV and SVG in packages/sph/validation/), and the surge front of
// Martin & Moyce's n² = 2 column against their Table 2; `beam` (only on request, long): cantilever periods.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  damBreak,
  hydrostaticProfile,
  oscillatingBeam,
  hydrostaticTank,
  kineticEnergy,
  poiseuilleChannel,
  poiseuilleProfile,
  probePressure,
  surgeFront,
  martinMoyceFront,
  MARTIN_MOYCE,
  type FrontPoint,
  type WeaklyCompressibleFluid,
} from '../src/index';
import { svgPlot } from './svgPlot';

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

/** Potential + kinetic energy of the fluid, and the compressional (elastic) energy Σ m c₀² (ln(ρ/ρ₀) + ρ₀/ρ − 1). */
function energies(sim: WeaklyCompressibleFluid, g: number): { mechanical: number; compression: number } {
  const { y, mass, rho, count } = sim.fluid;
  const { rho0, c0 } = sim.options;
  let pe = 0;
  let ec = 0;
  for (let i = 0; i < count; i++) {
    pe += mass[i]! * g * y[i]!;
    ec += mass[i]! * c0 * c0 * (Math.log(rho[i]! / rho0) + rho0 / rho[i]! - 1);
  }
  return { mechanical: pe + kineticEnergy(sim), compression: ec };
}

const outDir = fileURLToPath(new URL('../validation/', import.meta.url));

/**
 * The SPHinXsys dam break (dp 0.025) to SPH_DAM_END (default 20): front at T = t·√(2g/H) = 0.5 … 3, and at every
 * advection step the probe pressure at (5.366, 0.2) and the energies, written to validation/dam-break-probe.csv
 * with a plot of the probe (validation/dam-break-probe.svg).
 */
function dam(): void {
  const sim = damBreak({ dp: 0.025 });
  const [g, H] = [1, 1];
  const e0 = energies(sim, g).mechanical;
  const rows = ['t,T,p_over_rho_g_H,mechanical_over_E0,with_compression_over_E0'];
  const front: string[] = [];
  const times: number[] = [];
  const probe: number[] = [];
  let previous = e0;
  let previousTotal = e0 + energies(sim, g).compression;
  let maxRise = 0;
  let maxRiseTotal = 0;
  const endTime = Number(process.env.SPH_DAM_END ?? 20);
  const frontTimes = [0.5, 1, 1.5, 2, 2.5, 3].map((T) => T / Math.sqrt((2 * g) / H));
  const record = (): void => {
    const t = sim.counters.time;
    const { mechanical, compression } = energies(sim, g);
    maxRise = Math.max(maxRise, (mechanical - previous) / e0);
    maxRiseTotal = Math.max(maxRiseTotal, (mechanical + compression - previousTotal) / e0);
    previous = mechanical;
    previousTotal = mechanical + compression;
    const p = probePressure(sim, 5.366, 0.2) / (1 * g * H);
    times.push(t * Math.sqrt(g / H));
    probe.push(p);
    const T = t * Math.sqrt((2 * g) / H);
    rows.push(
      `${t.toFixed(5)},${T.toFixed(5)},${p.toFixed(5)},${(mechanical / e0).toFixed(6)},${((mechanical + compression) / e0).toFixed(6)}`,
    );
  };
  for (const stop of [...frontTimes, endTime]) {
    sim.run(stop, record);
    if (stop !== endTime)
      front.push(`T=${(stop * Math.sqrt((2 * g) / H)).toFixed(1)} front/H=${(surgeFront(sim) / H).toFixed(3)}`);
  }
  mkdirSync(outDir, { recursive: true });
  writeFileSync(`${outDir}dam-break-probe.csv`, rows.join('\n') + '\n');
  writeFileSync(
    `${outDir}dam-break-probe.svg`,
    svgPlot([{ label: 'probe (5.366, 0.2)', x: times, y: probe, colour: '#1f77b4' }], {
      title: `2D dam break (SPHinXsys set-up, dp = 0.025): pressure on the right wall, every advection step`,
      xLabel: 't·√(g/H)',
      yLabel: 'p / (ρ g H)',
    }),
  );
  const peak = probe.reduce((m, p, i) => (p > probe[m]! ? i : m), 0);
  console.log(
    `dam break dp=0.025 to t=${endTime}: ${sim.counters.advectionSteps} advection / ${sim.counters.acousticSteps} acoustic steps`,
  );
  console.log(`  ${front.join('; ')}`);
  console.log(
    `  probe: first > 0.05 at t√(g/H) = ${times[probe.findIndex((p) => p > 0.05)]?.toFixed(3)}; peak ${probe[peak]!.toFixed(3)} at ${times[peak]!.toFixed(3)}`,
  );
  console.log(
    `  final mechanical energy ${(previous / e0).toFixed(4)} E0; largest rise between advection steps: mechanical ${(maxRise * 100).toExponential(2)} % of E0, with compression ${(maxRiseTotal * 100).toExponential(2)} %`,
  );
}

/**
 * Martin & Moyce (1952), Table 2: surge front Z = z/a against T = t·√(2g/a) for the column of width a and height
 * 2a (n² = 2, a = 2¼ in); transcribed in TormodLandet/Ocellaris, scripts/plot_dam_break.py.
 */
/** A relative error as a signed percentage. */
const pct = (e: number): string => `${e >= 0 ? '+' : '−'}${Math.abs(e * 100).toFixed(1)} %`;

/**
 * Martin & Moyce's n² = 2 column at each spacing of `dps` (default a/40 and a/80) on 2 threads (`martinMoyceFront`):
 * the table for docs/validation.md and the front plot; then the SPHinXsys column (width 2H) for contrast.
 */
async function martinMoyce(dps: number[]): Promise<void> {
  const g = 1;
  const series: { label: string; x: number[]; y: number[]; colour: string }[] = [];
  const colours = ['#1f77b4', '#2ca02c', '#9467bd', '#8c564b'];
  for (const dp of dps) {
    const x: number[] = [0];
    const y: number[] = [1];
    const { points, particles, steps } = await martinMoyceFront(dp, {
      threads: 2,
      onSample: (T, Z) => {
        x.push(T);
        y.push(Z);
      },
    });
    console.log(
      `\nMartin & Moyce n²=2 column, dp = a/${Math.round(1 / dp)} (${particles} particles, steps ${steps.join(' / ')}):`,
    );
    console.log('| T | M&M Z | Z largest x | error | Z continuous layer | error | T lead |');
    for (const q of points) {
      console.log(
        `| ${q.T.toFixed(2)} | ${q.experiment.toFixed(2)} | ${q.largestX.toFixed(3)} | ${pct(q.largestXError)} | ${q.layer.toFixed(3)} | ${pct(q.layerError)} | ${q.timeLead.toFixed(2)} |`,
      );
    }
    const upTo3 = points.filter((q) => q.T <= 3);
    const worst = (e: (q: FrontPoint) => number): string => pct(Math.max(...upTo3.map((q) => Math.abs(e(q)))));
    console.log(
      `largest |error| up to T = 3: largest x ${worst((q) => q.largestXError)}, continuous layer ${worst((q) => q.layerError)}`,
    );
    series.push({ label: `SPH, dp = a/${Math.round(1 / dp)}`, x, y, colour: colours[series.length]! });
  }
  mkdirSync(outDir, { recursive: true });
  writeFileSync(
    `${outDir}dam-break-front.svg`,
    svgPlot(
      [
        ...series,
        {
          label: 'Martin & Moyce (1952)',
          x: [...MARTIN_MOYCE.T],
          y: [...MARTIN_MOYCE.Z],
          style: 'points',
          colour: '#d62728',
        },
      ],
      { title: 'Collapse of a column 2a high and a wide: surge front', xLabel: 'T = t·√(2g/a)', yLabel: 'Z = z/a' },
    ),
  );
  // The SPHinXsys column (H high, 2H wide; n² = 1/2) in Martin & Moyce's scaling with a = its width 2H, up to the
  // issue's t·√(2g/H) = 3 (T = 2.12): a different aspect ratio, shown because it is often plotted against n² = 2.
  const wide = damBreak({ dp: 0.025 });
  const wideLines: string[] = [];
  let wideWorst = 0;
  MARTIN_MOYCE.T.filter((T) => T <= 3 / Math.SQRT2).forEach((T, k) => {
    wide.run(T / Math.sqrt((2 * g) / 2));
    const Z = surgeFront(wide) / 2;
    const err = Z / MARTIN_MOYCE.Z[k]! - 1;
    wideWorst = Math.max(wideWorst, Math.abs(err));
    wideLines.push(`T=${T.toFixed(2)} Z=${Z.toFixed(3)} (${(err * 100).toFixed(1)} %)`);
  });
  console.log(
    `SPHinXsys column (n² = 1/2), a = 2H:\n  ${wideLines.join('\n  ')}\n  largest |error| ${(wideWorst * 100).toFixed(1)} %`,
  );
}

/**
 * Oscillating cantilever plate (SPHinXsys set-up, vf = 0.05): first-mode period from the first zero crossing of the
 * mean tip deflection (half a period), for gradient order 1/2 and the SPHinXsys or built-in ('rigid') clamp.
 * `beam [div] [order] [clamp]` runs one case at dp = H/div; without arguments the H/10 matrix.
 */
function beam(args: string[]): void {
  const runs: [number, 1 | 2, 'sphinxsys' | 'rigid'][] =
    args.length > 0
      ? [[Number(args[0]), Number(args[1] ?? 2) as 1 | 2, (args[2] ?? 'rigid') as 'sphinxsys' | 'rigid']]
      : [
          [10, 1, 'sphinxsys'],
          [10, 1, 'rigid'],
          [10, 2, 'sphinxsys'],
          [10, 2, 'rigid'],
        ];
  for (const [div, order, clamp] of runs) {
    const { solid, tip, analyticPeriod } = oscillatingBeam({ dp: 0.02 / div, gradientOrder: order, clamp });
    const deflection = (): number => tip.reduce((s, i) => s + solid.particles.y[i]! - solid.y0[i]!, 0) / tip.length;
    let [previous, previousTime, crossing] = [0, 0, NaN];
    while (Number.isNaN(crossing) && solid.counters.time < analyticPeriod) {
      solid.step(analyticPeriod);
      const d = deflection();
      if (previous > 0 && d <= 0)
        crossing = previousTime + (solid.counters.time - previousTime) * (previous / (previous - d));
      previous = d;
      previousTime = solid.counters.time;
    }
    const T = 2 * crossing;
    console.log(
      `beam H/${div} order ${order} ${clamp} clamp: T = ${T.toFixed(4)} s, T/T_analytic = ${(T / analyticPeriod).toFixed(4)} (${solid.particles.count} particles, ${solid.counters.steps} steps)`,
    );
  }
}

const only = process.argv[2];
if (only === undefined || only === 'hydrostatic') {
  hydrostatic(0.05, 4);
  hydrostatic(0.025, 4);
}
if (only === undefined || only === 'poiseuille') poiseuille([6, 10]);
if (only === undefined || only === 'dam') dam();
if (only === undefined || only === 'martin-moyce') {
  const dps = process.argv[3]?.split(',').map(Number) ?? [0.025, 0.0125];
  await martinMoyce(dps);
}
if (only === 'beam') beam(process.argv.slice(3));
