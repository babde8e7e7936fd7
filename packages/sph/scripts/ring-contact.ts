// The ring-in-tube contact check of docs/validation.md ("A ring pressed into a rigid tube"), one or more resolutions:
//   node --import tsx packages/sph/scripts/ring-contact.ts [a/dp list, default 3,4,6] [fit, default 0.99]
// A torus (R₀ = 1 m, a = 0.15 m, neo-Hookean E = 1 MPa, ν = 0.3, ρ = 1000 kg/m³) crimped to 0.85, expanded into a
// rigid tube of radius fit × (R₀ + a), released and settled (`ringInTube`). Prints, per resolution, what the product
// reports (total contact force, peak contact pressure) against the thin-ring reference at the measured centre-line
// radius (2π × hoop force; Hertz's line contact of the tube on the wall), and with three resolutions the grid
// convergence (Celik et al.) of the contact force and of the peak pressure.
import { convergenceLines } from '../src/gci';
import { ringInTube } from '../src/ringContact';

const resolutions = (process.argv[2] ?? '3,4,6').split(',').map(Number);
const fit = Number(process.argv[3] ?? 0.99);
const rows: { dp: number; force: number; peak: number }[] = [];
for (const n of resolutions) {
  const t0 = Date.now();
  const r = ringInTube({ resolution: n, fit });
  const ref = r.reference;
  rows.push({ dp: r.dp, force: r.contactForce, peak: r.peakPressure });
  const pct = (x: number, y: number) => `${(100 * (x / y - 1)).toFixed(2)} %`;
  console.log(
    JSON.stringify({
      'a/dp': n,
      dp: r.dp,
      particles: r.particles,
      steps: r.steps,
      seconds: (Date.now() - t0) / 1000,
      tubeRadius: r.tubeRadius,
      nominalRadius: r.nominalRadius,
      radius: r.radius,
      hoopStrain: ref.strain,
      contactForce: r.contactForce,
      radialForce: r.radialForce,
      referenceForce: ref.contactForce,
      forceError: pct(r.contactForce, ref.contactForce),
      radialForceError: pct(r.radialForce, ref.contactForce),
      stressHoopForce: r.hoopForce,
      referenceHoopForce: ref.hoopForce,
      forceOverTwoPiStressHoop: pct(r.contactForce, 2 * Math.PI * r.hoopForce),
      stressHoopOverReference: pct(r.hoopForce, ref.hoopForce),
      peakPressure: r.peakPressure,
      lineLoadOverDp: ref.lineLoad / r.dp,
      peakOverLineLoadOverDp: r.peakPressure / (ref.lineLoad / r.dp),
      peakOnDevice: r.peakDevicePressure,
      peakOnDeviceOverLineLoadOverDp: r.peakDevicePressure / (ref.lineLoad / r.dp),
      hertzPeak: ref.peakPressure,
      hertzHalfWidth: ref.halfWidth,
      'b/dp': ref.halfWidth / r.dp,
    }),
  );
}
if (rows.length === 3) {
  for (const line of convergenceLines(rows, (r) => r.dp, [
    ['contact force (N)', (r) => r.force],
    ['peak contact pressure (Pa)', (r) => r.peak],
  ]))
    console.log(line);
}
