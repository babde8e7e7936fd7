// `npm run bench -- device-version`: the whole processing path of a device version with one 1,000,000-triangle
// binary STL (50 MB): upload through tus over HTTP (8 MiB PATCHes), then from "version created" (the upload is
// stored) to "ready" (job queued, picked up, file streamed from storage through validateStlChunks, metrics,
// preview PNG, rows written, notification). Runs the real server in this process (PGlite in memory, jobs worked
// in-process, files in a temporary folder). Reference in the same run, rounds interleaved:
//   parse-only — validateStlChunks over a 1 MB read stream of the same file plus meshPreviewPng: the bare
//                computation the job cannot avoid; the ratio job / parse-only is what queue, storage, database
//                and HTTP polling add.
// DEVICE_VERSION_BENCH_ROUNDS (default 3). Figures go to docs/benchmarks.md, "Device-version processing".
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { meshPreviewPng, validateStlChunks, writeBinaryStl } from '@insilico/mesh';
import { signedInWorkspace, startBenchServer, uploadOverTus } from './benchServer';
import { bumpySphere } from './bumpySphere';

const ROUNDS = Number(process.env.DEVICE_VERSION_BENCH_ROUNDS ?? 3);

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const best = (xs: readonly number[]): number => Math.min(...xs);
const ms = (x: number): string => `${x.toFixed(0).padStart(6)} ms`;

const workDir = mkdtempSync(join(tmpdir(), 'insilico-version-bench-'));
const file = join(workDir, 'sphere.stl');
const bytes = writeBinaryStl(bumpySphere());
writeFileSync(file, bytes);
console.log(`file: ${(bytes.length / 1e6).toFixed(1)} MB, ${(bytes.length - 84) / 50} triangles`);

async function parseOnly(): Promise<number> {
  const t0 = performance.now();
  const result = await validateStlChunks(createReadStream(file, { highWaterMark: 1 << 20 }), bytes.length);
  if (!result.ok) throw new Error(result.refusal.reason);
  meshPreviewPng(result.mesh);
  return performance.now() - t0;
}

const server = await startBenchServer('device-version', { jobPollSeconds: 0.5 });
const { origin } = server;
try {
  const { deviceId, cookie } = await signedInWorkspace(server, 'bench-versions', 'Bench valve');
  const base = `${origin}/api/devices/${deviceId}`;

  const upload = () => uploadOverTus(server, { deviceId, cookie }, 'sphere.stl', bytes);

  async function processVersion(uploadId: string, round: number): Promise<{ ms: number; triangles: number }> {
    const t0 = performance.now();
    const created = await fetch(`${base}/device-versions`, {
      method: 'POST',
      headers: { cookie, origin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Bench ${round}`, uploadIds: [uploadId] }),
    });
    if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };
    for (;;) {
      const version = (await (await fetch(`${base}/device-versions/${id}`, { headers: { cookie } })).json()) as {
        status: string;
        files: { metrics: { triangleCount: number } | null }[];
      };
      if (version.status === 'ready')
        return { ms: performance.now() - t0, triangles: version.files[0]!.metrics!.triangleCount };
      if (version.status === 'failed') throw new Error('the version failed');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  await parseOnly(); // warm-up (JIT), not counted
  const uploads: number[] = [];
  const jobs: number[] = [];
  const parses: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const u0 = performance.now();
    const uploadId = await upload();
    uploads.push(performance.now() - u0);
    const job = await processVersion(uploadId, round);
    if (job.triangles !== 1_000_000) throw new Error(`measured ${job.triangles} triangles`);
    jobs.push(job.ms);
    parses.push(await parseOnly());
  }
  console.log(
    `upload over tus (8 MiB PATCHes)                 best ${ms(best(uploads))}   median ${ms(median(uploads))}`,
  );
  console.log(`created → ready (queue, stream, check, preview) best ${ms(best(jobs))}   median ${ms(median(jobs))}`);
  console.log(
    `reference parse-only (validateStlChunks + PNG)   best ${ms(best(parses))}   median ${ms(median(parses))}`,
  );
  console.log(
    `ratio job / parse-only: best ${(best(jobs) / best(parses)).toFixed(2)}, median ${(median(jobs) / median(parses)).toFixed(2)}`,
  );
} finally {
  await server.close();
  rmSync(workDir, { recursive: true, force: true });
}
