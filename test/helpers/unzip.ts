import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';

/**
 * Debian's Info-ZIP `unzip`, a ZIP reader independent of the zip.js that writes the workspace's bundles: `unzip -t`
 * checks every member's CRC-32 and sizes (Zip64 included), `unzip -p` extracts a member, streamed into SHA-256 here
 * so that a large one is never held. `npm test` installs it where missing (tools/test-prerequisites.mjs).
 */
export function unzipTest(zipPath: string): string {
  const out = spawnSync('unzip', ['-t', zipPath], { encoding: 'utf8' });
  if (out.error) throw new Error(`unzip is missing: install unzip (npm test does). ${out.error.message}`);
  if (out.status !== 0) throw new Error(`unzip -t found errors:\n${out.stdout}${out.stderr}`);
  return out.stdout;
}

/** Streams one member as `unzip -p` extracts it into `take`. */
function extract(zipPath: string, member: string, take: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('unzip', ['-p', zipPath, member], { stdio: ['ignore', 'pipe', 'pipe'] });
    let errors = '';
    child.stdout.on('data', take);
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`unzip -p ${member}: ${code} ${errors}`))));
  });
}

/** The SHA-256 of one member as `unzip -p` extracts it. */
export async function unzippedSha256(zipPath: string, member: string): Promise<string> {
  const hash = createHash('sha256');
  await extract(zipPath, member, (chunk) => hash.update(chunk));
  return hash.digest('hex');
}

/** One (small) member's text as `unzip -p` extracts it. */
export async function unzippedText(zipPath: string, member: string): Promise<string> {
  const chunks: Buffer[] = [];
  await extract(zipPath, member, (chunk) => chunks.push(chunk));
  return Buffer.concat(chunks).toString('utf8');
}
