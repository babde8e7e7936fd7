import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { filesWithHandWrittenApiPaths } from '../test/handWrittenApiPaths';

/**
 * The web app calls the API from the endpoints defined in `@insilico/contracts` (`pathOf`, `apiCall`), never from
 * a path written by hand (docs/decisions/endpoints-in-contracts.md): neither a literal that starts with `/api/` nor
 * a path built by appending segments or a query to an API path (`${projectApiPath(d, p)}/trials`); see
 * test/handWrittenApiPaths.ts for the rule and the fixtures below for what it finds.
 *
 * `notYetConverted` lists the files that still hold one, until their feature is converted. THIS LIST MAY ONLY
 * SHRINK: take a file off when its feature's endpoints move into the contracts; never add one (define the endpoint
 * in the contracts instead). Tests (`*.test.ts(x)`) are not the app and are not scanned.
 */
const notYetConverted = new Set<string>([]);

const source = dirname(fileURLToPath(import.meta.url));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file);

/** The app's files (relative to src/, with `/`) that write an API path by hand. */
function filesWithHandWrittenPaths(): string[] {
  const files = new Map(
    sourceFiles(source).map((path) => [relative(source, path).split('\\').join('/'), readFileSync(path, 'utf8')]),
  );
  return filesWithHandWrittenApiPaths(files, (file) => !isTest(file));
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

describe('finding a hand-written API path', () => {
  const keys = [
    "import { pathOf, projectEndpoints } from '@insilico/contracts';",
    'export const projectApiPath = (deviceId: string, projectId: string) =>',
    '  pathOf(projectEndpoints.get, { deviceId, projectId });',
    "export const pagePath = '/projects';",
  ].join('\n');
  /** Which of features/a.ts (holding `a`) and lib/keys.ts write a path by hand. */
  const scan = (a: string) =>
    filesWithHandWrittenApiPaths(
      new Map([
        ['lib/keys.ts', keys],
        ['features/a.ts', a],
      ]),
    );
  const prelude =
    "import { pathOf, trialEndpoints } from '@insilico/contracts';\nimport { pagePath, projectApiPath } from '../lib/keys';\n";
  const written = (code: string) => expect(scan(prelude + code)).toEqual(['features/a.ts']);
  const notWritten = (code: string) => expect(scan(prelude + code)).toEqual([]);

  it('finds a literal that starts with /api/', () => {
    written("export const devices = '/api/devices';");
    written('export const one = (id: string) => `/api/devices/${id}`;');
  });

  it('finds a segment appended to an imported API-path helper', () => {
    written('export const trials = (d: string, p: string) => `${projectApiPath(d, p)}/trials`;');
  });

  it('finds a segment appended to a variable or a helper object that holds one, through helpers of helpers', () => {
    written(
      'const base = pathOf(trialEndpoints.list, { deviceId: "d", projectId: "p" });\nexport const run = (id: string) => `${base}/runs/${id}`;',
    );
    written(
      'const urls = {\n  list: (d: string, p: string) => projectApiPath(d, p),\n  one(d: string, p: string, id: string) { return `${urls.list(d, p)}/${id}`; },\n};\nexport const x = 1;',
    );
    written(
      'function list(d: string, p: string) { return projectApiPath(d, p); }\nexport const setup = `${list("d", "p")}/setup`;',
    );
  });

  it('finds a query or segment appended by concatenation, and a query appended to a template', () => {
    written("export const setup = (d: string, p: string) => projectApiPath(d, p) + '/setup';");
    written('export const page = (d: string, p: string) => `${projectApiPath(d, p)}?page=${2}`;');
  });

  it('leaves alone pathOf with its query, web page paths, prefixes of key filters and other text', () => {
    notWritten('export const page = pathOf(trialEndpoints.list, { deviceId: "d", projectId: "p" }, { page: 2 });');
    notWritten('export const create = `${pagePath}/new`;');
    notWritten('export const isList = (key: string) => key.startsWith(`${projectApiPath("d", "p")}?`);');
    notWritten('export const count = (n: number, max: number) => `${n}/${max} characters`;');
    notWritten('export const frame = (url: string, object: string) => `${url}/${object}`;');
  });
});
