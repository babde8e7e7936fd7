// `npm test`: every check — lint, types, unit and API tests on the embedded database, the API tests again on
// PostgreSQL, then the browser journeys against a real server.
// Prerequisites first (tools/test-prerequisites.mjs): Chromium and PostgreSQL are installed when missing on Debian as
// root, or the run stops with the command to run. PostgreSQL: TEST_DATABASE_URL, or a private instance for this run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { installMissingPrerequisites, startPrivatePostgres } from './test-prerequisites.mjs';

const results = [];
const reportDir = mkdtempSync(join(tmpdir(), 'insilico-test-reports-'));
const counts = { passed: 0, failed: 0, skipped: 0, flaky: 0 };

/** Adds a vitest or Playwright JSON report to the totals printed at the end. */
function count(file, kind) {
  if (!existsSync(file)) {
    console.error(`(no ${kind} report at ${file}: its tests are missing from the totals)`);
    return;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  if (kind === 'vitest') {
    counts.passed += report.numPassedTests;
    counts.failed += report.numFailedTests;
    counts.skipped += report.numPendingTests + report.numTodoTests;
  } else {
    counts.passed += report.stats.expected + report.stats.flaky;
    counts.flaky += report.stats.flaky;
    counts.failed += report.stats.unexpected;
    counts.skipped += report.stats.skipped;
  }
}

// The API tests spend much of their time waiting for the server, its jobs and the database, so one worker per
// core beats vitest's default (cores − 1): on the 2-core CI machine the embedded leg took 506 s with 1 worker and
// 422 s with 3 (docs/decisions/ci-time.md).
const vitestWorkers = Math.max(2, availableParallelism() - 1);

function vitestArgs(name, extra = []) {
  const file = join(reportDir, `${name}.json`);
  return {
    file,
    args: [
      'vitest',
      'run',
      ...extra,
      `--maxWorkers=${vitestWorkers}`,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${file}`,
    ],
  };
}

/** Runs one check; a failure stops the run. `report` is a JSON test report to add to the totals. */
function step(name, command, args, env = {}, report = null) {
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  const run = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  results.push({ name, ok: run.status === 0, seconds });
  if (report) count(report.file, report.kind);
  if (run.status !== 0) finish();
}

/**
 * Runs independent checks at once (each is mostly one core), printing each one's output when it ends so the logs
 * do not interleave; any failure stops the run after all of them ended.
 */
async function parallelSteps(steps) {
  const outcomes = await Promise.all(
    steps.map(
      ([name, command, args]) =>
        new Promise((resolve) => {
          const started = Date.now();
          const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
          const output = [];
          child.stdout.on('data', (chunk) => output.push(chunk));
          child.stderr.on('data', (chunk) => output.push(chunk));
          child.on('close', (code) =>
            resolve({ name, ok: code === 0, seconds: ((Date.now() - started) / 1000).toFixed(1), output }),
          );
        }),
    ),
  );
  for (const outcome of outcomes) {
    console.log(`\n▶ ${outcome.name}`);
    process.stdout.write(Buffer.concat(outcome.output));
    results.push({ name: outcome.name, ok: outcome.ok, seconds: outcome.seconds });
  }
  if (outcomes.some((outcome) => !outcome.ok)) finish();
}

/** The server the browser journeys run against; never left running, whatever fails. */
let server = null;

/** The private PostgreSQL instance of this run, when TEST_DATABASE_URL did not name one. */
let privatePostgres = null;

function finish() {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  privatePostgres?.stop();
  console.log('\nSummary');
  for (const r of results) console.log(`  ${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds} s)`);
  rmSync(reportDir, { recursive: true, force: true });
  const failed = results.filter((r) => !r.ok).length;
  console.log(`\nTests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  if (counts.flaky > 0)
    console.log(`FLAKY: ${counts.flaky} journey(s) passed only on their retry (named above as flaky): fix them.`);
  process.exit(failed === 0 ? 0 : 1);
}

function freePort() {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function waitFor(url, ms) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`server did not answer at ${url} within ${ms / 1000} s`);
}

const npx = (args, env) => ['node', ['node_modules/.bin/' + args[0], ...args.slice(1)], env];

const problems = installMissingPrerequisites({ needPostgres: !process.env.TEST_DATABASE_URL });
if (problems.length > 0) {
  for (const problem of problems) console.error(`\n${problem}`);
  results.push({ name: 'prerequisites missing', ok: false, seconds: '0' });
  finish();
}
if (!process.env.TEST_DATABASE_URL) {
  privatePostgres = startPrivatePostgres(await freePort());
  process.env.TEST_DATABASE_URL = privatePostgres.url;
  console.log(`PostgreSQL for the API tests: a private instance for this run (${privatePostgres.url})`);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => finish());

await parallelSteps([
  ['lint', ...npx(['eslint', '.', '--max-warnings', '0'])],
  ['formatting (prettier)', ...npx(['prettier', '--check', '.'])],
  ['typecheck', 'node', ['tools/typecheck.mjs']],
]);
const embedded = vitestArgs('embedded');
step('unit and API tests (embedded database)', ...npx(embedded.args, { TEST_DATABASE_URL: '' }), {
  file: embedded.file,
  kind: 'vitest',
});

// The API tests on PostgreSQL (the server's files that open a database, apps/server/vitest.config.ts), after the
// embedded leg and before the journeys: beside the journeys both took 2–3.5 times as long on 2 cores (session 18,
// docs/decisions/ci-time.md).
const postgres = vitestArgs('postgres', ['--root', 'apps/server']);
step('API tests (PostgreSQL)', ...npx(postgres.args, {}), { file: postgres.file, kind: 'vitest' });

// Browser journeys: build the web app, start the real server on a fresh data folder, run Playwright.
step('web build', 'npm', ['run', 'build', '-w', '@insilico/web']);
const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'insilico-e2e-'));
const origin = `http://127.0.0.1:${port}`;
server = spawn('node', ['--import', 'tsx', 'apps/server/src/main.ts'], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: origin,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
  },
});
try {
  try {
    await waitFor(`${origin}/api/health`, 120_000);
  } catch (error) {
    console.error(String(error));
    results.push({ name: 'browser journeys: the server did not start', ok: false, seconds: '0' });
    finish();
  }
  const playwrightReport = join(reportDir, 'playwright.json');
  step(
    'browser journeys (Playwright, Chromium)',
    ...npx(['playwright', 'test', '--config', 'apps/web/playwright.config.ts', '--reporter=line,json'], {
      E2E_BASE_URL: origin,
      E2E_DATA_DIR: dataDir,
      PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
    }),
    { file: playwrightReport, kind: 'playwright' },
  );
} finally {
  if (server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
    if (server.exitCode === null) server.kill('SIGKILL');
  }
  rmSync(dataDir, { recursive: true, force: true });
}
finish();
