// `npm run bench -- projects-overview`: issue 5's budget "/projects/overview with 1,000 projects in a workspace:
// interactive in under 1 s in headless Chromium". Runs the real server in this process (PGlite in memory) with the
// built web app (the product's default job poll), seeds two workspaces of one user straight into the database — 1,000
// projects and 10 projects, each project with a question, two cohorts, two device versions and a team of three — and
// opens the page in Debian's Chromium (the journeys' flags) with a real session, in one browser profile (a user-data
// dir of its own) per workspace, as a user who works in it has.
// Measured per load, from navigation start: "interactive" = every stage group shows its first cards and the status
// filter is enabled; then the time from a click on "All" until its cards are shown.
// References in the same run: the same page with 10 projects (ratio), the same page in a private window (a Playwright
// browser context: nothing of it outlives the window), and the page's one API request alone.
// PROJECTS_BENCH_COUNT (default 1000), PROJECTS_BENCH_TRACE=1 (timeline), PROJECTS_BENCH_RUNS (default 7 timed loads each, after 2 warm-ups),
// PROJECTS_BENCH_WEB_DIST (a built web app; default: built into a temporary folder first, ≈ 20 s).
// PROJECTS_BENCH_COMPARE=<another built web app>: A/B in one run — a second server (same seed) serves that build, and
// every load of the first is followed by the same load of the second, so the machine's drift hits both alike (this
// virtual machine's timings move by 10–25 % within an hour); prints both medians and their ratio.
// Figures go to docs/benchmarks.md, "Projects overview".
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Playwright from 'playwright';
import { createDefaultCriteria } from '@insilico/anatomy';
import {
  cohorts,
  deviceVersions,
  projectCohorts,
  projectDeviceVersions,
  projectMembers,
  projects,
  questionsOfInterest,
} from '../apps/server/src/db/schema';
import { chromiumArgs, chromiumPath } from '../apps/web/e2e/chromium';
import { sessionCookieName } from '../apps/server/src/http/session-cookie';
import type { AppContext } from '../apps/server/src/context';
import { startBenchServer, type BenchServer } from './benchServer';

const COUNT = Number(process.env.PROJECTS_BENCH_COUNT ?? 1000);
const REFERENCE_COUNT = 10;
const RUNS = Number(process.env.PROJECTS_BENCH_RUNS ?? 7);
const BUDGET_MS = 1000;
// PROJECTS_BENCH_TRACE=1 prints the last 1,000-project load's timeline: when each script and API call started and
// ended, its long tasks (≥ 50 ms of the page's main thread) and its paints.
const TRACE = process.env.PROJECTS_BENCH_TRACE === '1';
// PROJECTS_BENCH_PROFILE=1 prints the page's CPU profile (self time per function) of the last 1,000-project load;
// build the web app with `--minify false` for readable names.
const PROFILE = process.env.PROJECTS_BENCH_PROFILE === '1';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  ts: number;
  tid: number;
  pid: number;
  args?: { name?: string };
}

/** Sums the renderer main thread's top-level trace events (not nested in another) by name. */
function summariseTrace(buffer: Buffer): string {
  const { traceEvents } = JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] };
  const main = traceEvents.find((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain');
  if (!main) return '(no renderer main thread in the trace)';
  const events = traceEvents
    .filter((event) => event.pid === main.pid && event.tid === main.tid && event.ph === 'X' && event.dur)
    .sort((a, b) => a.ts - b.ts);
  const totals = new Map<string, number>();
  let end = -Infinity;
  for (const event of events) {
    if (event.ts < end) continue; // nested in the previous top-level event
    end = event.ts + event.dur!;
    totals.set(event.name, (totals.get(event.name) ?? 0) + event.dur! / 1000);
  }
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 15)
    .map(([name, ms]) => `${ms.toFixed(1).padStart(7)} ms  ${name}`)
    .join('\n');
}

