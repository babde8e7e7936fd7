// `npm run bench -- simulation-results`: what the results page asks of the server for a 100k-particle ×
// 200-timestep fluid result (issue 16 "Speed"), measured over HTTP against the real server (PGlite in memory, files in
// a temporary folder): the bytes and the time of each call of the first view, of the first histogram, of a Range
// heatmap over every timestep, and of the line-graph card's timeline. References in the same run: the whole frame, as
// the frames API sent it before `?columns=`; the Range heatmap as 200 columns binned in the browser (before the
// server binned it); the timeline of the same result stored without frame summaries (a scan of every frame, as
// before they were stored). With RESULTS_BENCH_WEB_DIST=<a built web app> (npm run build -w @insilico/web; then
// apps/web/dist) the page itself is opened in Debian's Chromium (the journeys' flags) with a real session,
// RESULTS_BENCH_RUNS times (default 5, after a warm-up): "interactive" = the first frame drawn in 3D (the screenshot
// button enabled) and the predefined plots drawn, from navigation start; bytes = every response body of the load until
// then (resource timing's encoded sizes, scripts included). RESULTS_BENCH_WEB_DIST_REFERENCE=<another build> loads
// that build too, alternating with the first (both served by a front of their own that passes /api on to the same
// server), and prints the ratio of the medians; RESULTS_BENCH_TRACE=1 prints each build's last load's requests.
import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync, statSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import type * as Playwright from 'playwright';
import { chromiumArgs, chromiumPath } from '../apps/web/e2e/chromium';
import { generatePatient } from '../packages/anatomy/src/index';
import { cohortPatients, cohorts, rooms, simulations } from '../apps/server/src/db/schema';
import { summarizeFrame } from '../apps/server/src/cpu/frame-summary';
import { buildManifest, encodeFrame } from '../packages/sph/src/index';
import { signedInWorkspace, startBenchServer } from './benchServer';
import { cpuSince, readCpu } from './processCpu';

const PARTICLES = Number(process.env.RESULTS_BENCH_PARTICLES ?? 100_000);
const TIMESTEPS = Number(process.env.RESULTS_BENCH_TIMESTEPS ?? 200);

function frameOf(t: number): Uint8Array {
  const n = PARTICLES;
  const id = new Int32Array(n);
  const column = () => new Float64Array(n);
  const [x, y, z, vx, vy, vz, p, rho] = [
    column(),
    column(),
    column(),
    column(),
    column(),
    column(),
    column(),
    column(),
  ];
  for (let i = 0; i < n; i++) {
    id[i] = i;
    x[i] = ((i % 100) * 0.5) / 1000;
    y[i] = ((Math.floor(i / 100) % 100) * 0.5) / 1000;
    z[i] = (Math.floor(i / 10_000) * 0.5) / 1000;
    vx[i] = Math.sin(i + t) * 0.5;
    vy[i] = Math.cos(i * 0.5 + t) * 0.3;
    vz[i] = 0.1 * t;
    p[i] = 1000 * Math.sin(i * 0.001 + t * 0.1);
    rho[i] = 1060;
  }
  const source = {
    dim: 3 as const,
    count: n,
    id,
    fields: { position: [x, y, z], velocity: [vx, vy, vz], pressure: [p], density: [rho] },
  };
  return encodeFrame(source, 'fluid').bytes;
}

const fmtBytes = (bytes: number) =>
  bytes >= 1e6 ? `${(bytes / 1e6).toFixed(2)} MB` : bytes >= 1e3 ? `${(bytes / 1e3).toFixed(1)} KB` : `${bytes} B`;

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.png': 'image/png',
};

/**
 * A front for one web build: its files (index.html for every other page, as the server's client routing) and every
 * /api request passed on to `api` as it comes (streamed both ways).
 */
async function serveBuild(dist: string, api: string): Promise<{ origin: string; close(): Promise<void> }> {
  const target = new URL(api);
  const root = resolve(dist);
  const front = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://front');
    if (url.pathname.startsWith('/api/')) {
      const upstream = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: request.method,
          path: request.url,
          headers: { ...request.headers, host: target.host },
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on('error', () => response.destroy());
      request.pipe(upstream);
      return;
    }
    const file = join(root, normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, ''));
    const found =
      file.startsWith(root) && existsSync(file) && statSync(file).isFile() ? file : join(root, 'index.html');
    response.writeHead(200, {
      'content-type': contentTypes[extname(found)] ?? 'application/octet-stream',
      'cache-control': found.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    createReadStream(found).pipe(response);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const { port } = front.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => front.close(() => resolve())),
  };
}

