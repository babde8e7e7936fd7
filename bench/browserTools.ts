import { existsSync } from 'node:fs';
import type * as Esbuild from 'esbuild';
import type * as Playwright from 'playwright';

/** Debian's Chromium, or CHROMIUM_PATH. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * esbuild and playwright (hoisted devDependencies of the workspace) for the benches that run in headless Chromium;
 * null, with a note printed, when one of them or Chromium is missing (the bench is then skipped).
 */
export async function browserTools(): Promise<{ esbuild: typeof Esbuild; playwright: typeof Playwright } | null> {
  let tools: { esbuild: typeof Esbuild; playwright: typeof Playwright };
  try {
    tools = { esbuild: await import('esbuild'), playwright: await import('playwright') };
  } catch {
    console.log('skipped: esbuild or playwright is not installed');
    return null;
  }
  if (!existsSync(CHROMIUM)) {
    console.log(`skipped: no Chromium at ${CHROMIUM}`);
    return null;
  }
  return tools;
}
