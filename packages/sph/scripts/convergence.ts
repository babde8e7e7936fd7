// Three-resolution convergence of the verification cases with Roache's grid convergence index (issue 15 item 8;
// procedure of Celik et al. 2008, `src/gci.ts`). Results go to docs/validation.md ("Convergence").
//   nice node --import tsx packages/sph/scripts/convergence.ts [case …]
// Cases: poiseuille2d, poiseuille3d[=4,6,8], womersley, womersley-rest, lame, cantilever, dam (default: all, about an
// hour on one loaded core).
// For each case and quantity it prints the value at each spacing, then p, φ_ext, e_a21, e_ext21, GCI21, GCI32 and the
// asymptotic ratio GCI32/(r21^p GCI21).
import { quarterPeriod } from '../src/beamPeriod';
import { formatGci, gridConvergence } from '../src/gci';
import { damBreak, oscillatingBeam, poiseuilleChannel } from '../src/cases';
import { hagenPoiseuilleTube } from '../src/openCases';
import { steadyAverages } from '../test/openRuns';
import { lameRun } from '../src/lame';
import { poiseuilleParticleError, poiseuilleStartup, surgeFront } from '../src/verification';
import { womersleyRun } from '../src/womersley';

type Triple = [number, number, number];

/** GCI line of `phi` computed at spacings `h` (any order: sorted finest first here). */
function report(label: string, hIn: Triple, phiIn: Triple): void {
  const order = [0, 1, 2].sort((a, b) => hIn[a]! - hIn[b]!);
  const h = order.map((k) => hIn[k]!) as Triple;
  const phi = order.map((k) => phiIn[k]!) as Triple;
  try {
    console.log(formatGci(label, h, phi, gridConvergence(h, phi)));
  } catch (e) {
    console.log(`${label}: ${phi.map((v) => v.toPrecision(5)).join(', ')} — GCI not defined: ${(e as Error).message}`);
  }
}

/**
 * Observed order from the errors φ − `exact` at spacings `h` (any order): p between consecutive pairs,
 * ln(e_coarse/e_fine)/ln(h_coarse/h_fine). GCI is not used for a quantity that tends to zero (an error itself).
 */
function errorOrders(label: string, h: readonly number[], phi: readonly number[], exact = 0): void {
  const err = phi.map((v) => v - exact);
  const order = [0, 1, 2].sort((a, b) => h[b]! - h[a]!);
  const pairs: string[] = [];
  for (let k = 0; k + 1 < order.length; k++) {
    const [c, f] = [order[k]!, order[k + 1]!];
    pairs.push((Math.log(Math.abs(err[c]! / err[f]!)) / Math.log(h[c]! / h[f]!)).toFixed(2));
  }
  console.log(
    `${label}: errors ${order.map((k) => err[k]!.toExponential(3)).join(', ')} (coarse to fine); observed order ${pairs.join(', ')}`,
  );
}

