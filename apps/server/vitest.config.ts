import { defineConfig } from 'vitest/config';

// API tests run against the real server on the embedded database (default) or PostgreSQL
// (TEST_DATABASE_URL): one migrated template per run, cloned for each test file.
export default defineConfig({
  test: {
    name: process.env.TEST_DATABASE_URL ? 'server-postgres' : 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
