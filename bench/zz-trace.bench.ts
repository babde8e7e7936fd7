// `npm run bench -- projects-overview`: issue 5's budget "/projects/overview with 1,000 projects in a workspace:
// interactive in under 1 s in headless Chromium". Runs the real server in this process (PGlite in memory) with the
// built web app (the product's default job poll), seeds two workspaces of one user straight into the database — 1,000
// projects and 10 projects, each project with a question, two cohorts, two device versions and a team of three — and
// opens the page in Debian's Chromium (the journeys' flags) with a real session, one browser profile per workspace.
// Measured per load, from navigation start: "interactive" = every stage group shows its first cards and the status
// filter is enabled; then the time from a click on "All" until its cards are shown.
// References in the same run: the same page with 10 projects (ratio), and the page's one API request alone.
// PROJECTS_BENCH_COUNT (default 1000), PROJECTS_BENCH_TRACE=1 (timeline), PROJECTS_BENCH_RUNS (default 7 timed loads each, after 2 warm-ups),
// PROJECTS_BENCH_WEB_DIST (a built web app; default: built into a temporary folder first, ≈ 20 s).
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
import { startBenchServer } from './benchServer';

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

function summariseTrace(buffer: Buffer): string {
  type E = TraceEvent & { args?: { name?: string; data?: Record<string, unknown>; beginData?: Record<string, unknown> } };
  const { traceEvents } = JSON.parse(buffer.toString('utf8')) as { traceEvents: E[] };
  const navs = traceEvents.filter((e) => e.name === 'navigationStart' && String(e.args?.data?.documentLoaderURL ?? '').includes('/projects/overview'));
  const nav = navs[navs.length - 1];
  if (!nav) return 'no navigationStart';
  const mains = traceEvents.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === nav.pid);
  const main = mains[0]!;
  const events = traceEvents.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur && e.ts >= nav.ts).sort((a, b) => a.ts - b.ts);
  const cats = new Map<string, number>();
  let end = -Infinity;
  const lines: string[] = [];
  for (const e of events) {
    if (e.ts < end) continue;
    end = e.ts + e.dur!;
    const d = e.args?.data ?? e.args?.beginData ?? {};
    const url = String(d.url ?? '').replace(/^.*\//, '').replace(/-[A-Za-z0-9_-]{8}\.js$/, '');
    const key = `${e.name} ${url}`;
    cats.set(key, (cats.get(key) ?? 0) + e.dur! / 1000);
    if (e.dur! > 8000) lines.push(`${((e.ts - nav.ts) / 1000).toFixed(0).padStart(6)} ${(e.dur! / 1000).toFixed(1).padStart(7)} ${key}`);
  }
  const total = [...cats.values()].reduce((a, b) => a + b, 0);
  return lines.join('\n') + `\n\nbusy ${total.toFixed(0)} ms; by event:\n` + [...cats.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20).map(([k, v]) => `${v.toFixed(1).padStart(7)}  ${k}`).join('\n');
}

/** Starts the page's CPU profiler; the returned function stops it and summarises self time per function. */
export async function startProfile(page: Playwright.Page): Promise<() => Promise<string>> {
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
  const run = spawnSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: webRoot,
    stdio: 'inherit',
  });
  if (run.status !== 0) throw new Error('the web build failed');
  return outDir;
}

if (!existsSync(chromiumPath)) {
  console.error(`Chromium is missing at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH).`);
  process.exit(1);
}
const playwright: typeof Playwright = await import('playwright');
const scratch = mkdtempSync(join(tmpdir(), 'insilico-projects-bench-'));
const server = await startBenchServer('projects', { webDist: webDist(scratch) });
const { origin, config } = server;
const { context } = server;
const orm = context.db.orm;

/** A workspace of `count` projects over two stages, each with a question, two cohorts, two versions and 3 people. */
async function seedWorkspace(ownerId: string, teamIds: string[], name: string, count: number): Promise<string> {
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
      status: 'ready',
      populationSeed: 1,
      populationSize: 2000,
      modelVersion: 'bench',
      sampleSeed: index,
      matchingAtOrder: 900,
    })),
  );
  const versionIds = Array.from({ length: 6 }, () => randomUUID());
  await orm
    .insert(deviceVersions)
    .values(versionIds.map((id, index) => ({ id, deviceId, name: `Valve v${index + 1}.0`, status: 'ready' })));
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
    developmentStage: index % 3 === 0 ? 'clinical_trial' : 'concept_and_design_feasibility',
    status: index % 10 === 9 ? 'completed' : 'active',
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

