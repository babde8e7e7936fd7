import { afterEach, describe, expect, it, vi } from 'vitest';
import { assignLocation } from './browserLocation';
import { checkMaintenanceAnswer, isChunkLoadError } from './maintenance';

vi.mock('./browserLocation', () => ({ assignLocation: vi.fn(), loginUrl: (path: string) => path }));

const health = (maintenance: boolean) =>
  new Response(JSON.stringify({ status: 'ok', database: 'ok', maintenance, version: '1' }), { status: 200 });

afterEach(() => {
  vi.mocked(assignLocation).mockReset();
  vi.unstubAllGlobals();
});

describe('maintenance in the app', () => {
  it('sends a model or mesh download answered by the maintenance gate to the notice', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>());
    await checkMaintenanceAnswer(
      new Response(JSON.stringify({ error: { code: 'maintenance', message: 'Back at ten' } }), { status: 503 }),
    );
    expect(assignLocation).toHaveBeenCalledWith('/maintenance.html');
  });

  it('asks the health route about a bare 503 (a static file) and leaves other answers alone', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => Promise.resolve(health(false))),
    );
    await checkMaintenanceAnswer(new Response(null, { status: 503 }));
    expect(assignLocation).not.toHaveBeenCalled();
    await checkMaintenanceAnswer(new Response('{}', { status: 404 }));
    expect(fetch).toHaveBeenCalledTimes(1);

    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => Promise.resolve(health(true))),
    );
    await checkMaintenanceAnswer(new Response(null, { status: 503 }));
    expect(assignLocation).toHaveBeenCalledWith('/maintenance.html');
  });

  it('recognises the failed chunk loads of Chromium, Firefox, Safari and Vite', () => {
    for (const message of [
      'Failed to fetch dynamically imported module: http://x/assets/a.js',
      'error loading dynamically imported module: http://x/assets/a.js',
      'Importing a module script failed.',
      'Unable to preload CSS for /assets/a.css',
    ])
      expect(isChunkLoadError(new TypeError(message))).toBe(true);
    expect(isChunkLoadError(new Error('Boom'))).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });
});
