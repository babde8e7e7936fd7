import { createHash } from 'node:crypto';
import { Uint8ArrayReader, Uint8ArrayWriter, ZipWriter } from '@zip.js/zip.js';
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
 * A ZIP of files with `manifest.json` (the given fields and each file's name, size and SHA-256), `SHA256SUMS` (the
 * same hashes for `sha256sum -c SHA256SUMS`) and a README written from the manifest: the hashes let whoever receives
 * it show that the files are the ones exported. The audit trail's bundle and the design history's evidence are made
 * with it.
 */
export async function hashedBundle<Fields extends object>(input: {
  exportedAt: Date;
  contents: readonly [string, Uint8Array][];
  fields: Fields;
  readme: (manifest: Fields & { files: BundleFile[] }) => string;
}): Promise<{ zip: Uint8Array; manifest: Fields & { files: BundleFile[] } }> {
  const encoder = new TextEncoder();
  const manifest = {
    ...input.fields,
    files: input.contents.map(([name, bytes]) => ({ name, bytes: bytes.length, sha256: sha256(bytes) })),
  };
  const sums = manifest.files.map((file) => `${file.sha256}  ${file.name}\n`).join('');
  const files: [string, Uint8Array][] = [
    ...input.contents,
    ['manifest.json', encoder.encode(`${JSON.stringify(manifest, null, 2)}\n`)],
    ['SHA256SUMS', encoder.encode(sums)],
    ['README.txt', encoder.encode(input.readme(manifest))],
  ];
  const writer = new ZipWriter(new Uint8ArrayWriter());
  for (const [name, bytes] of files)
    await writer.add(name, new Uint8ArrayReader(bytes), { lastModDate: input.exportedAt });
  return { zip: await writer.close(), manifest };
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