/**
 * CPU per load of each part, mean over the loads, and as cores busy over the load's time to interactive (2 cores:
 * 2.0 is the machine full).
 */
function printCpu(readings: Map<string, number>[], loads: { ms: number }[]) {
  if (readings.length === 0 || readings[0]!.size === 0) return;
  const wall = loads.reduce((sum, l) => sum + l.ms, 0) / loads.length;
  const parts = new Map<string, number>();
  for (const reading of readings)
    for (const [part, ms] of reading) parts.set(part, (parts.get(part) ?? 0) + ms / readings.length);
  const shown = [...parts].filter(([, ms]) => ms >= 20).sort((a, b) => b[1] - a[1]);
  const total = [...parts.values()].reduce((sum, ms) => sum + ms, 0);
  console.log(`CPU during a load (mean of ${readings.length}; load to interactive ${wall.toFixed(0)} ms on average):`);
  for (const [part, ms] of shown)
    console.log(`  ${part.padEnd(58)} ${ms.toFixed(0).padStart(6)} ms  ${(ms / wall).toFixed(2).padStart(5)} cores`);
  console.log(
    `  ${'all of them'.padEnd(58)} ${total.toFixed(0).padStart(6)} ms  ${(total / wall).toFixed(2).padStart(5)} cores`,
  );
}

