// `npm run bench -- imaging-deidentify`: the in-browser de-identification of a CT dataset (issue 19 "Speed":
// de-identify and zip 1 GB, about 2,000 files, in ≤ 60 s with peak browser memory ≤ 1 GB) in headless Chromium,
// against DCMTK's dcmodify on the same files in the same run. The files are written to disk here (CT slices of
// 512 × 512 × 16 bit with CT-like pixels, three patients, every identifying attribute of the test corpus's hostile CT: names in nested
// sequences, a private group, dates, UIDs, an overlay) and handed to the page as a file input, so the page reads them
// from disk one at a time, as a chosen folder. The page runs the product's own modules: the scan (the tree and tags
// to change) and `deidentifyToZip` (the Basic Profile, UIDs and the zip writer at level 1), driven from the page's
// thread as the app drives it from its imaging worker, with the same de-identification workers (the app's module,
// bundled here as a script; IMAGING_BENCH_WORKERS sets how many, 0 for one thread). Peak memory: the proportional set size of Chromium's processes
// together (shared pages divided among their sharers), sampled every 250 ms, and the page's JS heap.
// Reference: `dcmodify` erasing/replacing a dozen attributes (patient name and ID, birth date, institution,
// physicians, operators, accession, other IDs, private tags) and new study/series/instance UIDs in place, then
// `zip -1` of its output: far less work per file than the profile (617 rows, sequences, consistent UID mapping),
// so it is a floor, not a like-for-like tool. Size: IMAGING_BENCH_MB (default 256; the issue's 1 GB = 1024), the
// 1 GB time is scaled linearly from the measured throughput when smaller. CPU time (user + system of Chromium's
// processes, and of dcmodify and zip) is printed beside the wall clock: on a shared machine it is the steadier figure.
// IMAGING_BENCH_PROFILE=<file.cpuprofile> records the de-identification with Chromium's CPU profiler (the page's
// thread only: with IMAGING_BENCH_WORKERS=0 it is where all the work runs) and prints the functions with the largest
// self time. Needs esbuild and playwright (workspace devDependencies), Debian's /usr/bin/chromium, and dcmtk + zip
// for the reference (skipped with a note without).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Playwright from 'playwright';
import { CHROMIUM, browserTools } from './browserTools';
import { hostileCt, part10, type PatientSpec } from '../packages/dicom/test/syntheticDicom';

const resolveDir = fileURLToPath(new URL('../apps/web', import.meta.url));
const megabytes = Number(process.env.IMAGING_BENCH_MB ?? 256);
const cores = availableParallelism();
/** De-identification workers, as the app starts them (its cores, at most four); IMAGING_BENCH_WORKERS=0: one thread. */
const workerCount = Number(process.env.IMAGING_BENCH_WORKERS ?? Math.min(4, cores));

const pageSource = `
import { folderInput } from './src/features/uploads/imaging/inputs';
import { scanDataset } from './src/features/uploads/imaging/scan';
import { deidentifyToZip } from './src/features/uploads/imaging/deidentifyZip';

(window as unknown as Record<string, unknown>).runBench = async () => {
  const input = document.querySelector('input') as HTMLInputElement;
  const files = [...(input.files ?? [])];
  const data = folderInput(files.map((file) => ({ path: file.name, file })));
  const t0 = performance.now();
  const scanned = await scanDataset(data);
  const t1 = performance.now();
  await (window as unknown as { beforeDeidentify: () => Promise<void> }).beforeDeidentify();
  const t1b = performance.now();
  const workers = WORKERS > 0 ? { start: () => new Worker('/deidentify-worker.js'), count: WORKERS } : undefined;
  const { zip, manifest } = await deidentifyToZip(
    data,
    scanned.summaries,
    { excludedSeries: [], keptAdditionalFiles: [], modifiedDates: false },
    undefined,
    workers,
  );
  const t2 = performance.now();
  const head = new Uint8Array(await zip.slice(0, 4).arrayBuffer());
  return {
    workers: workers ? WORKERS : 0,
    browser: navigator.userAgent.match(/HeadlessChrome\\/[\\d.]+|Chrome\\/[\\d.]+/)?.[0] ?? '',
    files: files.length,
    bytes: files.reduce((sum, file) => sum + file.size, 0),
    scanMs: t1 - t0,
    deidentifyMs: t2 - t1b,
    zipBytes: zip.size,
    zipMagic: [...head].map((b) => b.toString(16)).join(' '),
    series: manifest.series.length,
    deidentifiedFiles: manifest.series.reduce((sum, s) => sum + s.files, 0),
    actions: manifest.series[0]?.actions.length ?? 0,
  };
};`;