function timed<T>(label: string, f: () => T): T {
  const t0 = Date.now();
  const r = f();
  console.log(`  (${label}: ${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  return r;
}

/** 2D Poiseuille start-up (H = 1, L = 1, μ = 0.1, U = 1) at t = 2: speed / analytic of the particles within dp of the centre line, and the particle L2. */
function poiseuille2d(): void {
  const divs: Triple = [10, 20, 40];
  const centre: number[] = [];
  const l2: number[] = [];
  const mu = 0.1;
  const g = 12 * mu;
  const t = 2;
  for (const div of divs) {
    const sim = poiseuilleChannel({ height: 1, length: 1, dp: 1 / div, mu, rho0: 1, meanVelocity: 1 });
    timed(`H/${div}`, () => sim.run(t));
    const f = sim.fluid;
    let [s, n] = [0, 0];
    for (let i = 0; i < f.count; i++) {
      if (Math.abs(f.y[i]! - 0.5) > 1 / div) continue;
      s += f.vx[i]! / poiseuilleStartup(f.y[i]!, t, 1, g, mu);
      n++;
    }
    centre.push(s / n);
    const e = poiseuilleParticleError(sim, 1, g, mu);
    l2.push(e.relativeL2);
    console.log(
      `poiseuille2d H/${div}: centre / analytic ${(s / n).toFixed(5)}, particle L2 ${(e.relativeL2 * 100).toFixed(3)} %`,
    );
  }
  const h = divs.map((d) => 1 / d) as Triple;
  report('poiseuille2d centre-line speed / analytic (t = 2)', h, centre as Triple);
  errorOrders('poiseuille2d particle relative L2 (t = 2)', h, l2);
}

/** 3D Hagen–Poiseuille tube (rings; R = 0.5, L = 2, Re 2) to T = 1.5, averages over [0.75, 1.5]. */
function poiseuille3d(divs: Triple = [4, 6, 8]): void {
  const grad: number[] = [];
  const centre: number[] = [];
  const massFlow: number[] = [];
  for (const div of divs) {
    const o = { radius: 0.5, length: 2, dp: 0.5 / div, axis: [0, 0, 0] as const };
    const pipe = hagenPoiseuilleTube({ ...o, rho0: 1, mu: 0.5, meanVelocity: 1 });
    const a = timed(`R/${div}`, () => steadyAverages(pipe, o, 1.5, 0.75));
    grad.push(a.gradient / pipe.pressureGradient);
    centre.push(a.centre);
    massFlow.push(a.smoothOut / a.smoothIn);
    console.log(
      `poiseuille3d R/${div}: ${pipe.open.sim.fluid.count} particles, −dp/dx / analytic ${(a.gradient / pipe.pressureGradient).toFixed(4)}, centre / analytic ${a.centre.toFixed(4)}, smooth out/in ${(a.smoothOut / a.smoothIn).toFixed(4)}`,
    );
  }
  const h = divs.map((d) => 0.5 / d) as Triple;
  report('poiseuille3d pressure gradient / analytic', h, grad as Triple);
  report('poiseuille3d centre-line speed / analytic', h, centre as Triple);
  errorOrders('poiseuille3d pressure gradient error', h, grad, 1);
  errorOrders('poiseuille3d centre-line speed error', h, centre, 1);
  errorOrders('poiseuille3d outlet / inlet mass flow − 1', h, massFlow, 1);
}

/** Womersley channel, α = 4, two periods from the analytic state, H/10, H/20, H/40. */
function womersley(): void {
  const divs: Triple = [10, 20, 40];
  const amp: number[] = [];
  const phase: number[] = [];
  const prof: number[] = [];
  for (const div of divs) {
    const r = timed(`H/${div}`, () => womersleyRun({ dp: 1 / div, alpha: 4 }, 2, 4));
    amp.push(1 + r.centreAmplitudeError);
    phase.push(r.centrePhaseError);
    prof.push(Math.max(...r.profileErrors.map((e) => e.maxError)));
    console.log(
      `womersley α = 4 H/${div}: profile errors / centre amplitude at T/4 … T: ${r.profileErrors.map((e) => (e.maxError * 100).toFixed(2) + ' %').join(', ')}; band amplitudes within ${(r.amplitudeError * 100).toFixed(2)} %; centre amplitude ${(r.centreAmplitudeError * 100).toFixed(2)} %, phase ${r.centrePhaseError.toFixed(4)} rad`,
    );
  }
  const h = divs.map((d) => 1 / d) as Triple;
  report('womersley centre amplitude / analytic', h, amp as Triple);
  errorOrders('womersley largest profile error / centre amplitude', h, prof);
  errorOrders('womersley centre amplitude error', h, amp, 1);
  console.log(`womersley centre phase error (rad): ${phase.map((p) => p.toFixed(4)).join(', ')}`);
}

/** Womersley channel from rest, α = 4, H/20 and H/40: the last of 8 periods (the start-up decays as e^(−π²νt/H²)). */
function womersleyRest(): void {
  for (const div of [20, 40]) {
    const r = timed(`H/${div}`, () => womersleyRun({ dp: 1 / div, alpha: 4, fromRest: true }, 8, 4));
    console.log(
      `womersley from rest, α = 4, H/${div}, period 8: profile errors / centre amplitude at T/4 … T: ${r.profileErrors.map((e) => (e.maxError * 100).toFixed(2) + ' %').join(', ')}; band amplitudes within ${(r.amplitudeError * 100).toFixed(2)} %; centre amplitude ${(r.centreAmplitudeError * 100).toFixed(2)} %, phase ${r.centrePhaseError.toFixed(4)} rad`,
    );
  }
}

/** Lamé ring (a = 1, b = 2, plane strain) at (b − a)/10, /20, /40. */
function lame(): void {
  const divs: Triple = [10, 20, 40];
  const inner: number[] = [];
  const mid: number[] = [];
  for (const div of divs) {
    const { profile, errors } = timed(`(b − a)/${div}`, () => lameRun({ dp: 1 / div }));
    inner.push(1 + errors.innerDisplacement);
    // The ring nearest mid-wall (r = 1.5).
    const k = profile.radius.reduce(
      (best, r, j) => (Math.abs(r - 1.5) < Math.abs(profile.radius[best]! - 1.5) ? j : best),
      0,
    );
    mid.push(profile.ur[k]! / profile.exact.ur[k]!);
    console.log(
      `lame (b − a)/${div}: inner u_r ${(errors.innerDisplacement * 100).toFixed(3)} %, outer u_r ${(errors.outerDisplacement * 100).toFixed(3)} %, mid-wall u_r ${((profile.ur[k]! / profile.exact.ur[k]! - 1) * 100).toFixed(3)} %, hoop stress ${(errors.hoopStress * 100).toFixed(2)} % of p, radial stress ${(errors.radialStress * 100).toFixed(2)} % of p (surface rings included)`,
    );
  }
  const h = divs.map((d) => 1 / d) as Triple;
  report('lame inner-wall radial displacement / analytic', h, inner as Triple);
  report('lame mid-wall radial displacement / analytic', h, mid as Triple);
  errorOrders('lame mid-wall displacement error', h, mid, 1);
}

/** Cantilever (case defaults: built-in clamp, order 2) at H/5, H/10, H/20: period from the quarter-period peak. */
function cantilever(): void {
  const divs: Triple = [5, 10, 20];
  const periods: number[] = [];
  for (const div of divs) {
    const beam = oscillatingBeam({ dp: 0.02 / div });
    const { period } = timed(`H/${div}`, () => quarterPeriod(beam));
    periods.push(period / beam.analyticPeriod);
    console.log(
      `cantilever H/${div}: ${beam.solid.particles.count} particles, T / T_analytic ${(period / beam.analyticPeriod).toFixed(4)}`,
    );
  }
  report('cantilever period / Euler–Bernoulli', divs.map((d) => 0.02 / d) as Triple, periods as Triple);
  errorOrders(
    'cantilever period error',
    divs.map((d) => 0.02 / d),
    periods,
    1,
  );
}

/** SPHinXsys dam break (H = 1) at H/20, H/40, H/80: front at t√(2g/H) = 1, 2, 3. */
function dam(): void {
  const divs: Triple = [20, 40, 80];
  const Ts = [1, 2, 3];
  const fronts: number[][] = Ts.map(() => []);
  for (const div of divs) {
    const sim = damBreak({ dp: 1 / div });
    timed(`H/${div}`, () => {
      Ts.forEach((T, k) => {
        sim.run(T / Math.SQRT2);
        fronts[k]!.push(surgeFront(sim));
      });
    });
    console.log(
      `dam H/${div}: fronts / H at t√(2g/H) = 1, 2, 3: ${Ts.map((_, k) => fronts[k]![fronts[k]!.length - 1]!.toFixed(4)).join(', ')}`,
    );
  }
  const h = divs.map((d) => 1 / d) as Triple;
  Ts.forEach((T, k) => report(`dam front / H at t√(2g/H) = ${T}`, h, fronts[k] as Triple));
}

const cases: Record<string, (divs?: Triple) => void> = {
  poiseuille2d,
  poiseuille3d,
  womersley,
  'womersley-rest': womersleyRest,
  lame,
  cantilever,
  dam,
};
// `case=a,b,c` picks the resolutions of the 3D tube (R/a, R/b, R/c; default 4,6,8).
const chosen = process.argv.slice(2);
for (const arg of chosen.length > 0 ? chosen : Object.keys(cases)) {
  const [name, divs] = arg.split('=') as [string, string | undefined];
  const run = cases[name];
  if (!run) throw new Error(`unknown case ${name}; one of ${Object.keys(cases).join(', ')}`);
  run(divs ? (divs.split(',').map(Number) as Triple) : undefined);
}
