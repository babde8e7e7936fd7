// `npm run bench -- load`: issue 14 item 12b, the server under load. For each database — the embedded default
// (PGlite in memory) and, when DATABASE_URL or TEST_DATABASE_URL names a PostgreSQL server, a database of its own
// created there and dropped afterwards — the real server runs in a child process (bench/loadServer.ts: 50 users,
// each with a workspace of 20 projects, 6 cohorts and 30 notifications, and a session) and autocannon, in this
// process, keeps LOAD_BENCH_CONNECTIONS (default 50) signed-in clients busy over loopback, one request in flight
// each, the users' sessions taken in turn:
//   health — GET /api/health (no session; one `select 1`), LOAD_BENCH_HEALTH_SECONDS (default 20): the reference;
//   main   — the main read endpoints in turn (projects overview, cohorts list, notifications),
//            LOAD_BENCH_SECONDS (default 60).
// Both runs follow a 5 s warm-up of the same mix. Prints p50/p95/p99, requests per second and errors of each, the
// per-endpoint p95 of the main run, the ratio main / health of p50 and p95 (the figure that survives this shared
// machine's load), and the load average. LOAD_BENCH_DATABASES=embedded|postgres|both (default: both where a URL is
// set). LOAD_BENCH_CPU_PROF=<folder> starts the server with --cpu-prof into that folder. Targets on 2 cores: p95 ≤ 50 ms on
// PostgreSQL, ≤ 150 ms embedded. Figures go to docs/benchmarks.md, "Load".
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import type { LoadServerReady } from './loadServer';

const CONNECTIONS = Number(process.env.LOAD_BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.LOAD_BENCH_SECONDS ?? 60);
const HEALTH_SECONDS = Number(process.env.LOAD_BENCH_HEALTH_SECONDS ?? 20);
const WARMUP_SECONDS = 5;
const postgresUrl = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || null;
const databases = (process.env.LOAD_BENCH_DATABASES ?? (postgresUrl ? 'both' : 'embedded')).split(',');
const wanted = (name: string) => databases.includes(name) || databases.includes('both');
const TARGET_P95 = { embedded: 150, postgres: 50 } as const;

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const ms = (value: number) => `${value.toFixed(1).padStart(7)} ms`;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ');

interface Measured {
  latencies: number[];
  byEndpoint: Map<string, number[]>;
  requestsPerSecond: number;
  errors: number;
}