/** The CT slices on disk: three patients, one series each; answers the folder and the file names. */
function writeDataset(dir: string, targetBytes: number): string[] {
  const patients: PatientSpec[] = [1, 2, 3].map((n) => ({
    name: `PATIENT${n}^BENCH`,
    id: `MRN-${n}`,
    birthDate: '19600101',
    studyUid: `1.2.826.0.1.3680043.12.${n}`,
    studyDate: '20230101',
    seriesUid: `1.2.826.0.1.3680043.12.${n}.1`,
    sopUid: '',
  }));
  const names: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < targetBytes; i += 1) {
    const patient = patients[i % 3]!;
    const slice = Math.floor(i / 3) + 1;
    const file = part10(
      hostileCt({ ...patient, sopUid: `${patient.seriesUid}.${slice}`, instanceNumber: slice }, 512, 512),
    );
    ctPixels(file, slice, (i % 3) + 1);
    const name = `p${(i % 3) + 1}-${String(slice).padStart(5, '0')}.dcm`;
    writeFileSync(join(dir, name), file);
    names.push(name);
    bytes += file.length;
  }
  return names;
}

/**
 * Proportional set size (bytes) of a process and its descendants, from /proc: each shared page counted once over
 * the processes that share it (a plain RSS sum counts Chromium's shared libraries once per process).
 */
function treePss(root: number): number {
  let total = 0;
  for (const pid of processTree(root)) {
    try {
      const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      total += Number(pss?.[1] ?? 0) * 1024;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

/** CPU seconds (user + system) a process and its descendants have used so far. */
function treeCpuSeconds(root: number): number {
  let ticks = 0;
  for (const pid of processTree(root)) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks / CLOCK_TICKS;
}

/** CPU seconds (user + system) of this process's waited-for children so far (dcmodify, zip). */
function childrenCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
}

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** A process and its descendants, from /proc. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended meanwhile
    }
  }
  const tree: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    tree.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/**
 * CT-like pixels in place of the corpus's pattern (which deflate squeezes to nothing): a body ellipse of soft tissue
 * with a brighter disc, air around it, and noise, 12 bits stored in 16 (a real CT slice packs to about half).
 */
function ctPixels(file: Uint8Array, slice: number, seed: number): void {
  const size = 512;
  const at = file.length - size * size * 2;
  const view = new DataView(file.buffer, file.byteOffset + at, size * size * 2);
  let state = (seed * 7919 + slice * 104_729) >>> 0;
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      const noise = (state >>> 24) - 128;
      const dx = (x - 256) / 220;
      const dy = (y - 256) / 160;
      const inBody = dx * dx + dy * dy < 1;
      const inDisc = (x - 300) ** 2 + (y - 240) ** 2 < (40 + (slice % 20)) ** 2;
      const value = inDisc ? 1300 : inBody ? 1040 : 24;
      view.setUint16((y * size + x) * 2, Math.max(0, value + (inBody ? noise >> 2 : noise >> 5)), true);
    }
  }
}

function seconds(run: () => ReturnType<typeof spawnSync>): number {
  const t0 = performance.now();
  const result = run();
  if (result.status !== 0) throw new Error(`${String(result.stderr).slice(0, 400)}`);
  return (performance.now() - t0) / 1000;
}

