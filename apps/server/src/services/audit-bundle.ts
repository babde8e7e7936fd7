import { createHash } from 'node:crypto';
import { Uint8ArrayReader, Uint8ArrayWriter, ZipWriter, type Writer } from '@zip.js/zip.js';
import type { AuditVerdict } from '@insilico/contracts';

/** One file of the bundle as its manifest lists it. */
export interface BundleFile {
  name: string;
  bytes: number;
  sha256: string;
}

/** `manifest.json` of the inspector's bundle. */
export interface BundleManifest {
  exportedAt: string;
  deviceId: string | null;
  rows: number;
  /** The chain's head when exported: a later export that ends before it shows a cut tail. */
  headSeq: number;
  headHash: string;
  verdictOk: boolean;
  files: BundleFile[];
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const readme = (manifest: BundleManifest) =>
  [
    'Audit trail export (21 CFR Part 11 §11.10(e)).',
    '',
    'audit-trail.csv and audit-trail.json hold the same rows in chain order with prev_hash and hash;',
    'audit-trail.json also says how each hash is computed and the whole chain’s verdict at export time.',
    'manifest.json lists every file with its size and SHA-256; SHA256SUMS has the same hashes for',
    '`sha256sum -c SHA256SUMS`.',
    '',
    `Exported ${manifest.exportedAt}: ${manifest.rows} rows; chain head seq ${manifest.headSeq}, hash ${manifest.headHash};`,
    `verdict ${manifest.verdictOk ? 'intact' : 'BROKEN (see audit-trail.json)'}.`,
    '',
  ].join('\n');

/**
 * A file of a bundle that is not in memory (a stored file, up to a gigabyte): its size and SHA-256 as recorded, and
 * a way to read it. The bundle streams it in and checks both while it passes.
 */
export interface StreamedContent {
  bytes: number;
  sha256: string;
  open(): Promise<AsyncIterable<Uint8Array>>;
  /** The refusal when the bytes read are not the recorded ones (storage must not change what was recorded). */
  mismatch: string;
}

/** One file of a bundle: its bytes, or a stored file streamed in. */
export type BundleContent = readonly [string, Uint8Array | StreamedContent];

/**
 * A stored file as a stream the ZIP writer pulls (one chunk at a time: nothing is read ahead of the writer), hashed
 * on the way; the stream fails at its end when the size or the SHA-256 is not the recorded one.
 */
function checkedStream(content: StreamedContent): ReadableStream<Uint8Array> {
  const hash = createHash('sha256');
  let bytes = 0;
  let chunks: AsyncIterator<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        chunks ??= (await content.open())[Symbol.asyncIterator]();
        const next = await chunks.next();
        if (!next.done) {
          hash.update(next.value);
          bytes += next.value.byteLength;
          controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
        } else if (bytes !== content.bytes || hash.digest('hex') !== content.sha256) {
          throw new Error(content.mismatch);
        } else controller.close();
      },
      async cancel() {
        await chunks?.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Writes a ZIP of files with `manifest.json` (the given fields and each file's name, size and SHA-256), `SHA256SUMS`
 * (the same hashes for `sha256sum -c SHA256SUMS`) and a README written from the manifest: the hashes let whoever
 * receives it show that the files are the ones exported. The files are written one after the other into `output`;
 * a streamed file is stored as it is (level 0: an attached file is often compressed already, and deflating a
 * gigabyte would be tens of seconds of CPU) and never held whole, so the bundle's memory does not grow with its
 * files; Zip64 where the sizes need it (zip.js). The audit trail's bundle and the design history's evidence are made with it.
 */
export async function writeHashedBundle<Fields extends object>(
  input: {
    exportedAt: Date;
    contents: readonly BundleContent[];
    fields: Fields;
    readme: (manifest: Fields & { files: BundleFile[] }) => string;
  },
  output: WritableStream<Uint8Array> | Writer<unknown>,
): Promise<Fields & { files: BundleFile[] }> {
  const encoder = new TextEncoder();
  const writer = new ZipWriter(output, { useWebWorkers: false });
  const files: BundleFile[] = [];
  const add = (name: string, bytes: Uint8Array) =>
    writer.add(name, new Uint8ArrayReader(bytes), { lastModDate: input.exportedAt });
  for (const [name, content] of input.contents) {
    if (content instanceof Uint8Array) {
      files.push({ name, bytes: content.length, sha256: sha256(content) });
      await add(name, content);
      continue;
    }
    await writer.add(name, checkedStream(content), {
      lastModDate: input.exportedAt,
      level: 0,
      uncompressedSize: content.bytes,
    });
    // Only once it has passed the check: the manifest lists the bytes as they were written.
    files.push({ name, bytes: content.bytes, sha256: content.sha256 });
  }
  const manifest = { ...input.fields, files };
  await add('manifest.json', encoder.encode(`${JSON.stringify(manifest, null, 2)}\n`));
  await add('SHA256SUMS', encoder.encode(manifest.files.map((file) => `${file.sha256}  ${file.name}\n`).join('')));
  await add('README.txt', encoder.encode(input.readme(manifest)));
  await writer.close();
  return manifest;
}

/** `writeHashedBundle` into memory, for bundles of files in memory (small ones). */
export async function hashedBundle<Fields extends object>(input: {
  exportedAt: Date;
  contents: readonly [string, Uint8Array][];
  fields: Fields;
  readme: (manifest: Fields & { files: BundleFile[] }) => string;
}): Promise<{ zip: Uint8Array; manifest: Fields & { files: BundleFile[] } }> {
  const output = new Uint8ArrayWriter();
  const manifest = await writeHashedBundle(input, output);
  return { zip: await output.getData(), manifest };
}

/**
 * The inspector's bundle of a workspace's audit trail (issue 20, the export of the record): the CSV and JSON exports
 * plus the manifest and `SHA256SUMS` with each file's SHA-256, and a README, in one ZIP; the chain inside shows that
 * no row was changed.
 */
export async function auditBundle(input: {
  exportedAt: Date;
  deviceId: string | null;
  rows: number;
  verdict: Pick<AuditVerdict, 'ok' | 'headSeq' | 'headHash'>;
  csv: string;
  json: string;
}): Promise<{ zip: Uint8Array; manifest: BundleManifest }> {
  const encoder = new TextEncoder();
  return hashedBundle({
    exportedAt: input.exportedAt,
    contents: [
      ['audit-trail.csv', encoder.encode(input.csv)],
      ['audit-trail.json', encoder.encode(input.json)],
    ],
    fields: {
      exportedAt: input.exportedAt.toISOString(),
      deviceId: input.deviceId,
      rows: input.rows,
      headSeq: input.verdict.headSeq,
      headHash: input.verdict.headHash,
      verdictOk: input.verdict.ok,
    },
    readme,
  });
}
