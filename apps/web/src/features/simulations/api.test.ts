import { describe, expect, it } from 'vitest';
import type { SimulationListQuery } from '@insilico/contracts';
import { isRoomsChangedKey } from '../../lib/projectKeys';
import { listUrl } from './api';

const query: SimulationListQuery = { search: 'a b', sort: 'name', order: 'asc', page: 2, pageSize: 25 };
const project = { deviceId: 'd-1', projectId: 'p-1', roomId: null };
const room = { ...project, roomId: 'r-1' };

describe('the simulation lists’ keys (their URLs, from simulationEndpoints)', () => {
  it('are the paths the server serves, with the filters in the order the lists always sent them', () => {
    expect(listUrl(project, query)).toBe(
      '/api/devices/d-1/projects/p-1/simulations?search=a+b&sort=name&order=asc&page=2&pageSize=25',
    );
    expect(listUrl(room, { ...query, search: '' })).toBe(
      '/api/devices/d-1/projects/p-1/rooms/r-1/simulations?search=&sort=name&order=asc&page=2&pageSize=25',
    );
  });

  it('are what a change of the project’s rooms or runs makes stale, and not another project’s', () => {
    const stale = isRoomsChangedKey('d-1', 'p-1');
    expect(
      [listUrl(project, query), listUrl(room, query), listUrl({ ...room, projectId: 'p-2' }, query)].map(stale),
    ).toEqual([true, true, false]);
  });
});
