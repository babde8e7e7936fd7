import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';

const require = createRequire(import.meta.url);
const fontFiles: Record<string, string> = {
  'nunito-400.woff2': require.resolve('@fontsource/nunito/files/nunito-latin-400-normal.woff2'),
  'nunito-700.woff2': require.resolve('@fontsource/nunito/files/nunito-latin-700-normal.woff2'),
};

/** Nunito for the server-rendered pages (issuer, maintenance): bundled, no external font request. */
export function registerFonts(app: FastifyInstance): void {
  app.get('/_fonts/:file', async (request, reply) => {
    const file = fontFiles[(request.params as { file: string }).file];
    if (!file) return reply.code(404).send();
    return reply
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .type('font/woff2')
      .send(await readFile(file));
  });
}
