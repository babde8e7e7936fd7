import type { z } from 'zod';

/**
 * An endpoint of the workspace API, defined once (docs/decisions/endpoints-in-contracts.md): its method, its path
 * template (`:name` segments) and the zod schemas it already has (path params, query, JSON body, answers by status).
 * The server registers it from this definition (`apps/server/src/http/route.ts`) and the web client builds its URL
 * from it (`pathOf`), so that neither side writes the path by hand.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface EndpointDefinition {
  readonly method: HttpMethod;
  readonly path: `/api/${string}`;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** The answers' schemas by status code (`{ 200: roomSchema }`); none for an empty or non-JSON answer. */
  readonly response?: Readonly<Partial<Record<number, z.ZodType>>>;
}

/** The `:name` segments of a path template, as a union of names (`never` for a path without any). */
export type PathParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** The values of a path template's segments, by name. */
export type PathParams<Path extends string> = Readonly<Record<PathParamNames<Path>, string>>;

/** A query value as it goes into a URL; `undefined` and `null` leave the parameter out. */
export type QueryValue = string | number | boolean | null | undefined;

/** The query of an endpoint: the keys its query schema knows (any key where it has none). */
export type QueryOf<E extends EndpointDefinition> = E['query'] extends z.ZodType
  ? Partial<Record<keyof z.input<E['query']> & string, QueryValue>>
  : Readonly<Record<string, QueryValue>>;

/**
 * Defines an endpoint; the definition is kept as written (its literal method and path) so that the server's handlers
 * and the web's path builder are typed from it.
 */
export function endpoint<const E extends EndpointDefinition>(definition: E): E {
  return definition;
}

const segmentPattern = /:([A-Za-z][A-Za-z0-9]*)/g;

/** The names of a path template's `:name` segments, in order. */
export function pathParamNames(path: string): string[] {
  return Array.from(path.matchAll(segmentPattern), (match) => match[1] ?? '');
}

/**
 * The URL of an endpoint: each `:name` segment replaced by its value, encoded as a path segment, and the query (in
 * the order given; `undefined` and `null` left out) appended. A missing or empty segment value is a programming
 * error and throws rather than calling a wrong URL.
 */
export function pathOf<E extends EndpointDefinition>(
  definition: E,
  params: PathParams<E['path']>,
  query?: QueryOf<E>,
): string {
  const values: Readonly<Record<string, string | undefined>> = params;
  const path = definition.path.replace(segmentPattern, (_segment, name: string) => {
    const value = values[name];
    if (value === undefined || value === '') throw new Error(`pathOf: no value for :${name} of ${definition.path}`);
    return encodeURIComponent(value);
  });
  if (!query) return path;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query as Readonly<Record<string, QueryValue>>)) {
    if (value !== undefined && value !== null) search.append(name, String(value));
  }
  const encoded = search.toString();
  return encoded === '' ? path : `${path}?${encoded}`;
}

/**
 * Whether a URL (an SWR key) is one of an endpoint's: its path matches the template, each `:name` segment standing
 * for one non-empty segment; with `within`, the URLs under it too (`/api/devices/:deviceId` then takes
 * `/api/devices/d-1/team`). The query is not looked at.
 */
export function isPathOf(definition: EndpointDefinition, url: string, options: { within?: boolean } = {}): boolean {
  return pathMatcher(definition.path, options.within === true).test(url);
}

/** One compiled pattern per template and mode: key filters run over every cached key on each change. */
const pathMatchers = new Map<string, RegExp>();

function pathMatcher(template: string, within: boolean): RegExp {
  const key = `${within ? 'within' : 'exact'} ${template}`;
  let matcher = pathMatchers.get(key);
  if (!matcher) {
    const pattern = template
      .split(segmentPattern)
      .map((part, index) => (index % 2 === 1 ? '[^/?#]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    matcher = new RegExp(`^${pattern}${within ? '(?:[/?]|$)' : '(?:\\?|$)'}`);
    pathMatchers.set(key, matcher);
  }
  return matcher;
}
