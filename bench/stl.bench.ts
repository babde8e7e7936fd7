// `npm run bench -- stl`: processing a 1,000,000-triangle binary STL (parse, validate, metrics) with @insilico/mesh
// against admesh (Debian package `admesh`) on the same file, in the same run, rounds interleaved so both sides see
// the same machine load. Target: ratio ours / admesh ≤ 1.0. Figures go to docs/benchmarks.md, "STL processing".
//
// What each side computes:
//  - ours, `validateStl`: read the file, decide binary/ASCII, check size and every coordinate (NaN/∞), weld
//    corners exactly into an indexed mesh, edge analysis (boundary, non-manifold, orientation flips, Euler
//    characteristic), surface area, signed volume, zero-area triangles, bounding box, findings.
//  - admesh `--exact`: read the file, bounding box, exact edge matching (neighbours; facets with disconnected
//    edges), degenerate-facet removal, volume, neighbour verification (backwards edges), statistics. It writes
//    no file. Not done by admesh here: surface area, non-manifold edge count, an indexed vertex list.
//  - admesh with no options (all checks and fixes: nearby, fill holes, normal directions and values) is
//    timed too, for context only.
//
// STL_BENCH_ROUNDS (default 5) interleaved rounds; best and median reported. STL_BENCH_SHUFFLED=0 skips the
// second file (the same triangles in random order, so neither side profits from the file's locality).
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateStl, validateStlChunks, writeBinaryStl, type StlValidation, type TriangleMesh } from '@insilico/mesh';
import { bumpySphere } from './bumpySphere';

const ROUNDS = Number(process.env.STL_BENCH_ROUNDS ?? 5);
const SHUFFLED = process.env.STL_BENCH_SHUFFLED !== '0';

const version = spawnSync('admesh', ['--version'], { encoding: 'utf8' });
if (version.error || version.status !== 0) {
  console.error(
    'The STL benchmark needs admesh, the reference it is measured against, and admesh is not installed.\n' +
      'Install it with: apt-get update && apt-get install -y admesh   (Debian package "admesh")',
  );
  process.exit(1);
}

/** The same triangles in a deterministic random order (Fisher–Yates with an LCG). */
function shuffled(mesh: TriangleMesh): TriangleMesh {
  const n = mesh.indices.length / 3;
  const order = Uint32Array.from({ length: n }, (_, i) => i);
  let state = 12345;
  for (let i = n - 1; i > 0; i--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const j = state % (i + 1);
    const t = order[i] as number;
    order[i] = order[j] as number;
    order[j] = t;
  }
  const indices = new Uint32Array(mesh.indices.length);
  for (let i = 0; i < n; i++)
    indices.set(mesh.indices.subarray(3 * (order[i] as number), 3 * (order[i] as number) + 3), 3 * i);
  return { positions: mesh.positions, indices };
}

interface Sample {
  readonly wall: number;
  readonly cpu: number;
}

interface AdmeshStats {
  readonly facets: number;
  readonly disconnected: number;
  readonly degenerate: number;
  readonly backwards: number;
  readonly volume: number;
}

function ours(file: string): { sample: Sample; result: StlValidation } {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = validateStl(readFileSync(file));
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { sample: { wall, cpu: (cpu.user + cpu.system) / 1000 }, result };
}

async function oursStreamed(file: string, size: number): Promise<Sample> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await validateStlChunks(createReadStream(file, { highWaterMark: 1 << 20 }), size);
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (!result.ok) throw new Error(result.refusal.reason);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

