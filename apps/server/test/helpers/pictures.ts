import sharp from 'sharp';
import type { TestBrowser } from './browser';

/** A real picture: a colour gradient (noise-free, so encoded sizes stay small and predictable). */
export async function testPicture(format: 'jpeg' | 'png', width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1)
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 3;
      pixels[at] = (x * 255) / width;
      pixels[at + 1] = (y * 255) / height;
      pixels[at + 2] = 128;
    }
  const image = sharp(pixels, { raw: { width, height, channels: 3 } });
  return format === 'jpeg' ? image.jpeg().toBuffer() : image.png().toBuffer();
}

/**
 * Sends bytes as a browser sends a file with `fetch(url, { method: 'PUT', body: file })`: the test
 * browser's cookies and Origin, the declared type, and either a Content-Length or (`chunked`) a
 * body streamed without one.
 */
export async function putBytes(
  browser: TestBrowser,
  path: string,
  bytes: Uint8Array,
  options: { contentType?: string; chunked?: boolean; headers?: Record<string, string>; method?: 'PUT' | 'POST' } = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    origin: browser.origin,
    'content-type': options.contentType ?? 'application/octet-stream',
    ...options.headers,
  };
  const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  if (cookie) headers.cookie = cookie;
  const body = options.chunked
    ? new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.subarray(at, at + 64 * 1024));
          controller.close();
        },
      })
    : bytes;
  return fetch(new URL(path, browser.origin), {
    method: options.method ?? 'PUT',
    headers,
    body,
    redirect: 'manual',
    ...(options.chunked ? { duplex: 'half' } : {}),
  });
}
