// Type-checks every workspace that has a tsconfig.json, one `tsc --noEmit -p` each,
// because web (DOM, JSX) and server/packages (Node only) need different compiler settings.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const roots = ['packages', 'apps'];
const projects = [];
for (const root of roots) {
  if (!existsSync(root)) continue;
  for (const name of readdirSync(root).sort()) {
    const config = join(root, name, 'tsconfig.json');
    if (existsSync(config)) projects.push(config);
  }
}
if (existsSync('bench/tsconfig.json')) projects.push('bench/tsconfig.json');
if (existsSync('test/tsconfig.json')) projects.push('test/tsconfig.json');
let failed = 0;
for (const config of projects) {
  const result = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', config], {
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    failed += 1;
    console.error(`typecheck failed: ${config}`);
  }
}
console.log(`typecheck: ${projects.length - failed} of ${projects.length} projects clean`);
process.exit(failed === 0 ? 0 : 1);
