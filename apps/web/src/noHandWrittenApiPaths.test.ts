import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The web app calls the API from the endpoints defined in `@insilico/contracts` (`pathOf`, `apiCall`), never from
 * a path written by hand (docs/decisions/endpoints-in-contracts.md). A string literal that starts with `/api/` is a
 * hand-written path.
 *
 * `notYetConverted` lists the files that still hold one, until their feature is converted. THIS LIST MAY ONLY
 * SHRINK: take a file off when its feature's endpoints move into the contracts; never add one (define the endpoint
 * in the contracts instead). Tests (`*.test.ts(x)`) are not the app and are not scanned.
 */
const notYetConverted = new Set([
  'features/device-versions/api.ts',
  'features/measurements/api.ts',
  'features/project-creation/api.ts',
  'features/projects/api.ts',
  'features/ssm/api.ts',
  'lib/analytics/browser.ts',
]);

const source = dirname(fileURLToPath(import.meta.url));
const handWrittenPath = /['"`]\/api\//;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The app's files (relative to src/, with `/`) that hold a string literal starting with `/api/`. */
function filesWithHandWrittenPaths(): string[] {
  return sourceFiles(source)
    .filter((path) => handWrittenPath.test(readFileSync(path, 'utf8')))
    .map((path) => relative(source, path).split('\\').join('/'))
    .sort();
}

describe('API paths in the web app', () => {
  const found = filesWithHandWrittenPaths();

  it('come from the contracts: no file outside the not-yet-converted list writes one by hand', () => {
    expect(found.filter((file) => !notYetConverted.has(file))).toEqual([]);
  });

  it('the not-yet-converted list names only files that still write one (take converted files off it)', () => {
    expect([...notYetConverted].filter((file) => !found.includes(file))).toEqual([]);
  });
});
