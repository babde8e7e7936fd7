// Writes a 3D example case of each simulation kind (fluid, particle, solid) as the product builds them, for
// `npm run sph` (issue 15, "Done when"): the aortic root of synthetic patient 20261125/7 at end-diastole (a closed
// anatomy mesh), a ring device (an STL) placed 4 mm into the annulus, and the kind's inlet and outlet planes, each
// into `<out>/<kind>/case.json` with the STL files it names:
//   node --import tsx packages/scenarios/scripts/example-cases.ts [out, default <tmp>/sph-examples] [resolution, default test]
//   npm run sph -- <out>/fluid/case.json --out <out>/fluid/out
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePatient } from '@insilico/anatomy';
import {
  annulusPlacement,
  buildScenario,
  ringDeviceMesh,
  simulatedRegion,
  type PlacedDevice,
  type Resolution,
} from '../src/index';

const out = process.argv[2] ?? join(tmpdir(), 'sph-examples');
const resolution = (process.argv[3] ?? 'test') as Resolution;
const patient = generatePatient(20261125, 7);
const region = simulatedRegion(patient, 'end-diastole');
const annulusRadius = patient.cardiac.aorticAnnulusDiameter_mm / 2;
const device: PlacedDevice = {
  name: 'Ring v1',
  transform: annulusPlacement(region, 4),
  meshes: [ringDeviceMesh(0.8 * annulusRadius, 0.12 * annulusRadius)],
};
for (const kind of ['fluid', 'particle', 'solid'] as const) {
  const built = buildScenario({
    patient,
    phase: 'end-diastole',
    kind,
    resolution,
    parameters: {},
    devices: [device],
  });
  const dir = join(out, kind);
  await mkdir(dir, { recursive: true });
  for (const [name, bytes] of Object.entries(built.files)) await writeFile(join(dir, name), bytes);
  await writeFile(join(dir, 'case.json'), `${JSON.stringify(built.engineCase, null, 2)}\n`);
  console.log(
    `${kind}: ${join(dir, 'case.json')} (${Object.keys(built.files).join(', ')}), ` +
      `${built.estimate.particles} particles, ${built.estimate.steps} steps, about ${Math.round(built.estimate.seconds)} s`,
  );
}