/** Starts the page's CPU profiler; the returned function stops it and summarises self time per function. */
async function startProfile(page: Playwright.Page): Promise<() => Promise<string>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return async () => {
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as {
      profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
    };
    const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
    const parent = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
    const nameOf = (node: ProfileNode) =>
      `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*\//, '')}:${node.callFrame.lineNumber}`;
    const self = new Map<string, number>();
    const total = new Map<string, number>();
    profile.samples.forEach((id, index) => {
      const ms = (profile.timeDeltas[index] ?? 0) / 1000;
      self.set(nameOf(byNode.get(id)!), (self.get(nameOf(byNode.get(id)!)) ?? 0) + ms);
      // Inclusive time of React components (capitalised names), once per sample.
      const seen = new Set<string>();
      for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) {
        const key = nameOf(byNode.get(node)!);
        if (/^[A-Z]/.test(key) && !seen.has(key)) {
          seen.add(key);
          total.set(key, (total.get(key) ?? 0) + ms);
        }
      }
    });
    const top = (map: Map<string, number>, n: number) =>
      [...map.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([key, ms]) => `${ms.toFixed(1).padStart(7)} ms  ${key}`)
        .join('\n');
    return `${top(self, 25)}\n\ninclusive time of components:\n${top(total, 30)}`;
  };
}

/** Starts a trace of the page's renderer over its own DevTools session; the returned function ends it. */
async function startTrace(page: Playwright.Page): Promise<() => Promise<Buffer>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: ['devtools.timeline', 'v8', 'blink'] },
    transferMode: 'ReturnAsStream',
  });
  return async () => {
    const complete = new Promise<string>((resolve) =>
      cdp.once('Tracing.tracingComplete', (event) => resolve(event.stream ?? '')),
    );
    await cdp.send('Tracing.end');
    const handle = await complete;
    const chunks: Buffer[] = [];
    for (;;) {
      const chunk = await cdp.send('IO.read', { handle });
      chunks.push(Buffer.from(chunk.data, chunk.base64Encoded ? 'base64' : 'utf8'));
      if (chunk.eof) break;
    }
    await cdp.send('IO.close', { handle });
    return Buffer.concat(chunks);
  };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

