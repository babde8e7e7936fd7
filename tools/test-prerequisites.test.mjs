import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { installMissingPrerequisites, startPrivatePostgres } from './test-prerequisites.mjs';

const savedChromium = process.env.CHROMIUM_PATH;
afterEach(() => {
  if (savedChromium === undefined) delete process.env.CHROMIUM_PATH;
  else process.env.CHROMIUM_PATH = savedChromium;
});

const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

describe('test prerequisites', () => {
  it('names the fix when the Chromium it was pointed at is missing (nothing to install for a chosen path)', () => {
    process.env.CHROMIUM_PATH = '/nonexistent/chromium';
    expect(installMissingPrerequisites({ needPostgres: false })).toEqual([
      'Chromium not found at CHROMIUM_PATH=/nonexistent/chromium: point it at a Chromium binary.',
    ]);
  });

  it('starts a private PostgreSQL where databases can be created, and removes it on stop', async () => {
    const server = startPrivatePostgres(await freePort());
    try {
      const client = new pg.Client(server.url);
      await client.connect();
      await client.query('CREATE DATABASE prerequisites_probe');
      const { rows } = await client.query("SELECT 1 AS one FROM pg_database WHERE datname = 'prerequisites_probe'");
      await client.end();
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      server.stop();
    }
    const client = new pg.Client(server.url);
    await expect(client.connect()).rejects.toThrow();
  });
});
