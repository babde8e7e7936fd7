// @vitest-environment node
import type { DirectUpload } from '@insilico/contracts';
import { describe, expect, it } from 'vitest';
import { StorageRefusal, sendDirect, type DirectApi } from './directUpload';

/**
 * A bucket and a server in memory: the server hands addresses for the parts it has not recorded (an address names
 * its part and its round), storage keeps what is PUT, and `failures` makes chosen PUTs fail.
 */
class FakeStorage implements DirectApi {
  readonly stored = new Map<number, Blob>();
  readonly recorded = new Map<number, { etag: string; bytes: number }>();
  readonly puts: string[] = [];
  round = 0;
  completed = false;

  constructor(
    private readonly size: number,
    private readonly partSize: number,
    /** `part@round` → the status a PUT answers (0: the line dropped). */
    readonly failures = new Map<string, number[]>(),
  ) {}

  parts(): Promise<DirectUpload> {
    this.round += 1;
    const partCount = Math.ceil(this.size / this.partSize);
    const missing = Array.from({ length: partCount }, (_, i) => i + 1).filter((n) => !this.recorded.has(n));
    return Promise.resolve({
      partSize: this.partSize,
      partCount,
      received: [...this.recorded.keys()].sort((a, b) => a - b),
      urls: missing.map((partNumber) => ({ partNumber, url: `${partNumber}@${this.round}` })),
      urlsExpireAt: new Date().toISOString(),
    });
  }

  put(url: string, body: Blob): Promise<string> {
    this.puts.push(url);
    const failing = this.failures.get(url);
    const status = failing?.shift();
    if (status !== undefined) return Promise.reject(new StorageRefusal(status));
    const partNumber = Number(url.split('@')[0]);
    this.stored.set(partNumber, body);
    return Promise.resolve(`"etag-${partNumber}-${body.size}"`);
  }

  report(partNumber: number, etag: string, bytes: number): Promise<void> {
    this.recorded.set(partNumber, { etag, bytes });
    return Promise.resolve();
  }

  complete(): Promise<void> {
    this.completed = true;
    return Promise.resolve();
  }

  async joined(): Promise<Uint8Array> {
    const parts = [...this.stored.entries()].sort(([a], [b]) => a - b).map(([, blob]) => blob);
    return new Uint8Array(await new Blob(parts).arrayBuffer());
  }
}

const file = (n: number) => new Blob([Uint8Array.from({ length: n }, (_, i) => (i * 7) % 256)]);
const noWait = [0, 0, 0];

describe('sendDirect', () => {
  it('sends every part (the last one short), reports each with its ETag, completes, and counts progress', async () => {
    const data = file(25);
    const storage = new FakeStorage(25, 10);
    const progress: number[] = [];
    await sendDirect(storage, data, new AbortController().signal, (sent) => progress.push(sent), noWait);
    expect(storage.completed).toBe(true);
    expect(await storage.joined()).toEqual(new Uint8Array(await data.arrayBuffer()));
    expect([...storage.recorded.entries()].sort(([a], [b]) => a - b)).toEqual([
      [1, { etag: '"etag-1-10"', bytes: 10 }],
      [2, { etag: '"etag-2-10"', bytes: 10 }],
      [3, { etag: '"etag-3-5"', bytes: 5 }],
    ]);
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(25);
  });

  it('resumes with the parts the server has not recorded only', async () => {
    const storage = new FakeStorage(30, 10);
    storage.recorded.set(2, { etag: '"old"', bytes: 10 });
    const progress: number[] = [];
    await sendDirect(storage, file(30), new AbortController().signal, (sent) => progress.push(sent), noWait);
    expect(storage.puts.sort()).toEqual(['1@1', '3@1']);
    expect(progress[0]).toBe(10);
    expect(storage.completed).toBe(true);
  });

  it('re-sends a part whose connection dropped, and asks for fresh addresses when they ran out (403)', async () => {
    const storage = new FakeStorage(
      20,
      10,
      new Map([
        ['1@1', [0]],
        ['2@1', [403]],
      ]),
    );
    await sendDirect(storage, file(20), new AbortController().signal, () => undefined, noWait);
    expect(storage.puts).toContain('2@2');
    expect(storage.puts.filter((url) => url === '1@1')).toHaveLength(2);
    expect(storage.completed).toBe(true);
  });

  it('fails after the re-sends of one part, without completing (Try again resumes)', async () => {
    const storage = new FakeStorage(10, 10, new Map([['1@1', [500, 500, 500, 500]]]));
    await expect(sendDirect(storage, file(10), new AbortController().signal, () => undefined, noWait)).rejects.toThrow(
      'The storage refused a part (status 500).',
    );
    expect(storage.completed).toBe(false);
    expect(storage.recorded.size).toBe(0);
  });

  it('completes at once when storage holds every part', async () => {
    const storage = new FakeStorage(10, 10);
    storage.recorded.set(1, { etag: '"x"', bytes: 10 });
    await sendDirect(storage, file(10), new AbortController().signal, () => undefined, noWait);
    expect(storage.puts).toEqual([]);
    expect(storage.completed).toBe(true);
  });
});
