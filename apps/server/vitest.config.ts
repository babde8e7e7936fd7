import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));
const testFiles = ['src', 'test'].flatMap((dir) =>
  readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => join(dir, file)),
);

/**
 * The test files that open a database: through the test server helpers (`startTestServer`, `restartableTestServer`,
 * `freshDatabase` in test/helpers/test-server.ts) or `openDatabase` directly. The PostgreSQL leg runs only these; the
 * others (pure logic, the CPU tasks, PGlite alone) never reach PostgreSQL and already ran in the embedded leg
 * (docs/decisions/ci-time.md).
 */
const opensDatabase = /helpers\/test-server|\bopenDatabase\b/;

const postgres = Boolean(process.env.TEST_DATABASE_URL);

// API tests run against the real server on the embedded database (default) or PostgreSQL
// (TEST_DATABASE_URL): one migrated template per run, cloned for each test file.
export default defineConfig({
  test: {
    name: postgres ? 'server-postgres' : 'server',
    include: postgres
      ? testFiles.filter((file) => opensDatabase.test(readFileSync(join(root, file), 'utf8')))
      : ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/helpers/shared-process.setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // A worker process runs file after file with the modules it imported kept (the server's module graph once per
    // worker, not once per file): a file must stop what it starts (shared-process.setup.ts checks its servers) and
    // restore what it changes (docs/decisions/ci-time.md, session 19).
    isolate: false,
  },
});
