// The moving-wall mass balance on a patient's left ventricle over a heart cycle (docs/validation.md, "Moving vessel
// wall", the patient case; test/patientLv.ts): at each frame time, the volume out of the outlet against the lumen
// volume lost before the outlet plane (from the frame meshes), in % of the stroke volume before the plane, at
// dp = each value given in mm (default 5 4 3), for patient `--patient=i` (default 0) at `--hr=` bpm (default 70), for
// each outlet refill guard of `--guard=` (dp, comma-separated; default the engine's):
//   node --import tsx packages/scenarios/scripts/moving-wall-patient.ts [dp_mm …] [--patient=0] [--hr=70] [--c0=10 (× u_ref)] [--guard=0.5,0.8] [--linear]
// Also per frame time (docs/decisions/sph-outlet-buffer-fill.md, "The refill guard"): the outlet buffer's particles
// over its set-up count (at the frame, and the fewest and most over the steps since the last frame) and its mass over
// ρ₀ × the lumen between the plane and the buffer's far end (from the frame mesh), the interior's
// mass deficit (1 − interior mass / (ρ₀ × lumen volume before the plane), less its value at t = 0: the moving
// particles missing as the ventricle fills through the outlet) and the fastest particle over u_ref. A run whose
// velocities stop being finite is reported as broken down at that time.
import { openVessel } from '@insilico/sph';
import { RHO, outletCrossings, patientLv, volumeBehindPlane } from '../test/patientLv';

const arg = (name: string): string | undefined =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const lv = patientLv(Number(arg('patient') ?? 0), Number(arg('hr') ?? 70));
const { systole, ejection, period } = lv;
const last = systole.length - 1;
const dps = process.argv
  .slice(2)
  .filter((a) => !a.startsWith('--'))
  .map((a) => Number(a) * 1e-3);
console.log(
  `${lv.patient.id} (${lv.patient.sex}), EDV ${lv.patient.cardiac.lvEdv_mL.toFixed(1)} mL, ESV ${lv.patient.cardiac.lvEsv_mL.toFixed(1)} mL; ` +
    `period ${period.toFixed(4)} s, ejection ${ejection.toFixed(3)} s`,
);
/** The outlet buffer's count and the fastest particle, step by step. */
class BufferWatch {
  readonly setUp: number;
  readonly setUpInside: number;
  fewest = Infinity;
  most = 0;
  private span = { fewest: Infinity, most: 0, fastest: 0 };

  constructor(
    private readonly open: ReturnType<typeof openVessel>,
    private readonly uRef: number,
  ) {
    this.setUp = this.count();
    const f = open.sim.fluid;
    let m = 0;
    for (let i = 0; i < f.count; i++) if (open.isInterior(i)) m += f.mass[i]!;
    this.setUpInside = m;
  }

  private count(): number {
    const f = this.open.sim.fluid;
    let n = 0;
    for (let i = 0; i < f.count; i++) {
      if (!this.open.isInterior(i) && !this.open.isEmitter(i) && !this.open.isReturned(i)) n++;
    }
    return n;
  }

  afterStep(): void {
    const f = this.open.sim.fluid;
    let fastest = 0;
    for (let i = 0; i < f.count; i++) fastest = Math.max(fastest, Math.hypot(f.vx[i]!, f.vy[i]!, f.vz[i]!));
    if (!Number.isFinite(fastest)) throw new Error('velocities not finite');
    const n = this.count();
    this.fewest = Math.min(this.fewest, n);
    this.most = Math.max(this.most, n);
    this.span.fewest = Math.min(this.span.fewest, n);
    this.span.most = Math.max(this.span.most, n);
    this.span.fastest = Math.max(this.span.fastest, fastest / this.uRef);
  }

  /** The count now and the fewest, most and fastest since the last call. */
  take(): { now: number; fewest: number; most: number; fastest: number } {
    const seen = { now: this.count(), ...this.span };
    this.span = { fewest: Infinity, most: 0, fastest: 0 };
    return seen;
  }
}