async function main(): Promise<void> {
  const tools = await browserTools();
  if (!tools) return;
  const { esbuild, playwright } = tools;
  const work = mkdtempSync(join(tmpdir(), 'imaging-bench-'));
  try {
    const source = join(work, 'source');
    mkdirSync(source);
    const names = writeDataset(source, megabytes * 1024 * 1024);
    const datasetBytes = names.reduce((sum, name) => sum + statSync(join(source, name)).size, 0);
    const mb = datasetBytes / 1024 / 1024;
    console.log(`dataset: ${names.length} CT files of 512 × 512 × 16 bit, ${mb.toFixed(0)} MiB, three patients`);

    const page = await esbuild.build({
      bundle: true,
      write: false,
      format: 'iife',
      target: 'es2022',
      stdin: { contents: pageSource, loader: 'ts', resolveDir },
      define: { WORKERS: String(workerCount) },
    });
    const worker = await esbuild.build({
      bundle: true,
      write: false,
      format: 'iife',
      target: 'es2022',
      stdin: {
        contents: `import { serveDeidentification } from './src/features/uploads/imaging/deidentifyPool';\nserveDeidentification(self as never);`,
        loader: 'ts',
        resolveDir,
      },
    });
    const browser = await playwright.chromium.launch({ executablePath: CHROMIUM });
    let peakPss = 0;
    let peakHeap = 0;
    let result: Record<string, number | string>;
    const profileFile = process.env.IMAGING_BENCH_PROFILE;
    let cpuBefore = 0;
    let cpuAfter = 0;
    let profile: string[] = [];
    try {
      const tab = await browser.newPage();
      // A page of http://localhost: a secure context (the de-identification's HMAC needs crypto.subtle).
      await tab.route('http://localhost/bench', (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><title>de-identification</title><body><input type="file" multiple></body>',
        }),
      );
      await tab.route('http://localhost/deidentify-worker.js', (route) =>
        route.fulfill({ contentType: 'text/javascript', body: worker.outputFiles[0]?.text ?? '' }),
      );
      await tab.goto('http://localhost/bench');
      await tab.addScriptTag({ content: page.outputFiles[0]?.text ?? '' });
      await tab.setInputFiles(
        'input',
        names.map((name) => join(source, name)),
      );
      const cdp = await tab.context().newCDPSession(tab);
      await cdp.send('Performance.enable');
      const browserPid = findChromiumPid();
      await tab.exposeFunction('beforeDeidentify', async () => {
        cpuBefore = browserPid ? treeCpuSeconds(browserPid) : 0;
        if (profileFile) await startProfiling(cdp);
      });
      const sampler = setInterval(() => {
        if (browserPid) peakPss = Math.max(peakPss, treePss(browserPid));
        void cdp
          .send('Performance.getMetrics')
          .then(({ metrics }) => {
            const heap = metrics.find((m) => m.name === 'JSHeapTotalSize')?.value ?? 0;
            peakHeap = Math.max(peakHeap, heap);
          })
          .catch(() => undefined);
      }, 250);
      try {
        result = (await tab.evaluate(() =>
          (globalThis as unknown as { runBench: () => Promise<unknown> }).runBench(),
        )) as Record<string, number | string>;
        cpuAfter = browserPid ? treeCpuSeconds(browserPid) : 0;
        if (profileFile) profile = await stopProfiling(cdp, profileFile);
      } finally {
        clearInterval(sampler);
      }
    } finally {
      await browser.close();
    }

    const ours = Number(result.deidentifyMs) / 1000;
    const scan = Number(result.scanMs) / 1000;
    console.log(
      `in ${result.browser}: ${result.deidentifiedFiles} files de-identified in ${result.series} series, ${result.workers ? `${result.workers} workers` : 'one thread'} (${cores} cores)`,
    );
    console.log(`  scan (tree, tags to change, thumbnails)        ${scan.toFixed(1).padStart(7)} s`);
    console.log(
      `  de-identify + zip (level 1, zip64)             ${ours.toFixed(1).padStart(7)} s   ${(mb / ours).toFixed(1)} MiB/s, zip ${(Number(result.zipBytes) / 1024 / 1024).toFixed(0)} MiB (${result.zipMagic})`,
    );
    console.log(
      `  CPU time of Chromium's processes (de-identify + zip) ${(cpuAfter - cpuBefore).toFixed(1).padStart(7)} s`,
    );
    console.log(
      `  1 GiB at this rate                             ${((1024 / mb) * ours).toFixed(1).padStart(7)} s   (target ≤ 60 s)`,
    );
    console.log(
      `  peak memory: Chromium processes ${(peakPss / 1024 / 1024).toFixed(0)} MiB (PSS sum), page JS heap ${(peakHeap / 1024 / 1024).toFixed(0)} MiB   (target ≤ 1 GiB)`,
    );

    for (const line of profile) console.log(line);

    const hasDcmodify = spawnSync('sh', ['-c', 'command -v dcmodify && command -v zip']).status === 0;
    if (!hasDcmodify) {
      console.log('reference skipped: dcmodify (dcmtk) or zip is not installed');
      return;
    }
    const copy = join(work, 'dcmodify');
    spawnSync('cp', ['-r', source, copy]);
    const paths = names.map((name) => join(copy, name));
    const edits = [
      ['-ma', '(0010,0010)=ANONYMOUS'],
      ['-ma', '(0010,0020)=ANON-ID'],
      ['-ea', '(0010,0030)'],
      ['-ea', '(0008,0080)'],
      ['-ea', '(0008,0081)'],
      ['-ea', '(0008,0090)'],
      ['-ea', '(0008,1070)'],
      ['-ea', '(0008,0050)'],
      ['-ea', '(0010,1000)'],
      ['-ea', '(0010,1002)'],
      ['-ea', '(0010,1040)'],
      ['-ea', '(0020,4000)'],
    ].flat();
    const cpu0 = childrenCpuSeconds();
    const modify = seconds(() =>
      spawnSync('dcmodify', ['-nb', '-ie', '-ep', '-gst', '-gse', '-gin', ...edits, ...paths], { maxBuffer: 1 << 26 }),
    );
    const zipped = seconds(() => spawnSync('zip', ['-1', '-q', '-r', join(work, 'dcmodify.zip'), '.'], { cwd: copy }));
    const reference = modify + zipped;
    const referenceCpu = childrenCpuSeconds() - cpu0;
    console.log('reference on the same files: dcmodify (DCMTK) in place, then zip -1');
    console.log(
      `  dcmodify ${modify.toFixed(1)} s + zip ${zipped.toFixed(1)} s = ${reference.toFixed(1)} s   ${(mb / reference).toFixed(1)} MiB/s`,
    );
    console.log(`  CPU time of dcmodify and zip                   ${referenceCpu.toFixed(1).padStart(7)} s`);
    console.log(`  ratio ours / reference (de-identify + zip)     ${(ours / reference).toFixed(2)}`);
    console.log(
      `  ratio of CPU times ours / reference            ${((cpuAfter - cpuBefore) / referenceCpu).toFixed(2)}`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function startProfiling(cdp: Playwright.CDPSession): Promise<void> {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
}

/** Stops the profiler, writes the profile (Chrome DevTools opens it) and answers the top self times, as lines. */
async function stopProfiling(cdp: Playwright.CDPSession, file: string): Promise<string[]> {
  const { profile } = await cdp.send('Profiler.stop');
  writeFileSync(file, JSON.stringify(profile));
  const deltas = profile.timeDeltas ?? [];
  const selfMs = new Map<number, number>();
  (profile.samples ?? []).forEach((node, i) => selfMs.set(node, (selfMs.get(node) ?? 0) + (deltas[i] ?? 0) / 1000));
  const byFunction = new Map<string, number>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? ` ${url.split('/').pop() ?? ''}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'}${where}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + (selfMs.get(node.id) ?? 0));
  }
  const total = [...byFunction.values()].reduce((a, b) => a + b, 0);
  const busy = total - (byFunction.get('(idle)') ?? 0);
  return [
    `profile (page thread) written to ${file}: ${(total / 1000).toFixed(1)} s sampled, ${(busy / 1000).toFixed(1)} s not idle; largest self times:`,
    ...[...byFunction.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25)
      .map(
        ([name, ms]) =>
          `  ${(ms / 1000).toFixed(2).padStart(7)} s ${((100 * ms) / total).toFixed(1).padStart(5)} %  ${name}`,
      ),
  ];
}

/** The newest Chromium browser process started by this one (Playwright does not expose the pid). */
function findChromiumPid(): number | null {
  let newest: { pid: number; start: number } | null = null;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== process.pid) continue;
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmd.includes('chrom')) continue;
      const start = Number(fields[19]);
      if (!newest || start > newest.start) newest = { pid: Number(entry), start };
    } catch {
      // the process ended meanwhile
    }
  }
  return newest?.pid ?? null;
}

await main();