async function main() {
  const webDist = process.env.RESULTS_BENCH_WEB_DIST;
  if (webDist && !existsSync(join(webDist, 'index.html')))
    throw new Error(`RESULTS_BENCH_WEB_DIST=${webDist} has no index.html`);
  const server = await startBenchServer('simulation-results', webDist ? { webDist } : {});
  try {
    const owner = await signedInWorkspace(server, `results-${Date.now()}`, 'Results valve');
    const project = await server.context.projectCreation.create(owner.userId, owner.deviceId, {
      name: 'Results bench',
      developmentStage: 'concept_and_design_feasibility',
      questionId: null,
      cohortIds: [],
      versionIds: [],
      teamUserIds: [],
      basedOnProjectId: null,
      imagingDatasetIds: [],
    });
    const projectId = project.id;
    const orm = server.context.db.orm;
    // A room needs a subject: a cohort row of one patient stands for one.
    const cohortId = randomUUID();
    await orm.insert(cohorts).values({
      id: cohortId,
      deviceId: owner.deviceId,
      name: 'Bench cohort',
      criteria: {},
      size: 5,
      status: 'ready',
      populationSeed: 1,
      populationSize: 5,
      modelVersion: 'bench',
      meshModelVersion: 'bench',
      sampleSeed: 1,
      matchingAtOrder: 5,
    });
    // The results page opens in the room, which shows its patient: one synthetic patient, stored as an order stores it.
    const patient = generatePatient(20261125, 0);
    await orm.insert(cohortPatients).values({
      cohortId,
      patientIndex: 0,
      patientId: patient.id,
      position: 1,
      record: JSON.parse(JSON.stringify(patient)) as Record<string, unknown>,
    });
    const roomId = randomUUID();
    await orm
      .insert(rooms)
      .values({ id: roomId, projectId, name: 'Bench room', cohortId, patientIndex: 0, createdBy: owner.userId });
    const times = Array.from({ length: TIMESTEPS }, (_, t) => t * 0.005);
    const manifest = buildManifest([{ name: 'blood', kind: 'fluid', particles: { count: PARTICLES, dim: 3 } }], times);
    // Two distinct frames stored alternately: encoding 200 frames of 100k particles would time the engine, not the page.
    const frames = [frameOf(0), frameOf(1)];
    const seedStart = performance.now();
    const seed = async (summaries: boolean) => {
      const simulationId = randomUUID();
      const prefix = `simulations/${simulationId}`;
      const stored = ['manifest.json', 'monitors.csv'];
      await server.context.blobs.put('eu', `${prefix}/out/manifest.json`, Buffer.from(JSON.stringify(manifest)));
      const monitors = [
        'time (s),upstream flow_rate (L/min),upstream-downstream pressure_drop (mmHg)',
        ...times.map((t) => `${t},${5 + Math.sin(t * 20)},${0.1 * t}`),
      ];
      await server.context.blobs.put('eu', `${prefix}/out/monitors.csv`, Buffer.from(monitors.join('\n') + '\n'));
      for (let t = 0; t < TIMESTEPS; t++) {
        await server.context.blobs.put('eu', `${prefix}/out/blood/${t}.bin`, frames[t % 2]!);
        stored.push(`blood/${t}.bin`);
      }
      if (summaries) {
        // What the run's thread stores next to the frames (apps/server/src/cpu/frame-summary.ts).
        const columns = manifest.objects[0]!.columns;
        const two = frames.map((frame) => summarizeFrame(frame, PARTICLES, columns));
        const timesteps = Object.fromEntries(times.map((_, t) => [String(t), two[t % 2]!]));
        await server.context.blobs.put(
          'eu',
          `${prefix}/out/blood/summary.json`,
          Buffer.from(JSON.stringify({ timesteps })),
        );
        stored.push('blood/summary.json');
      }
      await orm.insert(simulations).values({
        id: simulationId,
        roomId,
        projectId,
        kind: 'fluid',
        name: summaries ? 'Bench flow' : 'Bench flow without summaries',
        parameters: {},
        resolution: 'coarse',
        phase: 'End-systole',
        status: 'completed',
        progress: 1,
        endTime: times.at(-1)!,
        estimate: {
          resolution: 'coarse',
          dp_mm: 0.5,
          particles: PARTICLES,
          endTime_s: times.at(-1)!,
          steps: TIMESTEPS * 100,
          seconds: PARTICLES * TIMESTEPS * 100e-6,
        },
        scenarioVersion: 'bench',
        region: 'eu',
        storagePrefix: prefix,
        storedFiles: stored,
        createdBy: owner.userId,
      });
      return simulationId;
    };
    const simulationId = await seed(true);
    const unsummarised = await seed(false);
    console.log(
      `seeded a fluid result of ${PARTICLES.toLocaleString('en')} particles × ${TIMESTEPS} timesteps ` +
        `(${fmtBytes(frames[0]!.byteLength)} a frame) in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );

    const baseOf = (id: string) =>
      `${server.origin}/api/devices/${owner.deviceId}/projects/${projectId}/simulations/${id}`;
    const base = baseOf(simulationId);
    const call = async (path: string, root = base) => {
      const start = performance.now();
      const response = await fetch(`${root}${path}`, { headers: { cookie: owner.cookie } });
      const bytes = (await response.arrayBuffer()).byteLength;
      if (!response.ok) throw new Error(`${path}: ${response.status}`);
      return { ms: performance.now() - start, bytes };
    };
    const row = (label: string, r: { ms: number; bytes: number }) =>
      console.log(`${label.padEnd(62)} ${fmtBytes(r.bytes).padStart(10)} ${r.ms.toFixed(1).padStart(9)} ms`);
    const median = async (path: string, runs = 5) => {
      const all = [];
      for (let k = 0; k < runs; k++) all.push(await call(path));
      all.sort((a, b) => a.ms - b.ms);
      return all[Math.floor(runs / 2)]!;
    };

    console.log('\nfirst view (median of 5)');
    const first = [
      ['GET /api/…/simulations/:id', ''],
      ['GET results (manifest, URLs)', '/results'],
      ['GET monitors.csv', '/monitors.csv'],
      [
        'GET frame 0: particle_id, position, velocity (playback)',
        '/frames/blood/0?columns=particle_id,position,velocity',
      ],
    ] as const;
    let total = 0;
    let sequential = 0;
    for (const [label, path] of first) {
      const r = await median(path);
      row(label, r);
      total += r.bytes;
      sequential += r.ms;
    }
    console.log(
      `${'first view, in all'.padEnd(62)} ${fmtBytes(total).padStart(10)} ${sequential.toFixed(1).padStart(9)} ms (one after another)`,
    );
    row('reference: frame 0 whole (before ?columns=)', await median('/frames/blood/0'));
    row('first histogram: frame 0, pressure', await median('/frames/blood/0?columns=pressure'));

    console.log('\nRange heatmap over every timestep, 50 bins');
    row(
      'GET heatmap?objects=blood&output=pressure&start=0&end=199 (server)',
      await median(`/heatmap?objects=blood&output=pressure&start=0&end=${TIMESTEPS - 1}&binCount=50`),
    );
    console.log('reference: pressure of each timestep to the browser, 6 at a time (as the page did before)');
    const start = performance.now();
    let rangeBytes = 0;
    for (let t = 0; t < TIMESTEPS; t += 6) {
      const batch = Array.from({ length: Math.min(6, TIMESTEPS - t) }, (_, k) =>
        call(`/frames/blood/${t + k}?columns=pressure`),
      );
      for (const r of await Promise.all(batch)) rangeBytes += r.bytes;
    }
    row(`${TIMESTEPS} columns`, { ms: performance.now() - start, bytes: rangeBytes });

    console.log('\ntimelines over every timestep (median of 3)');
    const median3 = async (path: string, root = base) => {
      const all = [];
      for (let k = 0; k < 3; k++) all.push(await call(path, root));
      all.sort((a, b) => a.ms - b.ms);
      return all[1]!;
    };
    row('GET timeline/blood (predefined plots: statistics only)', await median3('/timeline/blood'));
    row('GET timeline/blood?particles=17,4242 (line-graph card)', await median3('/timeline/blood?particles=17,4242'));
    const old = baseOf(unsummarised);
    row('reference: the same without summaries, statistics only', await median3('/timeline/blood', old));
    row('reference: the same without summaries, 2 particles', await median3('/timeline/blood?particles=17,4242', old));

    if (webDist) {
      const playwright: typeof Playwright = await import('playwright');
      const browser = await playwright.chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
      // With a reference build, both builds are served by the same kind of front (their files, /api passed on to the
      // one server) and their loads alternate, so both see the same load on the machine.
      const reference = process.env.RESULTS_BENCH_WEB_DIST_REFERENCE;
      const fronts = reference
        ? [
            { label: 'this build', ...(await serveBuild(webDist, server.origin)) },
            { label: 'reference build', ...(await serveBuild(reference, server.origin)) },
          ]
        : [{ label: 'this build', origin: server.origin, close: async () => undefined }];
      try {
        // The page's CSP forbids evaluating strings; the checks below are strings (as projects-overview's).
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
        const [name, value] = owner.cookie.split('=') as [string, string];
        // Cookies are per host, not per port: the session holds for every front.
        await context.addCookies([{ name, value, url: server.origin }]);
        const path =
          `/projects/room/analyses?project=${projectId}&room=${roomId}` +
          `&simulation=${simulationId}&device=${owner.deviceId}`;
        // In the page (a string: this file is type-checked without the DOM library): the first frame is drawn once the
        // screenshot button is enabled; the predefined plots are drawn charts.
        const interactiveCheck = `(() => {
          const region = document.querySelector('[aria-label="3D playback"]');
          const shot = region && [...region.querySelectorAll('button')].find((b) => b.textContent.includes('Screenshot'));
          const plots = document.querySelector('[aria-label="Predefined plots"]');
          const drawn = plots && plots.querySelectorAll('svg, canvas').length >= 3;
          return shot && !shot.disabled && drawn ? performance.now() : false;
        })()`;
        const runs = Number(process.env.RESULTS_BENCH_RUNS ?? 5);
        const loads = fronts.map(() => [] as { ms: number; bytes: number }[]);
        // CPU time of each part (this process's threads, Chromium's processes) during the measured loads.
        const cpu = fronts.map(() => [] as Map<string, number>[]);
        // RESULTS_BENCH_PROFILE=<folder>: this process's CPU profile over the measured loads (node.cpuprofile) and a
        // Chromium trace of the last load of the first build (chromium-trace.json, for chrome://tracing or Perfetto).
        const profileDir = process.env.RESULTS_BENCH_PROFILE;
        const profiler = profileDir ? new Session() : null;
        // One tab per build, opened before the loads and navigated for each: Chromium's headless mode opens a tab as
        // a browser window and loads browser UI for it (the omnibox popup's WebUI renderer: ≈ 1.2 s of CPU in a traced
        // load on 29.11.2026), work a user's browser does once, not on every page load. Each load is a new document.
        const tabs = await Promise.all(fronts.map(() => context.newPage()));
        for (let k = 0; k <= runs; k++) {
          if (k === 1 && profiler) {
            profiler.connect();
            await profiler.post('Profiler.enable');
            await profiler.post('Profiler.start');
          }
          for (const [f, front] of fronts.entries()) {
            const page = tabs[f]!;
            const traced = profileDir !== undefined && k === runs && f === 0;
            if (traced)
              await browser.startTracing(page, {
                path: join(profileDir, 'chromium-trace.json'),
                categories: [
                  'devtools.timeline',
                  'disabled-by-default-devtools.timeline',
                  'v8.execute',
                  'disabled-by-default-v8.cpu_profiler',
                  'blink.user_timing',
                  'loading',
                  'gpu',
                ],
              });
            const cpuBefore = readCpu();
            await page.goto(`${front.origin}${path}`, { waitUntil: 'commit' });
            const at = Number(
              await (
                await page
                  .waitForFunction(interactiveCheck, undefined, { polling: 'raf', timeout: 60_000 })
                  .catch(async (error: unknown) => {
                    // What the page shows instead, to say why.
                    console.error(String(await page.evaluate('document.body.innerText')).slice(0, 1500));
                    throw error;
                  })
              ).jsonValue(),
            );
            // Bytes of every response of the load up to then (the page's scripts included), as the browser received them.
            const bytes = Number(
              await page.evaluate(
                `performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))` +
                  `.reduce((n, e) => n + e.encodedBodySize, 0)`,
              ),
            );
            const cpuDuring = cpuSince(cpuBefore, readCpu());
            if (traced) await browser.stopTracing();
            if (k > 0) {
              loads[f]!.push({ ms: at, bytes });
              cpu[f]!.push(cpuDuring);
            }
            if (process.env.RESULTS_BENCH_TRACE && k === runs) {
              // What the load waited on: each response from its request's start to its end, by start (ms).
              const entries = await page.evaluate<[string, number, number, number][]>(
                `performance.getEntriesByType('resource').map((e) => [e.name, e.startTime, e.responseEnd, e.encodedBodySize])`,
              );
              console.log(
                `\n${front.label}, last load's requests (interactive at ${at.toFixed(0)} ms): start → end, bytes`,
              );
              for (const [url, from, to, size] of entries.sort((a, b) => a[1] - b[1])) {
                const shown = url.replace(front.origin, '').replace(/[0-9a-f-]{36}/g, ':id');
                console.log(
                  `${from.toFixed(0).padStart(6)} → ${to.toFixed(0).padStart(6)} ms ${fmtBytes(size).padStart(10)}  ${shown}`,
                );
              }
            }
          }
        }
        for (const tab of tabs) await tab.close();
        if (profiler && profileDir) {
          const { profile } = await profiler.post('Profiler.stop');
          writeFileSync(join(profileDir, 'node.cpuprofile'), JSON.stringify(profile));
          profiler.disconnect();
          console.log(`\nCPU profile of this process over the measured loads, a Chromium trace: ${profileDir}`);
        }
        const medians = loads.map((all) => {
          all.sort((a, b) => a.ms - b.ms);
          return all[Math.floor(all.length / 2)]!;
        });
        for (const [f, front] of fronts.entries()) {
          console.log(
            `\nthe page in Chromium, ${front.label} (median of ${runs} loads after a warm-up; all: ${loads[f]!.map((l) => l.ms.toFixed(0)).join(', ')} ms)`,
          );
          row('interactive: first frame in 3D and the predefined plots drawn', medians[f]!);
          printCpu(cpu[f]!, loads[f]!);
        }
        if (medians.length === 2)
          console.log(`ratio this build / reference build (medians): ${(medians[0]!.ms / medians[1]!.ms).toFixed(2)}`);
      } finally {
        await browser.close();
        for (const front of fronts) await front.close();
      }
    }
  } finally {
    await server.close();
  }
}

await main();
