// `npm run bench [-- name-filter]`: runs every bench/*.bench.ts in turn with tsx.
// Each benchmark measures our code against a reference in the same run and prints a ratio;
// the latest figures are copied into docs/benchmarks.md by hand, with this command.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const filter = process.argv[2] ?? '';
const files = readdirSync('bench')
  .filter((name) => name.endsWith('.bench.ts') && name.includes(filter))
  .sort();
if (files.length === 0) {
  console.error(`no benchmark in bench/ matches "${filter}"`);
  process.exit(1);
}
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', `bench/${file}`], { stdio: 'inherit' });
  if (run.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
