import { defineConfig } from 'vitest/config';

// One vitest run covers every workspace; each project may add its own vitest.config.ts.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/server', 'apps/web', 'tools'],
  },
});
