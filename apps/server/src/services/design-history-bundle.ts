import type { DesignHistoryFileFormat } from '@insilico/contracts';
import { streamedOutput } from '../lib/streamed-output';
import { writeHashedBundle, type BundleContent } from './audit-bundle';
import { auditCsv, auditHashingRule } from './audit-rows';
import { renderDesignHistoryReport, type DesignHistoryReportInput } from './design-history-report';

/** A signature as kept: the manifest it signs, whose canonical JSON's SHA-256 is its content hash. */
export interface SignatureRecord {
  id: string;
  recordType: string;
  recordId: string;
  meaning: string;
  signerId: string;
  signerName: string;
  signedAt: string;
  contentHash: string;
  manifest: unknown;
}

/** What an export of the design history file needs: the report's input, the scope's ids and the kept signatures. */
export interface DesignHistoryFileInput extends DesignHistoryReportInput {
  format: DesignHistoryFileFormat;
  deviceId: string;
  projectId: string | null;
  signatures: SignatureRecord[];
  /** The files attached to the entries (an evidence ZIP carries them, streamed from storage). */
  attachments: AttachmentFile[];
}

/** A file attached to an entry, as the entry records it. */
export interface AttachmentFile {
  entryId: string;
  id: string;
  fileName: string;
  sha256: string;
  bytes: number;
}

/** An attached file in storage: read as a stream when the ZIP takes it in (up to a gigabyte, never whole). */
export interface StoredAttachment extends AttachmentFile {
  open(): Promise<AsyncIterable<Uint8Array>>;
}

const resultsRule =
  'contentHash = SHA-256 (hex, UTF-8) of the canonical JSON (object keys sorted, no spaces) of content: the results ' +
  'as computed when the evidence entered the design history; the event names this hash (after.results.sha256), so a ' +
  'signature of the event binds the results.';

const signatureRule =
  'contentHash = SHA-256 (hex, UTF-8) of the canonical JSON (object keys sorted, no spaces) of manifest: the record ' +
  '(type and id) and its content as signed (21 CFR Part 11 §11.70).';

const readme = (manifest: { exportedAt: string; scope: string; items: number; signatures: number }) =>
  [
    `Design history file of ${manifest.scope}, exported ${manifest.exportedAt} (ISO 13485 §7.3.10).`,
    '',
    'design-history.pdf is the file as people read and sign it off; design-history.json holds the same items.',
    'evidence/ has one file per piece of evidence the file records or an entry cites: the event as the audit',
    'trail recorded it (an immutable snapshot of its settings and results) with its row of the trail.',
    'results/ has the results kept when evidence entered the file (an analysis saved, a simulation or trial finished,',
    'a measurement order ready or corrected, a shape model built: a snapshot with its SHA-256 and code version),',
    'named by the events that record it: later changes of code or data do not change them.',
    'attachments/ has the files attached to entries, one folder per entry; each file’s SHA-256 is the one the entry',
    'lists (and a signature of the entry binds).',
    'signatures.json has every signature with the manifest it signs; its SHA-256 is the signature’s content hash.',
    'audit-excerpt.csv and audit-excerpt.json are the audit trail’s rows of the items, with prev_hash and hash.',
    'manifest.json lists every file with its size and SHA-256; SHA256SUMS has the same hashes for',
    '`sha256sum -c SHA256SUMS`. The SHA-256 of this ZIP itself is recorded in the audit trail',
    '(design_history.exported).',
    '',
    `${manifest.items} items, ${manifest.signatures} signatures.`,
    '',
  ].join('\n');

/** A file name's part from free text: letters, digits and dashes. */
const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60) || 'file';

/** An attached file's name in the ZIP: its entry's folder, the attachment's id (names may repeat), its own name. */
export function attachmentZipName(file: Pick<AttachmentFile, 'entryId' | 'id' | 'fileName'>): string {
  const dot = file.fileName.lastIndexOf('.');
  const extension =
    dot > 0
      ? file.fileName
          .slice(dot + 1)
          .replace(/[^A-Za-z0-9]/g, '')
          .slice(0, 10)
      : '';
  const stem = slug(dot > 0 ? file.fileName.slice(0, dot) : file.fileName);
  return `attachments/${file.entryId}/${file.id}-${stem}${extension ? `.${extension}` : ''}`;
}

/** What `manifest.json` of the evidence ZIP says besides its files. */
type BundleFields = {
  exportedAt: string;
  deviceId: string;
  projectId: string | null;
  scope: string;
  items: number;
  evidence: number;
  signatures: number;
  resultSnapshots: number;
  attachments: number;
  auditRows: number;
};

