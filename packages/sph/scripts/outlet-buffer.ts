// The pressure outlet's buffer in diastole (docs/decisions/sph-outlet-buffer-fill.md), the channel of
// `diastole.test.ts` with a longer diastole:
//   node --import tsx packages/sph/scripts/outlet-buffer.ts [dim 2|3, default 2] [backend ts|wasm, default ts]
//     [period s, default 3.6]
// A half-sine ejection over 1.6 s through a plug inlet (1 m/s mean at the peak), then no flow until the period ends;
// outlet at the reference pressure, c₀ = 10 u_ref, R = 0.5, 5R long, dp = R/10 (2D) or R/5 (3D). Prints the outlet
// buffer's count (set-up, fewest, most), the interior's mean pressure over the last 1.33 s (two periods of the
// channel's quarter-wave mode, in ρ₀c₀²), the interior mass at the end over the set-up's, and the interior's rms
// speed 0.8–1.0 s after the inflow stopped and in the last 0.2 s, over systole's peak rms.
import { diastoleChannel } from '../src/openCases';

const dim = Number(process.argv[2] ?? 2) as 2 | 3;
const backend = (process.argv[3] ?? 'ts') as 'ts' | 'wasm';
const period = Number(process.argv[4] ?? 3.6);
const ejection = 1.6;
const { open } = diastoleChannel({ dim, backend, tensileControl: true, period });
const f = open.sim.fluid;
const { c0, rho0 } = open.sim.options;
const inOutletBuffer = (i: number) => !open.isInterior(i) && !open.isEmitter(i) && !open.isReturned(i);
const interior = () => {
  let m = 0;
  let p = 0;
  let v2 = 0;
  let n = 0;
  for (let i = 0; i < f.count; i++) {
    if (!open.isInterior(i)) continue;
    m += f.mass[i]!;
    p += f.p[i]!;
    v2 += f.vx[i]! ** 2 + f.vy[i]! ** 2 + f.vz[i]! ** 2;
    n++;
  }
  return { mass: m, pressure: p / n, rms: Math.sqrt(v2 / n) };
};
let setUp = 0;
for (let i = 0; i < f.count; i++) if (inOutletBuffer(i)) setUp++;
const mass0 = interior().mass;
let fewest = setUp;
let most = setUp;
let peakRms = 0;
let afterOne = Infinity;
let last = Infinity;
let pressureSum = 0;
let pressureCount = 0;
open.run(period, (c) => {
  let n = 0;
  for (let i = 0; i < f.count; i++) if (inOutletBuffer(i)) n++;
  fewest = Math.min(fewest, n);
  most = Math.max(most, n);
  const s = interior();
  peakRms = Math.max(peakRms, s.rms);
  if (c.time > ejection + 0.8 && c.time <= ejection + 1) afterOne = Math.min(afterOne, s.rms);
  if (c.time > period - 0.2) last = Math.min(last, s.rms);
  if (c.time > period - 1.33) {
    pressureSum += s.pressure;
    pressureCount++;
  }
});
console.log(
  JSON.stringify({
    dim,
    backend,
    period,
    outletBuffer: { setUp, fewest, most },
    meanPressureAtRest: pressureSum / pressureCount / (rho0 * c0 * c0),
    massOverSetUp: interior().mass / mass0,
    rmsOneSecondAfter: afterOne / peakRms,
    rmsAtEnd: last / peakRms,
  }),
);
