// Writes a 3D example case of each simulation kind (fluid, particle, solid) as the product builds them, for
// `npm run sph` (issue 15, "Done when"): the template room (`templateRoom.ts`: the aortic root of synthetic patient
// 20261125/7 at end-diastole, a closed anatomy mesh, with a ring device STL placed 4 mm into the annulus) and the
// kind's inlet and outlet planes, each into `<out>/<kind>/case.json` with the STL files it names:
//   node --import tsx bench/sph-example-cases.ts [out, default <tmp>/sph-examples] [resolution, default test]
//   npm run sph -- <out>/fluid/case.json --out <out>/fluid/out
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Resolution } from '../packages/scenarios/src/index';
import { templateCase } from './templateRoom';

const out = process.argv[2] ?? join(tmpdir(), 'sph-examples');
const resolution = (process.argv[3] ?? 'test') as Resolution;
for (const kind of ['fluid', 'particle', 'solid'] as const) {
  const built = templateCase(20261125, 7, kind, resolution);
  const dir = join(out, kind);
  await mkdir(dir, { recursive: true });
  for (const [name, bytes] of Object.entries(built.files)) await writeFile(join(dir, name), bytes);
  await writeFile(join(dir, 'case.json'), `${JSON.stringify(built.engineCase, null, 2)}\n`);
  console.log(
    `${kind}: ${join(dir, 'case.json')} (${Object.keys(built.files).join(', ')}), ` +
      `${built.estimate.particles} particles, ${built.estimate.steps} steps, about ${Math.round(built.estimate.seconds)} s`,
  );
}
