// The elastic anatomy's check of docs/decisions/solid-contact-pressure.md ("The elastic anatomy"), three resolutions:
//   node --import tsx packages/sph/scripts/elastic-tube.ts [dp list, default 0.05,0.0333333,0.025] [tube inner radius,
//     default 0.99] [the tube's spacing over the device's, default 1] [tube thickness, m, default 0.2]
// A device ring (radii 0.8 … 1 m, neo-Hookean E 20 MPa, ν 0.3) crimped to 0.9, expanded by the engine's sheath into an
// elastic tube (inner radius 0.99 m, 0.2 m thick, E 1 MPa, ν 0.45), released and settled, 2D plane strain
// (`ringInElasticTube`). Prints per resolution the product's line load (in 2D the mean contact pressure) against Lamé:
// the pressure the tube's measured inner-wall displacement implies, and the shrink fit's pressure from the
// interference; then the grid convergence (Celik et al.) of the line load and of the peak contact pressure. A tube
// spacing factor of 2 is the elastic wall coarser than the device (the case file's `walls.vessel.elastic.dp`): at
// least three layers through the tube need a thickness of 3 × its spacing (0.3 m at dp 0.05).
import { ringInElasticTube } from '../src/elasticTube';
import { convergenceLines } from '../src/gci';

const spacings = (process.argv[2] ?? '0.05,0.0333333,0.025').split(',').map(Number);
const tubeInner = Number(process.argv[3] ?? 0.99);
const tubeFactor = Number(process.argv[4] ?? 1);
const tubeThickness = Number(process.argv[5] ?? 0.2);
const rows: { dp: number; pressure: number; peak: number; devicePeak: number }[] = [];
for (const dp of spacings) {
  const t0 = Date.now();
  const r = ringInElasticTube({ dp, tubeDp: tubeFactor * dp, tubeInner, tubeThickness });
  const seconds = (Date.now() - t0) / 1000;
  rows.push({ dp, pressure: r.pressure, peak: r.peakPressure, devicePeak: r.peakDevicePressure });
  const pct = (x: number, y: number) => `${(100 * (x / y - 1)).toFixed(2)} %`;
  console.log(
    JSON.stringify({
      dp,
      tubeDp: r.tubeDp,
      particles: r.particles,
      tubeParticles: r.tubeParticles,
      steps: r.steps,
      seconds,
      msPerStep: (1000 * seconds) / r.steps,
      lineLoad: r.pressure,
      peakPressure: r.peakPressure,
      peakOnDevice: r.peakDevicePressure,
      lameFromTube: r.lameFromTube,
      lineLoadVsTube: pct(r.pressure, r.lameFromTube),
      lameShrinkFit: r.lameShrinkFit,
      lineLoadVsShrinkFit: pct(r.pressure, r.lameShrinkFit),
      kinetic: r.kinetic,
    }),
  );
}
if (rows.length === 3) {
  for (const line of convergenceLines(rows, (r) => r.dp, [
    ['line load (Pa)', (r) => r.pressure],
    ['peak contact pressure (Pa)', (r) => r.peak],
    ['peak contact pressure read on the device (Pa)', (r) => r.devicePeak],
  ]))
    console.log(line);
}
