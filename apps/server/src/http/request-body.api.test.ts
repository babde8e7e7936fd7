import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { pictureMaxBytes, pictureTooBigMessage } from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/helpers/test-server';
import { projectWorld } from '../../test/fixtures/project-world';
import type { Person } from '../../test/fixtures/workspace.fixtures';
import { createUpload, tus } from '../../test/fixtures/upload.fixtures';
import { unreadBodyMaxBytes } from './request-body';

// A refused upload over a real socket (inject has none): the client, still writing the body when the refusal is
// ready, must write all of it and then receive the answer on a connection that stays open, never a reset (the
// profile-picture journey failed once with `write EPIPE`). Each case runs in a loop, as the reset was a race.

let server: TestServer;
let admin: Person;
let deviceId = '';
// One socket, kept alive: every request after the first must reuse it.
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  ({ server, admin, deviceId } = await projectWorld());
}, 120_000);
afterAll(async () => {
  agent.destroy();
  await server?.stop();
});

/** The signed-in admin's credentials, as the test browser sends them. */
function signedInHeaders(): Record<string, string> {
  const cookie = [...admin.browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  return { cookie, origin: server.origin };
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  reusedSocket: boolean;
}

/** Sends `body` in 64 KiB writes (with a Content-Length unless `chunked`); fails on any socket error. */
function send(method: string, path: string, headers: Record<string, string>, body: Buffer, chunked = false) {
  return new Promise<Answer>((resolve, reject) => {
    let written = false;
    let answer: Answer | undefined;
    const settle = () => {
      if (written && answer) resolve(answer);
    };
    const request = httpRequest(
      new URL(path, server.origin),
      {
        method,
        agent,
        headers: {
          ...signedInHeaders(),
          ...headers,
          ...(chunked ? {} : { 'content-length': String(body.length) }),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          answer = {
            status: response.statusCode!,
            headers: response.headers,
            text,
            reusedSocket: request.reusedSocket,
          };
          settle();
        });
      },
    );
    request.on('error', reject);
    request.on('finish', () => {
      written = true;
      settle();
    });
    for (let at = 0; at < body.length; at += 64 * 1024) request.write(body.subarray(at, at + 64 * 1024));
    request.end();
  });
}

const repeats = 20;

describe('a refused upload over a real socket', () => {
  it('413 for a picture declared over the limit: the body fully written, the answer received, the socket kept', async () => {
    const body = Buffer.alloc(pictureMaxBytes + 1024 * 1024, 7);
    for (let round = 0; round < repeats; round += 1) {
      const answer = await send('PUT', '/api/me/picture', { 'content-type': 'image/png' }, body);
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.text)).toMatchObject({ error: { message: pictureTooBigMessage } });
      expect(answer.headers.connection).toBe('keep-alive');
      if (round > 0) expect(answer.reusedSocket).toBe(true);
    }
  });

  it('413 for a picture that streams past the limit without a declared length (chunked)', async () => {
    const body = Buffer.alloc(pictureMaxBytes + 512 * 1024, 7);
    for (let round = 0; round < repeats; round += 1) {
      const answer = await send('PUT', '/api/me/picture', { 'content-type': 'image/png' }, body, true);
      expect(answer.status).toBe(413);
      expect(answer.headers.connection).toBe('keep-alive');
    }
  });

  it('413 for tus bytes streamed beyond the upload length (the service stops reading mid-stream)', async () => {
    const created = await createUpload(admin.browser, deviceId, 1024, 'part.stl');
    const location = created.headers.get('location')!;
    const headers = { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' };
    for (let round = 0; round < repeats; round += 1) {
      const answer = await send('PATCH', location, headers, Buffer.alloc(2 * 1024 * 1024, 3), true);
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.text)).toMatchObject({ error: { code: 'beyond_length' } });
      expect(answer.headers.connection).toBe('keep-alive');
    }
  });

  it('answers at once and closes the connection when the body is declared past the bound', async () => {
    const answer = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      const request = httpRequest(new URL('/api/me/picture', server.origin), {
        method: 'PUT',
        headers: {
          ...signedInHeaders(),
          'content-type': 'image/png',
          'content-length': String(unreadBodyMaxBytes + 1),
        },
      });
      request.on('response', (response) => {
        resolve({ status: response.statusCode!, connection: response.headers.connection });
        request.destroy();
      });
      request.on('error', reject);
      request.flushHeaders();
    });
    expect(answer).toEqual({ status: 413, connection: 'close' });
  });
});
