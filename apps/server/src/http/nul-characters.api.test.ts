import { randomUUID } from 'node:crypto';
import { nulCharacterMessage } from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../test/helpers/browser';
import { startTestServer, type TestServer } from '../../test/helpers/test-server';

// Issue 14 item 6: a U+0000 in a text field reached the database, which refuses the byte (500). Every text field of
// every route the OpenAPI document lists gets one, alone, and must be refused at validation (400) with the message
// of the shared text schema, at its own path. Validation runs before sign-in checks, so no account is needed.
// The one exception is the `returnTo` of GET /api/auth/login: never refused, anything unsafe in it (control
// characters included) becomes `/` (lib/return-to.ts; its own tests send a NUL).

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minItems?: number;
  examples?: unknown[];
}

interface Operation {
  parameters?: {
    in: string;
    name: string;
    schema?: Schema;
    example?: unknown;
    examples?: Record<string, { value?: unknown }>;
  }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

type Path = (string | number)[];

/** A string field: free text unless its values are fixed (enum, const) or shaped (format, its own pattern). */
interface TextField {
  path: Path;
  /** Values the branch of a union that holds the field needs (its discriminator). */
  fixed: { path: Path; value: unknown }[];
  /** Arrays on the way to the field with their least length (a tuple refuses a short array before its items). */
  arrays: { path: Path; minItems: number }[];
  freeText: boolean;
}

function isType(schema: Schema, type: string): boolean {
  return Array.isArray(schema.type) ? schema.type.includes(type) : schema.type === type;
}

function fixedValue(schema: Schema): { value: unknown } | null {
  if ('const' in schema) return { value: schema.const };
  if (schema.enum?.length === 1) return { value: schema.enum[0] };
  return null;
}

function textFields(
  schema: Schema | undefined,
  path: Path = [],
  fixed: TextField['fixed'] = [],
  arrays: TextField['arrays'] = [],
): TextField[] {
  if (!schema) return [];
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  const found = branches.flatMap((branch) => textFields(branch, path, fixed, arrays));
  if (isType(schema, 'string') && !schema.enum && !('const' in schema)) {
    const shaped = Boolean(schema.format) || Boolean(schema.pattern && schema.pattern !== '^[^\\0]*$');
    found.push({ path, fixed, arrays, freeText: !shaped });
  }
  if (schema.properties) {
    const branchFixed = [...fixed];
    for (const [name, property] of Object.entries(schema.properties)) {
      const value = fixedValue(property);
      if (value) branchFixed.push({ path: [...path, name], value: value.value });
    }
    for (const [name, property] of Object.entries(schema.properties))
      found.push(...textFields(property, [...path, name], branchFixed, arrays));
  }
  if (schema.items) {
    const least = [...arrays, { path, minItems: schema.minItems ?? 0 }];
    found.push(...textFields(schema.items, [...path, 0], fixed, least));
  }
  return found;
}

function withValue(target: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const container = (target ?? (typeof head === 'number' ? [] : {})) as Record<string | number, unknown>;
  container[head!] = withValue(container[head!], rest, value);
  return container;
}

function readPath(target: unknown, path: Path): unknown {
  return path.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], target);
}

const nul = 'Mitral\u0000valve';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('a NUL character (U+0000) in a text field', () => {
  it('is refused at validation (400) with a message, in every text field of every route', async () => {
    const browser = new TestBrowser(server.origin);
    const document = (await (await browser.get('/api/docs/json')).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const cases: { method: string; url: string; body?: unknown; field: string; freeText: boolean }[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        // Path parameters other than the one under test get a valid value: their schema's example, a uuid, or its
        // minimum (else 0) where a number is asked.
        const pathParameters = (operation.parameters ?? []).filter((p) => p.in === 'path');
        const valid = (name: string) => {
          const parameter = pathParameters.find((p) => p.name === name);
          const schema = parameter?.schema;
          const example = [
            schema?.examples?.[0],
            parameter?.example,
            ...Object.values(parameter?.examples ?? {}).map((e) => e.value),
          ].find((value) => typeof value === 'string');
          if (typeof example === 'string') return example;
          if (schema && (isType(schema, 'integer') || isType(schema, 'number')))
            return String((schema as { minimum?: number }).minimum ?? 0);
          return randomUUID();
        };
        const urlOf = (params: Record<string, string> = {}) =>
          path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? valid(name));
        for (const parameter of operation.parameters ?? []) {
          const field = textFields(parameter.schema)[0];
          if (!field || (path === '/api/auth/login' && parameter.name === 'returnTo')) continue;
          const value = encodeURIComponent(nul);
          const name = [parameter.name, ...field.path].join('/');
          if (parameter.in === 'query')
            cases.push({ method, url: `${urlOf()}?${parameter.name}=${value}`, field: name, freeText: field.freeText });
          if (parameter.in === 'path')
            cases.push({ method, url: urlOf({ [parameter.name]: value }), field: name, freeText: field.freeText });
        }
        const json = operation.requestBody?.content?.['application/json']?.schema;
        for (const field of textFields(json)) {
          let body: unknown = {};
          for (const fixed of field.fixed) body = withValue(body, fixed.path, fixed.value);
          body = withValue(body, field.path, nul);
          // An array shorter than its least length is refused before its items are read: repeat the first item.
          for (const array of field.arrays) {
            const items = readPath(body, array.path) as unknown[];
            while (items.length < array.minItems) items.push(structuredClone(items[0]));
          }
          cases.push({ method, url: urlOf(), body, field: field.path.join('/'), freeText: field.freeText });
        }
      }
    }
    expect(cases.filter((entry) => entry.freeText).length).toBeGreaterThan(40);

    const failures: string[] = [];
    for (const entry of cases) {
      const response = await browser.request(entry.url, {
        method: entry.method.toUpperCase(),
        body: entry.body === undefined ? undefined : JSON.stringify(entry.body),
        // The tus routes check their protocol version before anything else.
        headers: {
          'tus-resumable': '1.0.0',
          ...(entry.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
      });
      const answer = (await response.json().catch(() => null)) as {
        error?: { message?: string; details?: { instancePath?: string; message?: string }[] };
      } | null;
      const issues = (answer?.error?.details ?? []).filter((issue) => issue.instancePath === `/${entry.field}`);
      const refused =
        response.status === 400 &&
        (entry.freeText ? issues.some((issue) => issue.message === nulCharacterMessage) : issues.length > 0);
      if (!refused)
        failures.push(
          `${entry.method.toUpperCase()} ${entry.url} ${entry.field}: ${response.status} ${JSON.stringify(answer)}`,
        );
    }
    expect(failures).toEqual([]);
    // One request per text field of every route: about 35 s on a loaded two-core machine, more as routes grow.
  }, 240_000);

  it("is refused in the operator's maintenance text (a route the OpenAPI document hides)", async () => {
    if (server.databaseUrl) return; // the operator routes exist with the embedded database only
    const response = await new TestBrowser(server.origin).postJson('/api/operator/maintenance', {
      mode: 'on',
      text: nul,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(nulCharacterMessage);
  });

  it('answers the message itself when it is the only problem', async () => {
    const browser = new TestBrowser(server.origin);
    const response = await browser.request('/api/notifications/seen', {
      method: 'POST',
      body: JSON.stringify({ ids: [nul] }),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(nulCharacterMessage);
  });
});