/** Runs admesh under bash's `time` (its CPU seconds go to stderr) and reads its statistics. */
function admesh(file: string, args: readonly string[]): { sample: Sample; stats: AdmeshStats } {
  const quoted = [...args, file].map((a) => `'${a}'`).join(' ');
  const t0 = performance.now();
  const run = spawnSync('bash', ['-c', `TIMEFORMAT='%U %S'; time admesh ${quoted}`], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  const wall = performance.now() - t0;
  if (run.status !== 0) throw new Error(`admesh failed: ${run.stderr}`);
  const [user, system] = run.stderr.trim().split('\n').at(-1)?.split(' ').map(Number) ?? [NaN, NaN];
  const number = (label: RegExp): number => Number(label.exec(run.stdout)?.[1] ?? NaN);
  return {
    sample: { wall, cpu: ((user ?? NaN) + (system ?? NaN)) * 1000 },
    stats: {
      facets: number(/Number of facets\s*:\s*(\d+)/),
      disconnected: number(/Total disconnected facets\s*:\s*(\d+)/),
      degenerate: number(/Degenerate facets\s*:\s*(\d+)/),
      backwards: number(/Backwards edges\s*:\s*(\d+)/),
      volume: number(/Volume\s*:\s*([-\d.]+)/),
    },
  };
}

const best = (xs: readonly number[]): number => Math.min(...xs);
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const ms = (x: number): string => `${x.toFixed(0).padStart(6)} ms`;

async function benchFile(label: string, mesh: TriangleMesh): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'stl-bench-'));
  const file = join(dir, 'part.stl');
  const bytes = writeBinaryStl(mesh);
  writeFileSync(file, bytes);
  console.log(`\n${label}: ${(bytes.length / 1e6).toFixed(1)} MB, ${mesh.indices.length / 3} triangles`);
  const rows: Record<string, { wall: number[]; cpu: number[] }> = {};
  const add = (name: string, s: Sample): void => {
    rows[name] ??= { wall: [], cpu: [] };
    rows[name].wall.push(s.wall);
    rows[name].cpu.push(s.cpu);
  };
  // One warm-up of ours (JIT) and of admesh (page cache), not counted.
  ours(file);
  admesh(file, ['--exact']);
  let last: { result: StlValidation; stats: AdmeshStats } | null = null;
  for (let round = 0; round < ROUNDS; round++) {
    const o = ours(file);
    add('ours: validateStl(readFileSync(file))', o.sample);
    const a = admesh(file, ['--exact']);
    add('admesh --exact', a.sample);
    add('ours: validateStlChunks(read stream, 1 MB chunks)', await oursStreamed(file, bytes.length));
    add('admesh (all checks and fixes, context only)', admesh(file, []).sample);
    last = { result: o.result, stats: a.stats };
  }
  rmSync(dir, { recursive: true, force: true });
  for (const [name, r] of Object.entries(rows)) {
    console.log(
      `${name.padEnd(52)} wall best ${ms(best(r.wall))} median ${ms(median(r.wall))}   CPU best ${ms(best(r.cpu))} median ${ms(median(r.cpu))}`,
    );
  }
  const o = rows['ours: validateStl(readFileSync(file))'];
  const a = rows['admesh --exact'];
  if (o && a) {
    console.log(
      `ratio ours / admesh --exact: wall best ${(best(o.wall) / best(a.wall)).toFixed(2)}, median ${(median(o.wall) / median(a.wall)).toFixed(2)}; ` +
        `CPU best ${(best(o.cpu) / best(a.cpu)).toFixed(2)}, median ${(median(o.cpu) / median(a.cpu)).toFixed(2)}   (target ≤ 1.0)`,
    );
  }
  if (last && last.result.ok) {
    const q = last.result.quality;
    const s = last.stats;
    console.log(
      `answers: triangles ${q.triangleCount} / ${s.facets}; boundary edges ${q.boundaryEdges} / facets with disconnected edges ${s.disconnected}; ` +
        `orientation flips ${q.orientationFlips} / backwards edges ${s.backwards}; degenerate ${q.degenerateTriangles} / ${s.degenerate}; ` +
        `volume ${q.volume_mm3?.toFixed(3)} / ${s.volume.toFixed(3)} mm³ (admesh sums in float: ${(((s.volume - (q.volume_mm3 ?? NaN)) / (q.volume_mm3 ?? NaN)) * 100).toFixed(3)} %); ` +
        `vertices ${q.vertexCount}, area ${q.surfaceArea_mm2.toFixed(3)} mm² (ours only)`,
    );
    const agree =
      q.triangleCount === s.facets &&
      q.orientationFlips === s.backwards &&
      q.boundaryEdges === 0 &&
      s.disconnected === 0;
    if (!agree) {
      console.error('the two sides disagree on the file');
      process.exitCode = 1;
    }
  } else {
    console.error('our validation refused the benchmark file');
    process.exitCode = 1;
  }
}

console.log(`Node ${process.version}, ${version.stdout.trim()}, ${ROUNDS} rounds`);
const mesh = bumpySphere();
await benchFile('bumpy sphere, triangles in loft order', mesh);
if (SHUFFLED) await benchFile('the same triangles in random order', shuffled(mesh));
