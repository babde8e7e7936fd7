// `node tools/stats-reference/generate.mjs`: regenerates packages/stats/test/fixtures/reference.json.
// The reference values come from numpy/scipy in Debian's python3-numpy/python3-scipy, which live under
// /usr/bin/python3 (not the python3 first on PATH); the fixture records the versions used.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const python = process.env.STATS_REFERENCE_PYTHON ?? '/usr/bin/python3';
const script = fileURLToPath(new URL('./reference.py', import.meta.url));
const run = spawnSync(python, [script], { stdio: 'inherit' });
if (run.error) {
  console.error(`could not run ${python}: ${run.error.message} (apt-get install python3-numpy python3-scipy)`);
  process.exit(1);
}
process.exit(run.status ?? 1);