const guards = arg('guard')?.split(',').map(Number) ?? [undefined];
for (const [dp, guard] of (dps.length ? dps : [5e-3, 4e-3, 3e-3]).flatMap((d) => guards.map((g) => [d, g] as const))) {
  const started = performance.now();
  const base = lv.options(dp, Number(arg('c0') ?? 10));
  const o = guard === undefined ? base : { ...base, outlets: base.outlets.map((p) => ({ ...p, refillGuard: guard })) };
  const open = openVessel(
    systole[0]!,
    process.argv.includes('--linear') ? { ...o, motion: { ...o.motion!, interpolation: 'linear' } } : o,
  );
  const before = (k: number): number => lv.volumeBeforeOutlet(systole[k]!, dp) * 1e-9;
  const buffer = new BufferWatch(open, o.uRef);
  // The lumen between the outlet plane and the buffer's far end (4 dp on), m³: what a full buffer holds.
  const [cx, cy, cz] = lv.centreAt(dp);
  const [nx, ny, nz] = lv.normal;
  const reach = 4 * dp * 1e3;
  const far: [number, number, number] = [cx + reach * nx, cy + reach * ny, cz + reach * nz];
  const bufferLumen = (k: number) => volumeBehindPlane(systole[k]!, far, lv.normal) * 1e-9 - before(k);
  const particleMass = open.sim.fluid.mass[0]!;
  // The interior's mass against the lumen before the plane (from the frame meshes), as it was at t = 0.
  const deficit = (inside: number, k: number) => 1 - inside / (RHO * before(k));
  const deficit0 = deficit(buffer.setUpInside, 0);
  const stroke = before(0) - before(last);
  const start = open.crossedMass().outflow[0]!;
  const outlet = o.outlets[0]!;
  const rows: string[] = [];
  // Every frame time: ejection frames 1 … last, then filling frames last − 1 … 1 and end-diastole at the period.
  const times: [number, number][] = [];
  for (let k = 1; k <= last; k++) times.push([(k * ejection) / last, k]);
  for (let j = 1; j <= last; j++) times.push([ejection + (j * (period - ejection)) / last, j === last ? 0 : last - j]);
  let worst = 0;
  let broke: string | null = null;
  for (const [time, k] of times) {
    try {
      open.run(time, () => buffer.afterStep());
    } catch (e) {
      // Not finite, or the particle capacity exhausted by the refill: the outlet buffer broke down.
      broke = `at t ${open.counters.time.toFixed(4)} s (${e instanceof Error ? e.message : String(e)})`;
      break;
    }
    const seen = buffer.take();
    const out = outletCrossings(open, outlet) / RHO;
    const smooth = (open.crossedMass().outflow[0]! - start) / RHO;
    const lost = before(0) - before(k);
    const f = open.sim.fluid;
    let rho = 0;
    for (let i = 0; i < f.count; i++) rho += f.rho[i]!;
    const error = (out - lost) / stroke;
    worst = Math.max(worst, Math.abs(error));
    rows.push(
      `t ${time.toFixed(4)} s (frame ${k}): out ${(out * 1e6).toFixed(2)} mL, lost ${(lost * 1e6).toFixed(2)} mL, ` +
        `error ${(error * 100).toFixed(2)} % of ${(stroke * 1e6).toFixed(2)} mL (smooth crossed mass ${(((smooth - lost) / stroke) * 100).toFixed(2)} %), mean ρ/ρ0−1 ${(rho / f.count / RHO - 1).toExponential(2)}; ` +
        `outlet buffer ${seen.now}/${buffer.setUp} (${seen.fewest}–${seen.most} since the last frame; ` +
        `${(((seen.now * particleMass) / (RHO * bufferLumen(k))) * 100).toFixed(0)} % of its lumen), ` +
        `interior deficit ${((deficit(open.history.at(-1)!.inside, k) - deficit0) * 100).toFixed(2)} %, fastest ${seen.fastest.toFixed(2)} u_ref`,
    );
  }
  console.log(
    `dp ${dp * 1e3} mm, refill guard ${guard ?? 'default'} dp: ` +
      (broke === null ? '' : `BROKE DOWN ${broke}; `) +
      `outlet buffer ${buffer.fewest}–${buffer.most} of ${buffer.setUp} over the run; ${open.sim.fluid.count} fluid, ${open.sim.wall.count} wall particles, u_ref ${o.uRef.toFixed(3)} m/s, ` +
      `worst ${(worst * 100).toFixed(2)} %, ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  for (const r of rows) console.log(`  ${r}`);
}
