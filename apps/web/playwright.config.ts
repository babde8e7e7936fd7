import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './e2e/chromium';

// Debian's Chromium, never a downloaded browser; the lead's test runner starts the server,
// so there is no webServer entry here.
export default defineConfig({
  testDir: 'e2e',
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  // One retry in CI only: a journey that fails and then passes is reported as flaky by name (and counted in the
  // summary of tools/run-tests.mjs) so it gets fixed, while one timing slip on the 2-core machine does not hold back
  // a whole session's work. A failure that repeats still fails (docs/decisions/ci-time.md).
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: process.env.E2E_BASE_URL ?? 'http://localhost:3000',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumArgs,
    },
  },
});
