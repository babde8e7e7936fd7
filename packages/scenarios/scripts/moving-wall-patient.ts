// The moving-wall mass balance on a patient's left ventricle over a heart cycle (docs/validation.md, "Moving vessel
// wall", the patient case; test/patientLv.ts): at each frame time, the volume out of the outlet against the lumen
// volume lost before the outlet plane (from the frame meshes), in % of the stroke volume before the plane, at
// dp = each value given in mm (default 5 4 3), for patient `--patient=i` (default 0) at `--hr=` bpm (default 70):
//   node --import tsx packages/scenarios/scripts/moving-wall-patient.ts [dp_mm …] [--patient=0] [--hr=70] [--c0=10 (× u_ref)] [--linear]
import { openVessel } from '@insilico/sph';
import { RHO, outletCrossings, patientLv } from '../test/patientLv';

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
for (const dp of dps.length ? dps : [5e-3, 4e-3, 3e-3]) {
  const started = performance.now();
  const o = lv.options(dp, Number(arg('c0') ?? 10));
  const open = openVessel(
    systole[0]!,
    process.argv.includes('--linear') ? { ...o, motion: { ...o.motion!, interpolation: 'linear' } } : o,
  );
  const before = (k: number): number => lv.volumeBeforeOutlet(systole[k]!, dp) * 1e-9;
  const stroke = before(0) - before(last);
  const start = open.crossedMass().outflow[0]!;
  const outlet = o.outlets[0]!;
  const rows: string[] = [];
  // Every frame time: ejection frames 1 … last, then filling frames last − 1 … 1 and end-diastole at the period.
  const times: [number, number][] = [];
  for (let k = 1; k <= last; k++) times.push([(k * ejection) / last, k]);
  for (let j = 1; j <= last; j++) times.push([ejection + (j * (period - ejection)) / last, j === last ? 0 : last - j]);
  let worst = 0;
  for (const [time, k] of times) {
    open.run(time);
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
        `error ${(error * 100).toFixed(2)} % of ${(stroke * 1e6).toFixed(2)} mL (smooth crossed mass ${(((smooth - lost) / stroke) * 100).toFixed(2)} %), mean ρ/ρ0−1 ${(rho / f.count / RHO - 1).toExponential(2)}`,
    );
  }
  console.log(
    `dp ${dp * 1e3} mm: ${open.sim.fluid.count} fluid, ${open.sim.wall.count} wall particles, u_ref ${o.uRef.toFixed(3)} m/s, ` +
      `worst ${(worst * 100).toFixed(2)} %, ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  for (const r of rows) console.log(`  ${r}`);
}
