// `npm run bench -- design-history-evidence-zip`: the evidence ZIP of a design history file with one large attached
// file (1 GB by default; DESIGN_HISTORY_ZIP_BENCH_MB), made as the export job makes it: the file streamed from the
// filesystem store into the ZIP (stored, CRC-32 by zip.js, SHA-256 checked on the way) and the ZIP streamed into the
// store (`putFrom`), hashed whole for the trail. The reference, in the same run on the same file: Info-ZIP's
// `zip -0` (store, CRC-32) followed by `sha256sum` (the attachment's hash), as /usr/bin/time reports them. The file
// is sparse zeros (made instantly, read as fast as any cached file; both sides read the same). Reports wall time, CPU
// time and peak RSS; the ZIP is checked with `unzip -t`. Figures go to docs/benchmarks.md, "Evidence ZIP, streamed".
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, truncateSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilesystemBlobStore } from '../apps/server/src/repositories/blob.repository';
import { designHistoryFileStream, designHistoryParts } from '../apps/server/src/services/design-history-bundle';

const megabytes = Number(process.env.DESIGN_HISTORY_ZIP_BENCH_MB ?? 1024);
const size = megabytes * 1024 * 1024;
const folder = mkdtempSync(join(tmpdir(), 'evidence-zip-bench-'));
const store = new FilesystemBlobStore(folder);
const key = 'design-history/d-1/attachments/sha256/large';

try {
  // A one-byte file made sparse: the store's own file, of the size wanted, with nothing written.
  await store.put('eu', key, new Uint8Array(1));
  const local = await store.localFile('eu', key);
  truncateSync(local!.path, 0);
  truncateSync(local!.path, size);
  const hash = createHash('sha256');
  for await (const chunk of (await store.open('eu', key))!.stream as AsyncIterable<Buffer>) hash.update(chunk);
  const sha256 = hash.digest('hex');

  const parts = await designHistoryParts({
    format: 'zip',
    generatedAt: '2026-11-28T06:00:00.000Z',
    generatedBy: 'Ada Admin',
    workspace: 'Valve D',
    deviceId: 'd-1',
    projectId: 'p-1',
    project: 'Valve',
    items: [],
    attachments: [{ entryId: 'e-1', id: 'a-1', fileName: 'bench-video.bin', sha256, bytes: size }],
    audit: [],
    signatures: [],
    resultSnapshots: [],
  });
  const attachment = {
    entryId: 'e-1',
    id: 'a-1',
    fileName: 'bench-video.bin',
    sha256,
    bytes: size,
    open: async () => (await store.open('eu', key))!.stream as AsyncIterable<Uint8Array>,
  };

  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const zipHash = createHash('sha256');
  await store.putFrom(
    'eu',
    'design-history/d-1/exports/x.zip',
    (async function* hashed() {
      for await (const chunk of designHistoryFileStream(parts, [attachment])) {
        zipHash.update(chunk);
        yield chunk;
      }
    })(),
    Number.MAX_SAFE_INTEGER,
  );
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  zipHash.digest('hex');
  const zipPath = (await store.localFile('eu', 'design-history/d-1/exports/x.zip'))!.path;
  const tested = spawnSync('unzip', ['-t', zipPath], { encoding: 'utf8' });
  if (tested.status !== 0) throw new Error(`unzip -t: ${tested.stdout}${tested.stderr}`);

  const timed = (command: string[]) => {
    const run = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', ...command], { encoding: 'utf8', cwd: folder });
    if (run.status !== 0) throw new Error(`${command.join(' ')}: ${run.stderr}`);
    const [elapsed, user, system, maxKb] = run.stderr.trim().split('\n').pop()!.split(' ').map(Number);
    return { wall: elapsed!, cpu: user! + system!, rssMb: maxKb! / 1024 };
  };
  const zip = timed(['zip', '-0', '-q', join(folder, 'reference.zip'), local!.path]);
  const sums = timed(['sha256sum', local!.path]);

  console.log(
    `${megabytes} MiB attachment: evidence ZIP streamed into the store ${wall.toFixed(1)} s wall, ` +
      `${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU, RSS growth ${((peak - rssBefore) / 2 ** 20).toFixed(0)} MiB ` +
      `(process ${(peak / 2 ** 20).toFixed(0)} MiB); unzip -t OK`,
  );
  console.log(
    `reference: zip -0 ${zip.wall.toFixed(1)} s wall, ${zip.cpu.toFixed(1)} s CPU, ${zip.rssMb.toFixed(0)} MiB; ` +
      `sha256sum ${sums.wall.toFixed(1)} s wall, ${sums.cpu.toFixed(1)} s CPU, ${sums.rssMb.toFixed(0)} MiB; ` +
      `ours ÷ (zip -0 + sha256sum): wall ${(wall / (zip.wall + sums.wall)).toFixed(1)}, ` +
      `CPU ${((cpu.user + cpu.system) / 1e6 / (zip.cpu + sums.cpu)).toFixed(1)}`,
  );
} finally {
  rmSync(folder, { recursive: true, force: true });
}