function webDist(scratch: string): string {
  const given = process.env.PROJECTS_BENCH_WEB_DIST;
  if (given) {
    if (!existsSync(join(given, 'index.html'))) throw new Error(`PROJECTS_BENCH_WEB_DIST=${given} has no index.html`);
    return given;
  }
  const outDir = join(scratch, 'web');
  const webRoot = fileURLToPath(new URL('../apps/web', import.meta.url));
  console.log('building the web app (set PROJECTS_BENCH_WEB_DIST to skip) …');
  const run = spawnSync(
    'npx',
    // The config imports the contracts' TypeScript (early requests): loaded through Vite's module runner.
    ['vite', 'build', '--configLoader', 'runner', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    {
      cwd: webRoot,
      stdio: 'inherit',
    },
  );
  if (run.status !== 0) throw new Error('the web build failed');
  return outDir;
}

if (!existsSync(chromiumPath)) {
  console.error(`Chromium is missing at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH).`);
  process.exit(1);
}
const playwright: typeof Playwright = await import('playwright');
const scratch = mkdtempSync(join(tmpdir(), 'insilico-projects-bench-'));
const compareDist = process.env.PROJECTS_BENCH_COMPARE;
if (compareDist && !existsSync(join(compareDist, 'index.html')))
  throw new Error(`PROJECTS_BENCH_COMPARE=${compareDist} has no index.html`);

/** One server with its build and its seeded user: two workspaces (COUNT and REFERENCE_COUNT projects). */
interface Site {
  label: string;
  server: BenchServer;
  bigDevice: string;
  smallDevice: string;
  token: string;
  headers: Record<string, string>;
}

/** A workspace of `count` projects over two stages, each with a question, two cohorts, two versions and 3 people. */
async function seedWorkspace(
  context: AppContext,
  ownerId: string,
  teamIds: string[],
  name: string,
  count: number,
): Promise<string> {
  const orm = context.db.orm;
  const { device } = await context.devices.create(
    { id: ownerId, email: `${ownerId}@example.com`, fullName: 'Bench Owner' },
    {
      bodyParts: ['heart_and_thorax'],
      developmentStages: ['concept_and_design_feasibility', 'clinical_trial'],
      deviceInfo: { deviceName: name, deviceType: 'valve_replacement' },
      company: { companyName: 'Bench', country: 'DE', streetAddress: 'A 1', city: 'Berlin', zipCode: '10115' },
      team: [],
    },
  );
  const deviceId = device.deviceId;
  for (const userId of teamIds)
    await context.db.executeSql(
      `insert into memberships (device_id, user_id, role, status) values ($1, $2, 'member', 'ok')`,
      [deviceId, userId],
    );
  const cohortIds = Array.from({ length: 6 }, () => randomUUID());
  await orm.insert(cohorts).values(
    cohortIds.map((id, index) => ({
      id,
      deviceId,
      name: `Cohort ${index + 1} — mitral adults`,
      criteria: createDefaultCriteria() as unknown as Record<string, unknown>,
      size: 20,
      status: 'ready' as const,
      populationSeed: 1,
      populationSize: 2000,
      modelVersion: 'bench',
      meshModelVersion: 'bench',
      sampleSeed: index,
      matchingAtOrder: 900,
    })),
  );
  const versionIds = Array.from({ length: 6 }, () => randomUUID());
  await orm
    .insert(deviceVersions)
    .values(versionIds.map((id, index) => ({ id, deviceId, name: `Valve v${index + 1}.0`, status: 'ready' as const })));
  const questionIds = Array.from({ length: 4 }, () => randomUUID());
  await orm.insert(questionsOfInterest).values(
    questionIds.map((id, index) => ({
      id,
      deviceId,
      question: `Does the valve seal at the annulus without paravalvular leak in case ${index + 1}?`,
      modelInfluence: 'medium',
      decisionConsequence: 'high',
    })),
  );
  const rows = Array.from({ length: count }, (_, index) => ({
    id: randomUUID(),
    deviceId,
    name: `Project ${String(index + 1).padStart(4, '0')} annulus sizing`,
    developmentStage: index % 3 === 0 ? ('clinical_trial' as const) : ('concept_and_design_feasibility' as const),
    status: index % 10 === 9 ? ('completed' as const) : ('active' as const),
    questionId: questionIds[index % questionIds.length]!,
    createdBy: ownerId,
    createdAt: new Date(Date.UTC(2026, 0, 1) + index * 60_000),
  }));
  const team = [ownerId, ...teamIds];
  for (let start = 0; start < rows.length; start += 250) {
    const batch = rows.slice(start, start + 250);
    await orm.insert(projects).values(batch);
    await orm
      .insert(projectMembers)
      .values(batch.flatMap((row) => team.map((userId) => ({ projectId: row.id, userId }))));
    await orm.insert(projectCohorts).values(
      batch.flatMap((row, index) => [
        { projectId: row.id, cohortId: cohortIds[index % 6]! },
        { projectId: row.id, cohortId: cohortIds[(index + 1) % 6]! },
      ]),
    );
    await orm.insert(projectDeviceVersions).values(
      batch.flatMap((row, index) => [
        { projectId: row.id, versionId: versionIds[index % 6]! },
        { projectId: row.id, versionId: versionIds[(index + 2) % 6]! },
      ]),
    );
  }
  return deviceId;
}

async function openSite(label: string, dist: string): Promise<Site> {
  const server = await startBenchServer('projects', { webDist: dist });
  const { context, origin, config } = server;
  const user = await context.users.upsertFromIdentity({
    issuer: 'bench',
    subject: 'bench-owner',
    email: 'owner@example.com',
    fullName: 'Bench Owner',
  });
  const teammates = await Promise.all(
    ['Ada Lovelace', 'Bea Member'].map((fullName, index) =>
      context.users.upsertFromIdentity({
        issuer: 'bench',
        subject: `bench-${index}`,
        email: `mate${index}@example.com`,
        fullName,
      }),
    ),
  );
  const teamIds = teammates.map((mate) => mate.id);
  const seedStart = performance.now();
  const bigDevice = await seedWorkspace(context, user.id, teamIds, 'Big valve', COUNT);
  const smallDevice = await seedWorkspace(context, user.id, teamIds, 'Small valve', REFERENCE_COUNT);
  console.log(`${label}: seeded ${COUNT} + ${REFERENCE_COUNT} projects in ${fmt(performance.now() - seedStart)}`);
  const token = await context.sessions.startUserSession(user.id, 'bench');
  const headers = {
    cookie: `${sessionCookieName(config.secureCookies)}=${token}`,
    origin,
    'content-type': 'application/json',
  };
  return { label, server, bigDevice, smallDevice, token, headers };
}

const mainDist = webDist(scratch);
const sites: Site[] = [await openSite(compareDist ? `A (${mainDist})` : mainDist, mainDist)];
try {
  if (compareDist) sites.push(await openSite(`B (${compareDist})`, compareDist));
  const [{ server, bigDevice, headers }] = sites as [Site];
  const { origin } = server;

  // Reference: the page's one request alone (what it waits for before it can draw the cards).
  const apiTimes: number[] = [];
  const startupTimes: number[] = [];
  let activeCount = 0;
  for (let run = 0; run < RUNS + 2; run += 1) {
    const t0 = performance.now();
    const response = await fetch(`${origin}/api/devices/${bigDevice}/projects/overview?status=active`, { headers });
    const body = (await response.json()) as { total: number };
    // The shell's start-up requests, asked at once as the page does.
    const t1 = performance.now();
    await Promise.all(
      ['/api/auth/me', '/api/devices', '/api/me/selected-device'].map(async (path) =>
        (await fetch(`${origin}${path}`, { headers })).arrayBuffer(),
      ),
    );
    if (run >= 2) {
      apiTimes.push(t1 - t0);
      startupTimes.push(performance.now() - t1);
    }
    activeCount = body.total;
  }

  // The measured loads run in a browser profile of their own per workspace, as a user who works in it has one: a
  // fresh user-data dir, then whatever the browser keeps (its caches; local storage, where the app keeps the selected
  // workspace as a hint for its next start) carries over from one load to the next. Reference: a private window
  // (Playwright's default browser context), about 0.4 s slower on this machine (docs/benchmarks.md, session 6).
  const sizeOf = { width: 1440, height: 900 };
  const signIn = async (profile: Playwright.BrowserContext, site: Site) => {
    const { origin: url, config } = site.server;
    await profile.addCookies([{ name: sessionCookieName(config.secureCookies), value: site.token, url }]);
    return profile;
  };
  const userProfiles = new Map<string, Playwright.BrowserContext>();
  for (const site of sites)
    for (const deviceId of [site.bigDevice, site.smallDevice]) {
      const profile = await playwright.chromium.launchPersistentContext(mkdtempSync(join(scratch, 'profile-')), {
        executablePath: chromiumPath,
        args: chromiumArgs,
        viewport: sizeOf,
      });
      userProfiles.set(deviceId, await signIn(profile, site));
    }
  const browser = await playwright.chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const privateWindows = await Promise.all(
    sites.map(async (site) => signIn(await browser.newContext({ viewport: sizeOf }), site)),
  );
  const userAgent = await (async () => {
    const page = await privateWindows[0]!.newPage();
    const agent = String(await page.evaluate('navigator.userAgent'));
    await page.close();
    return agent.match(/HeadlessChrome\/[\d.]+|Chrome\/[\d.]+/)?.[0] ?? agent;
  })();

  // Checks run in the page (strings: this file is type-checked without the DOM library). Each answers the page's
  // clock (ms since navigation start) once its condition holds.
  const interactiveCheck = `(() => {
    const filter = document.querySelector('[aria-label="Project status"] button');
    const groups = [...document.querySelectorAll('section[aria-labelledby^="stage-"]')];
    const ready = filter !== null && !filter.disabled && groups.length === 3 &&
      groups.every((group) => group.querySelector('a[href^="/projects/view/stats"]') || group.textContent.includes('No '));
    return ready ? performance.now() : false;
  })()`;
  const allShownCheck = `(() => {
    const pressed = document.querySelector('[aria-label="Project status"] button[value="all"][aria-pressed="true"]');
    const busy = document.querySelector('[aria-busy="true"]');
    return pressed && !busy && document.querySelector('a[href^="/projects/view/stats"]') ? performance.now() : false;
  })()`;

  // With TRACE: the page's long tasks and paints (recorded from the start by an init script) and its resources.
  const recordTimeline = `window.__benchTimeline = [];
    new PerformanceObserver((list) => window.__benchTimeline.push(...list.getEntries()))
      .observe({ entryTypes: ['longtask', 'paint'] });`;
  const traceScript = `[...window.__benchTimeline.map((e) => ({ at: e.startTime, line: e.startTime.toFixed(0).padStart(5) +
      ' +' + e.duration.toFixed(0).padStart(4) + '  ' + (e.entryType === 'paint' ? e.name : 'long task') })),
    ...performance.getEntriesByType('resource').map((e) => ({ at: e.startTime, line: e.startTime.toFixed(0).padStart(5) +
      ' → ' + e.responseEnd.toFixed(0).padStart(5) + '  ' + e.name.replace(location.origin, '') }))]
    .sort((a, b) => a.at - b.at).map((e) => e.line).join('\\n')`;

  /** One cold page load of the overview in the selected workspace; times from navigation start (ms). */
  async function load(
    site: Site,
    deviceId: string,
    profile: Playwright.BrowserContext,
  ): Promise<{ interactive: number; allFilter: number; cards: number }> {
    const selected = await fetch(`${site.server.origin}/api/me/selected-device`, {
      method: 'PUT',
      headers: site.headers,
      body: JSON.stringify({ deviceId }),
    });
    if (!selected.ok) throw new Error(`selecting the workspace answered ${selected.status}`);
    const page = await profile.newPage();
    // Trace and profile: the first site's big workspace in its user's profile.
    const traced = site === sites[0] && profile === userProfiles.get(site.bigDevice);
    if (TRACE && traced) await page.addInitScript(recordTimeline);
    const profiler = PROFILE && traced ? await startProfile(page) : null;
    const tracer = PROFILE && traced ? await startTrace(page) : null;
    await page.goto(`${site.server.origin}/projects/overview`, { waitUntil: 'commit' });
    // Interactive: each non-empty stage group shows cards and the status filter can be used.
    const interactive = Number(
      await (await page.waitForFunction(interactiveCheck, undefined, { polling: 'raf', timeout: 30_000 })).jsonValue(),
    );
    const cards = await page.locator('a[href^="/projects/view/stats"]').count();
    const clickedAt = Number(await page.evaluate('performance.now()'));
    if (TRACE && traced) lastTrace = String(await page.evaluate(traceScript));
    if (profiler && tracer) {
      lastProfile = await profiler();
      lastProfile +=
        '\n\nrenderer main thread by trace event (top-level events only):\n' + summariseTrace(await tracer());
    }
    await page.getByRole('button', { name: 'All', exact: true }).click();
    const allShown = Number(
      await (await page.waitForFunction(allShownCheck, undefined, { polling: 'raf', timeout: 30_000 })).jsonValue(),
    );
    await page.close();
    return { interactive, allFilter: allShown - clickedAt, cards };
  }

  let lastTrace = '';
  let lastProfile = '';
  interface Loads {
    interactive: number[];
    all: number[];
    cards: number;
  }
  const noLoads = (): Loads => ({ interactive: [], all: [], cards: 0 });
  const results = sites.map(() => ({ big: noLoads(), small: noLoads(), privateWindow: noLoads() }));
  const record = (into: Loads, run: number, one: Awaited<ReturnType<typeof load>>) => {
    into.cards = one.cards;
    if (run < 2) return;
    into.interactive.push(one.interactive);
    into.all.push(one.allFilter);
  };
  // Interleaved, so load on the shared machine hits every site and workspace alike; two warm-ups each (JS compiled
  // and cached, assets cached).
  for (let run = 0; run < RUNS + 2; run += 1) {
    for (const size of ['big', 'small'] as const)
      for (const [index, site] of sites.entries()) {
        const deviceId = size === 'big' ? site.bigDevice : site.smallDevice;
        record(results[index]![size], run, await load(site, deviceId, userProfiles.get(deviceId)!));
      }
    for (const [index, site] of sites.entries())
      record(results[index]!.privateWindow, run, await load(site, site.bigDevice, privateWindows[index]!));
  }
  for (const profile of userProfiles.values()) await profile.close();
  await browser.close();
  if (PROFILE) console.log(`\nself time by function, last ${COUNT}-project load until interactive:\n${lastProfile}`);
  if (TRACE) console.log(`\nthe last ${COUNT}-project load (ms from navigation start):\n${lastTrace}`);

  console.log(`\n${userAgent}, median of ${RUNS} loads after 2 warm-ups (interleaved), the user's browser profile`);
  for (const [index, site] of sites.entries()) {
    const { big, small, privateWindow } = results[index]!;
    const bigTti = median(big.interactive);
    const smallTti = median(small.interactive);
    if (compareDist) console.log(`\n${site.label}`);
    console.log(
      `overview, ${COUNT} projects (${activeCount} active, ${big.cards} cards drawn): interactive ${fmt(bigTti)} ` +
        `(min ${fmt(Math.min(...big.interactive))}, max ${fmt(Math.max(...big.interactive))})   ` +
        `target < ${BUDGET_MS} ms ${bigTti < BUDGET_MS ? '✔' : '✘'}`,
    );
    console.log(`  switch to "All" → cards shown                        ${fmt(median(big.all))}`);
    console.log(
      `reference: overview, ${REFERENCE_COUNT} projects (${small.cards} cards): interactive ${fmt(smallTti)}; ` +
        `"All" ${fmt(median(small.all))}`,
    );
    console.log(
      `reference: overview, ${COUNT} projects, private window: interactive ` +
        `${fmt(median(privateWindow.interactive))} (min ${fmt(Math.min(...privateWindow.interactive))}, ` +
        `max ${fmt(Math.max(...privateWindow.interactive))})`,
    );
    if (index === 0) {
      console.log(
        `reference: GET …/projects/overview?status=active, ${activeCount} projects (Node fetch)  ${fmt(median(apiTimes))}`,
      );
      console.log(`reference: the three start-up requests at once (Node fetch)      ${fmt(median(startupTimes))}`);
    }
    console.log(
      `ratio ${COUNT} / ${REFERENCE_COUNT} projects (interactive)                 ${(bigTti / smallTti).toFixed(2)}`,
    );
  }
  if (compareDist) {
    const [a, b] = results as [(typeof results)[0], (typeof results)[0]];
    // Medians' ratio, and the median of per-run ratios (each pair of loads ran back to back).
    const ratios = (x: number[], y: number[]) =>
      `medians ${(median(y) / median(x)).toFixed(3)}, paired ${median(y.map((value, run) => value / x[run]!)).toFixed(3)}`;
    console.log(
      `\nB / A: ${COUNT} projects ${ratios(a.big.interactive, b.big.interactive)}; ${REFERENCE_COUNT} projects ` +
        `${ratios(a.small.interactive, b.small.interactive)}; private window ` +
        `${ratios(a.privateWindow.interactive, b.privateWindow.interactive)}`,
    );
  }
} finally {
  for (const site of sites) await site.server.close();
  rmSync(scratch, { recursive: true, force: true });
}
