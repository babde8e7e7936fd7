// `node tools/bundle-sph-gpu-bench.mjs [outDir]`: packs bench/sph-gpu.bench.ts for a GPU machine that has no copy of
// the repository or its node_modules, only a Node.js (≥ 20) binary: writes <outDir> (default build/sph-gpu-bench) with
//   sph-gpu.mjs                                the bench and the engine as one ES module (esbuild, from tsx's deps),
//   node_modules/webgpu/{index.js,package.json,dist/linux-x64/dawn.node}   the webgpu package's Linux x64 Dawn.
// Run it there with `node sph-gpu.mjs` inside the folder (environment: see bench/sph-gpu.bench.ts; docs/benchmarks.md).
import { build } from 'esbuild';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(root, 'build', 'sph-gpu-bench'));
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(root, 'bench', 'sph-gpu.bench.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['webgpu'],
  outfile: join(out, 'sph-gpu.mjs'),
  // Bundled CommonJS dependencies (zod etc.) may call require.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
const webgpu = join(root, 'node_modules', 'webgpu');
const target = join(out, 'node_modules', 'webgpu');
for (const file of ['index.js', 'package.json', join('dist', 'linux-x64', 'dawn.node')]) {
  mkdirSync(dirname(join(target, file)), { recursive: true });
  cpSync(join(webgpu, file), join(target, file));
}
console.log(`wrote ${out}: copy it to the GPU machine and run \`node sph-gpu.mjs\` there`);