/** One autocannon run; latencies are collected per response (autocannon's own histogram has no p95). */
async function hammer(
  origin: string,
  clients: LoadServerReady['clients'],
  paths: ((deviceId: string) => string)[],
  names: string[],
  seconds: number,
): Promise<Measured> {
  let next = 0;
  const latencies: number[] = [];
  const byEndpoint = new Map<string, number[]>(names.map((name) => [name, []]));
  // Each connection takes the next user's session for each round of the endpoints (autocannon gives a connection a
  // fresh context per round), so all users' sessions are in use; the endpoint a response answered is noted on the
  // context for the per-endpoint breakdown.
  type Context = { client?: LoadServerReady['clients'][number]; last?: string };
  let done!: (result: autocannon.Result) => void;
  let failed!: (error: unknown) => void;
  const finished = new Promise<autocannon.Result>((resolve, reject) => ((done = resolve), (failed = reject)));
  const instance = autocannon(
    {
      url: origin,
      connections: CONNECTIONS,
      duration: seconds,
      timeout: 10,
      initialContext: {},
      requests: paths.map((path, index) => ({
        method: 'GET' as const,
        setupRequest: (request: autocannon.Request, context: Context) => {
          context.client ??= clients[next++ % clients.length]!;
          return { ...request, path: path(context.client.deviceId), headers: { cookie: context.client.cookie } };
        },
        onResponse: (_status: number, _body: string, context: Context) => {
          context.last = names[index];
        },
      })),
    },
    (error, result) => (error ? failed(error) : done(result)),
  );
  instance.on('response', (client, _status, _bytes, responseTime) => {
    latencies.push(responseTime);
    // autocannon keeps each connection's context on its request iterator (not in its types).
    const context = (client as unknown as { requestIterator?: { context?: Context } }).requestIterator?.context;
    if (context?.last) byEndpoint.get(context.last)?.push(responseTime);
  });
  const result = await finished;
  return {
    latencies: latencies.sort((a, b) => a - b),
    byEndpoint: new Map([...byEndpoint].map(([name, values]) => [name, values.sort((a, b) => a - b)])),
    requestsPerSecond: result.requests.average,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

function line(label: string, m: Measured): string {
  const l = m.latencies;
  return (
    `${label.padEnd(8)} p50 ${ms(quantile(l, 0.5))}   p95 ${ms(quantile(l, 0.95))}   p99 ${ms(quantile(l, 0.99))}   ` +
    `${m.requestsPerSecond.toFixed(0).padStart(5)} req/s   ${l.length} responses   ${m.errors} errors`
  );
}

async function measure(database: 'embedded' | 'postgres', databaseUrl: string | null): Promise<boolean> {
  const started = performance.now();
  const child = fork(new URL('./loadServer.ts', import.meta.url).pathname, [], {
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.LOAD_BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.LOAD_BENCH_CPU_PROF}`] : []),
    ],
    env: { ...process.env, ...(databaseUrl ? { LOAD_SERVER_DATABASE_URL: databaseUrl } : {}) },
  });
  try {
    const ready = await new Promise<LoadServerReady>((resolve, reject) => {
      child.once('message', (message) => resolve(message as LoadServerReady));
      child.once('exit', (code) => reject(new Error(`the load server exited (${code}) before it was ready`)));
    });
    console.log(
      `\n${database}: seeded ${ready.clients.length} users in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const names = ['projects overview', 'cohorts list', 'notifications'];
    const main = [
      (deviceId: string) => `/api/devices/${deviceId}/projects/overview`,
      (deviceId: string) => `/api/devices/${deviceId}/cohorts`,
      () => '/api/notifications',
    ];
    await hammer(ready.origin, ready.clients, main, names, WARMUP_SECONDS);
    const before = load();
    const health = await hammer(ready.origin, ready.clients, [() => '/api/health'], ['health'], HEALTH_SECONDS);
    const mixed = await hammer(ready.origin, ready.clients, main, names, SECONDS);
    console.log(`load average before / after: ${before}  →  ${load()}   (${CONNECTIONS} connections)`);
    console.log(line('health', health));
    console.log(line('main', mixed));
    for (const [name, values] of mixed.byEndpoint)
      console.log(
        `  ${name.padEnd(18)} p50 ${ms(quantile(values, 0.5))}   p95 ${ms(quantile(values, 0.95))}   (${values.length})`,
      );
    const p95 = quantile(mixed.latencies, 0.95);
    const ratio50 = quantile(mixed.latencies, 0.5) / quantile(health.latencies, 0.5);
    const ratio95 = p95 / quantile(health.latencies, 0.95);
    const ok = p95 <= TARGET_P95[database] && mixed.errors === 0;
    console.log(
      `ratio main / health: p50 ${ratio50.toFixed(2)}, p95 ${ratio95.toFixed(2)}   ` +
        `target p95 ≤ ${TARGET_P95[database]} ms: ${ok ? 'met' : 'NOT met'}`,
    );
    return ok;
  } finally {
    child.send?.('stop');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
  }
}

let allMet = true;
if (wanted('embedded')) allMet = (await measure('embedded', null)) && allMet;
if (wanted('postgres')) {
  if (!postgresUrl) throw new Error('LOAD_BENCH_DATABASES asks for postgres: set DATABASE_URL or TEST_DATABASE_URL');
  const name = `insilico_load_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  try {
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    allMet = (await measure('postgres', url.toString())) && allMet;
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
} else console.log('\npostgres: skipped (set DATABASE_URL or TEST_DATABASE_URL to a PostgreSQL server)');
// Informational on this shared machine: the exit code does not fail on a missed target.
if (!allMet) console.log('\nA target was not met (see above).');
