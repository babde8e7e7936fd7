import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoint, isPathOf, pathOf, pathParamNames, type EndpointDefinition } from './endpoint';
import * as contracts from './index';

const sample = endpoint({
  method: 'GET',
  path: '/api/devices/:deviceId/projects/:projectId/rooms',
  params: z.object({ deviceId: z.string(), projectId: z.string() }),
  query: z.object({ search: z.string(), page: z.number(), cohortId: z.string().optional() }),
});

describe('pathOf', () => {
  it('replaces each segment by its value', () => {
    expect(pathOf(sample, { deviceId: 'd-1', projectId: 'p-1' })).toBe('/api/devices/d-1/projects/p-1/rooms');
  });

  it('encodes a value as one path segment, so it can never reach another route', () => {
    expect(pathOf(sample, { deviceId: '../x', projectId: 'a/b?c#d e' })).toBe(
      '/api/devices/..%2Fx/projects/a%2Fb%3Fc%23d%20e/rooms',
    );
  });

  it('appends the query in the order given and leaves undefined and null out', () => {
    expect(pathOf(sample, { deviceId: 'd', projectId: 'p' }, { search: 'a b&c', page: 2, cohortId: undefined })).toBe(
      '/api/devices/d/projects/p/rooms?search=a+b%26c&page=2',
    );
    expect(pathOf(sample, { deviceId: 'd', projectId: 'p' }, { cohortId: undefined })).toBe(
      '/api/devices/d/projects/p/rooms',
    );
    expect(pathOf(sample, { deviceId: 'd', projectId: 'p' }, { search: '' })).toBe(
      '/api/devices/d/projects/p/rooms?search=',
    );
  });

  it('refuses a missing or empty segment value rather than calling a wrong URL', () => {
    const missing = { deviceId: 'd' } as unknown as { deviceId: string; projectId: string };
    expect(() => pathOf(sample, missing)).toThrow(':projectId');
    expect(() => pathOf(sample, { deviceId: '', projectId: 'p' })).toThrow(':deviceId');
  });
});

describe('isPathOf', () => {
  const device = endpoint({ method: 'GET', path: '/api/devices/:deviceId' });

  it('takes the URLs of the template, with or without a query', () => {
    expect(isPathOf(sample, '/api/devices/d-1/projects/p-1/rooms')).toBe(true);
    expect(isPathOf(sample, pathOf(sample, { deviceId: 'a b', projectId: 'p' }, { page: 2 }))).toBe(true);
    expect(isPathOf(device, '/api/devices/d-1')).toBe(true);
  });

  it('refuses other paths: longer, shorter, an empty segment, another route', () => {
    expect(isPathOf(sample, '/api/devices/d-1/projects/p-1/rooms/r-1')).toBe(false);
    expect(isPathOf(sample, '/api/devices/d-1/projects/p-1')).toBe(false);
    expect(isPathOf(sample, '/api/devices//projects/p-1/rooms')).toBe(false);
    expect(isPathOf(sample, '/api/devices/d-1/projects/p-1/roomsX')).toBe(false);
    expect(isPathOf(device, '/api/devices/d-1/team')).toBe(false);
    expect(isPathOf(device, '/api/devices')).toBe(false);
  });

  it('with within, takes the URLs under the template too', () => {
    expect(isPathOf(device, '/api/devices/d-1/team', { within: true })).toBe(true);
    expect(isPathOf(device, '/api/devices/d-1', { within: true })).toBe(true);
    expect(isPathOf(device, '/api/devices/d-1?x=1', { within: true })).toBe(true);
    expect(isPathOf(device, '/api/devicesX/d-1', { within: true })).toBe(false);
    expect(isPathOf(device, '/api/me/profile', { within: true })).toBe(false);
  });
});

/** Every endpoint the contracts export (the `…Endpoints` groups). */
function definedEndpoints(): [string, EndpointDefinition][] {
  return Object.entries(contracts as Record<string, unknown>)
    .filter(([name]) => name.endsWith('Endpoints'))
    .flatMap(([group, endpoints]) =>
      Object.entries(endpoints as Record<string, EndpointDefinition>).map(
        ([name, definition]): [string, EndpointDefinition] => [`${group}.${name}`, definition],
      ),
    );
}

describe('the endpoints defined in the contracts', () => {
  const endpoints = definedEndpoints();

  it('are exported', () => {
    expect(endpoints.length).toBeGreaterThan(0);
  });

  it.each(endpoints)('%s: its params schema names exactly the segments of its path', (_name, definition) => {
    const segments = pathParamNames(definition.path).sort();
    if (!definition.params) {
      expect(segments).toEqual([]);
      return;
    }
    expect(definition.params).toBeInstanceOf(z.ZodObject);
    expect(Object.keys((definition.params as z.ZodObject).shape).sort()).toEqual(segments);
  });

  it('never define one method and path twice', () => {
    const routes = endpoints.map(([, definition]) => `${definition.method} ${definition.path}`);
    expect(routes.length - new Set(routes).size).toBe(0);
  });
});