/**
 * The design history file as the CPU-pool thread makes it: the PDF and, for the evidence ZIP, every file of it but
 * the attached ones (which are streamed from storage into the ZIP as it is written: `designHistoryFileStream`).
 */
export interface DesignHistoryParts {
  pdf: Uint8Array;
  bundle: { contents: [string, Uint8Array][]; fields: BundleFields } | null;
}

/**
 * The evidence ZIP's own files (issue 20 item 6): the PDF, the items as JSON, one file per piece of evidence (the
 * events of the evidence section and every event an entry cites, each with its audit row), the signatures with
 * their manifests and the audit excerpt; the attached files follow them (`designHistoryFileStream`).
 */
function designHistoryBundleContents(input: DesignHistoryFileInput, pdf: Uint8Array): DesignHistoryParts['bundle'] {
  const encoder = new TextEncoder();
  const json = (value: unknown) => encoder.encode(`${JSON.stringify(value, null, 2)}\n`);
  const rowOf = new Map(input.audit.map((row) => [row.id, row]));
  const cited = new Set(input.items.flatMap((item) => item.evidence.map((evidence) => evidence.id)));
  const evidence = input.items.filter((item) => !item.entry && (item.section === 'evidence' || cited.has(item.id)));
  const scope = input.project ? `project ${input.project}` : `all projects of ${input.workspace}`;
  const contents: [string, Uint8Array][] = [
    ['design-history.pdf', pdf],
    [
      'design-history.json',
      json({
        exportedAt: input.generatedAt,
        exportedBy: input.generatedBy,
        workspace: input.workspace,
        project: input.project,
        items: input.items,
      }),
    ],
    ...evidence.map((item): [string, Uint8Array] => [
      `evidence/${item.id}-${slug(item.action)}.json`,
      json({ summary: item.summary, link: item.link, item, auditRow: rowOf.get(item.id) ?? null }),
    ]),
    ...input.resultSnapshots.map((snapshot): [string, Uint8Array] => [
      `results/${snapshot.id}.json`,
      json({ rule: resultsRule, ...snapshot }),
    ]),
    ['signatures.json', json({ rule: signatureRule, signatures: input.signatures })],
    ['audit-excerpt.csv', encoder.encode(auditCsv(input.audit))],
    ['audit-excerpt.json', json({ hashing: auditHashingRule, rows: input.audit })],
  ];
  return {
    contents,
    fields: {
      exportedAt: input.generatedAt,
      deviceId: input.deviceId,
      projectId: input.projectId,
      scope,
      items: input.items.length,
      evidence: evidence.length,
      signatures: input.signatures.length,
      resultSnapshots: input.resultSnapshots.length,
      attachments: input.attachments.length,
      auditRows: input.audit.length,
    },
  };
}

/** The PDF and the evidence ZIP's own files (CPU-pool work: laying out hundreds of items, serialising them). */
export async function designHistoryParts(input: DesignHistoryFileInput): Promise<DesignHistoryParts> {
  const pdf = await renderDesignHistoryReport(input);
  return { pdf, bundle: input.format === 'pdf' ? null : designHistoryBundleContents(input, pdf) };
}

/**
 * The file's bytes as its consumer (storage, a response) takes them: the PDF, or the evidence ZIP written while it
 * is taken, with each attached file streamed from storage, hashed on the way and refused (the stream fails) when
 * its bytes no longer give the SHA-256 the entry lists; the manifest and `SHA256SUMS` list it with that hash.
 * Nothing here holds an attached file, or the ZIP, whole.
 */
export function designHistoryFileStream(
  parts: DesignHistoryParts,
  attachments: readonly StoredAttachment[],
): AsyncIterable<Uint8Array> {
  const { bundle } = parts;
  if (!bundle)
    return (async function* pdf() {
      yield parts.pdf;
    })();
  const attached = attachments.map((file): BundleContent => [
    attachmentZipName(file),
    {
      bytes: file.bytes,
      sha256: file.sha256,
      open: () => file.open(),
      mismatch: `The stored file of attachment ${file.id} does not give its SHA-256 any more.`,
    },
  ]);
  return streamedOutput((output) =>
    writeHashedBundle(
      {
        exportedAt: new Date(bundle.fields.exportedAt),
        contents: [...bundle.contents, ...attached],
        fields: bundle.fields,
        readme,
      },
      output,
    ),
  );
}

/** The file's name: `design-history-<project or workspace>-<UTC day>.<format>`. */
export function designHistoryFileName(
  input: Pick<DesignHistoryFileInput, 'format' | 'project' | 'workspace' | 'generatedAt'>,
) {
  return `design-history-${slug(input.project ?? input.workspace)}-${input.generatedAt.slice(0, 10)}.${input.format}`;
}