try {
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
  const bigDevice = await seedWorkspace(user.id, teamIds, 'Big valve', COUNT);
  const smallDevice = await seedWorkspace(user.id, teamIds, 'Small valve', REFERENCE_COUNT);
  console.log(`seeded ${COUNT} + ${REFERENCE_COUNT} projects in ${fmt(performance.now() - seedStart)}`);
  const token = await context.sessions.startUserSession(user.id, 'bench');
  const cookieName = sessionCookieName(config.secureCookies);
  const headers = { cookie: `${cookieName}=${token}`, origin, 'content-type': 'application/json' };

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

  const browser = await playwright.chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  // One browser profile per workspace, as for a user who works in it: its cache and storage (the app keeps the
  // selected workspace as a hint for its next start) carry over from one load to the next, as they would.
  const openProfile = async () => {
    const profile = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await profile.addCookies([{ name: cookieName, value: token, url: origin }]);
    return profile;
  };
  const profiles = new Map([
    [bigDevice, await openProfile()],
    [smallDevice, await openProfile()],
  ]);
  const userAgent = await (async () => {
    const page = await profiles.get(bigDevice)!.newPage();
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
  async function load(deviceId: string): Promise<{ interactive: number; allFilter: number; cards: number }> {
    const selected = await fetch(`${origin}/api/me/selected-device`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ deviceId }),
    });
    if (!selected.ok) throw new Error(`selecting the workspace answered ${selected.status}`);
    const page = await profiles.get(deviceId)!.newPage();
    if (TRACE && deviceId === bigDevice) await page.addInitScript(recordTimeline);
    const profiler = PROFILE && deviceId === bigDevice ? async () => '' : null;
    if (PROFILE && deviceId === bigDevice)
      await browser.startTracing(page, { categories: ['devtools.timeline', 'v8', 'blink', 'blink.user_timing', 'loading'] });
    await page.goto(`${origin}/projects/overview`, { waitUntil: 'commit' });
    // Interactive: each non-empty stage group shows cards and the status filter can be used.
    const interactive = Number(
      await (await page.waitForFunction(interactiveCheck, undefined, { polling: 'raf', timeout: 30_000 })).jsonValue(),
    );
    if (deviceId === bigDevice) console.log('labels', await page.evaluate(`(() => { const m = {}; for (const sheet of document.styleSheets) { if (!sheet.ownerNode?.getAttribute?.('data-emotion')) continue; for (const r of sheet.cssRules) { const t = r.cssText; const mm = t.match(/css-[a-z0-9]+-?([A-Za-z]*)/); const k = (mm && mm[1]) || (t.startsWith('@media') ? 'media' : 'anon'); m[k] = (m[k] || 0) + 1; } } return Object.entries(m).sort((a, b) => b[1] - a[1]).map(([k, v]) => k + ':' + v).join(' '); })()`));
    if (deviceId === bigDevice) console.log('css rules', await page.evaluate(`[...document.styleSheets].map((sheet) => (sheet.ownerNode?.getAttribute?.('data-emotion') ?? sheet.href ?? 'inline') + ':' + sheet.cssRules.length).join(' ')`), 'elements', await page.evaluate('document.querySelectorAll("*").length'));
    const cards = await page.locator('a[href^="/projects/view/stats"]').count();
    const clickedAt = Number(await page.evaluate('performance.now()'));
    if (TRACE && deviceId === bigDevice) lastTrace = String(await page.evaluate(traceScript));
    if (profiler) {
      lastProfile = await profiler();
      lastProfile +=
        '\n\nrenderer main thread by trace event (top-level events only):\n' +
        summariseTrace(await browser.stopTracing());
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
  const big: { interactive: number[]; all: number[] } = { interactive: [], all: [] };
  const small: { interactive: number[]; all: number[] } = { interactive: [], all: [] };
  let bigCards = 0;
  let smallCards = 0;
  // Interleaved, so load on the shared machine hits both alike; two warm-ups each (JS compiled, assets cached).
  for (let run = 0; run < RUNS + 2; run += 1) {
    const b = await load(bigDevice);
    const s = await load(smallDevice);
    bigCards = b.cards;
    smallCards = s.cards;
    if (run < 2) continue;
    big.interactive.push(b.interactive);
    big.all.push(b.allFilter);
    small.interactive.push(s.interactive);
    small.all.push(s.allFilter);
  }
  await browser.close();
  if (PROFILE) console.log(`\nself time by function, last ${COUNT}-project load until interactive:\n${lastProfile}`);
  if (TRACE) console.log(`\nthe last ${COUNT}-project load (ms from navigation start):\n${lastTrace}`);

  const bigTti = median(big.interactive);
  const smallTti = median(small.interactive);
  console.log(`\n${userAgent}, median of ${RUNS} loads after 2 warm-ups (interleaved)`);
  console.log(
    `overview, ${COUNT} projects (${activeCount} active, ${bigCards} cards drawn): interactive ${fmt(bigTti)} ` +
      `(min ${fmt(Math.min(...big.interactive))}, max ${fmt(Math.max(...big.interactive))})   ` +
      `target < ${BUDGET_MS} ms ${bigTti < BUDGET_MS ? '✔' : '✘'}`,
  );
  console.log(`  switch to "All" → cards shown                        ${fmt(median(big.all))}`);
  console.log(
    `reference: overview, ${REFERENCE_COUNT} projects (${smallCards} cards): interactive ${fmt(smallTti)}; ` +
      `"All" ${fmt(median(small.all))}`,
  );
  console.log(
    `reference: GET …/projects/overview?status=active, ${activeCount} projects (Node fetch)  ${fmt(median(apiTimes))}`,
  );
  console.log(`reference: the three start-up requests at once (Node fetch)      ${fmt(median(startupTimes))}`);
  console.log(
    `ratio ${COUNT} / ${REFERENCE_COUNT} projects (interactive)                 ${(bigTti / smallTti).toFixed(2)}`,
  );
} finally {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
}
