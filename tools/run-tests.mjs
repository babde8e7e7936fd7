// `npm test`: every check, in order — lint, types, unit and API tests on the embedded database,
// the API tests again on PostgreSQL, then the browser journeys against a real server.
// PostgreSQL: TEST_DATABASE_URL (.ci/run sets it). In CI a missing prerequisite fails, by name.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';

const ci = process.env.CI === 'true' || process.env.CI === '1';
const results = [];

function step(name, command, args, env = {}) {
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  const run = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  results.push({ name, ok: run.status === 0, seconds });
  if (run.status !== 0) finish();
}

function finish() {
  console.log('\nSummary');
  for (const r of results) console.log(`  ${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds} s)`);
  const failed = results.filter((r) => !r.ok).length;
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

step('lint', ...npx(['eslint', '.', '--max-warnings', '0']));
step('typecheck', 'node', ['tools/typecheck.mjs']);
step('unit and API tests (embedded database)', ...npx(['vitest', 'run'], { TEST_DATABASE_URL: '' }));

const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) {
  step('API tests (PostgreSQL)', ...npx(['vitest', 'run', '--config', 'apps/server/vitest.config.ts', '--root', 'apps/server']));
} else if (ci) {
  console.error('\nTEST_DATABASE_URL is not set: the API tests on PostgreSQL cannot run (CI requires them).');
  results.push({ name: 'API tests (PostgreSQL): TEST_DATABASE_URL missing', ok: false, seconds: '0' });
  finish();
} else {
  console.log('\nNote: TEST_DATABASE_URL is not set, so the API tests ran on the embedded database only (CI runs both).');
}

// Browser journeys: build the web app, start the real server on a fresh data folder, run Playwright.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(`\nChromium not found at ${chromium}: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH.`);
  results.push({ name: 'browser journeys: Chromium missing', ok: false, seconds: '0' });
  finish();
}
step('web build', 'npm', ['run', 'build', '-w', '@insilico/web']);
const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'insilico-e2e-'));
const origin = `http://127.0.0.1:${port}`;
const server = spawn('node', ['--import', 'tsx', 'apps/server/src/main.ts'], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: origin, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '' },
});
try {
  await waitFor(`${origin}/api/health`, 120_000);
  step('browser journeys (Playwright, Chromium)', ...npx(['playwright', 'test', '--config', 'apps/web/playwright.config.ts'], {
    E2E_BASE_URL: origin,
    E2E_DATA_DIR: dataDir,
  }));
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
finish();
