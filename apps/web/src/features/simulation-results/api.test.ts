import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchAhead, fetchBytes } from './api';

afterEach(() => vi.unstubAllGlobals());

describe('fetchAhead', () => {
  it('hands its answer to the first fetchBytes of the same URL, once; later ones ask again', async () => {
    let served = 0;
    const fetch = vi.fn(async () => new Response(new Uint8Array([++served])));
    vi.stubGlobal('fetch', fetch);
    fetchAhead('/frames/blood/0?columns=particle_id,position');
    fetchAhead('/frames/blood/0?columns=particle_id,position');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(new Uint8Array(await fetchBytes('/frames/blood/0?columns=particle_id,position'))).toEqual(
      new Uint8Array([1]),
    );
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(new Uint8Array(await fetchBytes('/frames/blood/0?columns=particle_id,position'))).toEqual(
      new Uint8Array([2]),
    );
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('drops a failed answer: the next fetchBytes asks again', async () => {
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(new Response('{}', { status: 500 }))
      .mockResolvedValueOnce(new Response(new Uint8Array([7])));
    vi.stubGlobal('fetch', fetch);
    fetchAhead('/monitors.csv');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(new Uint8Array(await fetchBytes('/monitors.csv'))).toEqual(new Uint8Array([7]));
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
