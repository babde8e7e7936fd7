import { createHash } from 'node:crypto';
import type { DesignHistoryItem } from '@insilico/contracts';
import { describe, expect, it } from 'vitest';
import { unzipFiles } from '../../test/helpers/exported-files';
import { pdfToText } from '../../../../test/helpers/pdf-text';
import { gathered } from '../lib/streamed-output';
import { canonicalJson, genesisHash, hashOf, type StoredRow } from '../events/chain';
import {
  attachmentZipName,
  designHistoryFileStream,
  designHistoryParts,
  type DesignHistoryFileInput,
  type StoredAttachment,
} from './design-history-bundle';
import { renderDesignHistoryReport, signatureText, utcTime } from './design-history-report';

const deviceId = '0b0f4c1e-1111-4a55-9d43-0e7a2b7e1a01';
const projectId = '1c2d3e4f-2222-4a55-9d43-0e7a2b7e1a01';
const ada = { id: '2d3e4f5a-3333-4a55-9d43-0e7a2b7e1a01', name: 'Ada Lovelace' };
const entryId = '6f1c1e9e-5b1e-4a55-9d43-0e7a2b7e1a01';
const manifest = { record: { type: 'entry', id: entryId }, content: { title: 'Sizing review 1', body: '20–29 mm' } };
const contentHash = createHash('sha256').update(canonicalJson(manifest)).digest('hex');
const resultsId = '8b8b8b8b-4444-4a55-9d43-0e7a2b7e1a01';
const resultsContent = { kind: 'population-analysis-results', results: { patients: ['SYN-000001'], p95: 24.5 } };
const resultsHash = createHash('sha256').update(canonicalJson(resultsContent)).digest('hex');

function item(id: number, overrides: Partial<DesignHistoryItem>): DesignHistoryItem {
  return {
    id,
    occurredAt: `2026-11-28T0${id}:00:00.000Z`,
    section: 'evidence',
    action: 'simulation.completed',
    summary: `Event ${id}`,
    actor: ada,
    project: { id: projectId, name: 'TAVI sizing' },
    reason: null,
    link: null,
    snapshot: { before: null, after: { name: `Run ${id}` } },
    entry: null,
    evidence: [],
    toBeRerun: null,
    record: { type: 'event', id: String(id) },
    signatures: [],
    ...overrides,
  };
}

const items: DesignHistoryItem[] = [
  item(1, { section: 'input', action: 'project.created', summary: 'Ada Lovelace created the project TAVI sizing' }),
  item(2, { section: 'output', action: 'project.version_added', summary: 'Ada Lovelace added a device version' }),
  item(3, {
    summary: 'Ada Lovelace started a simulation in the project',
    action: 'simulation.started',
    toBeRerun: { versionId: 'v2', versionName: 'Ring valve v2' },
    resultsSnapshot: {
      id: resultsId,
      sha256: resultsHash,
      takenAt: '2026-11-28T05:00:00.000Z',
      codeVersion: '1.2.3',
      revision: 2,
    },
  }),
  item(4, {
    section: 'review',
    action: 'design_history.entry_added',
    summary: 'Sizing review 1',
    entry: {
      id: entryId,
      kind: 'review',
      title: 'Sizing review 1',
      body: 'The sizing range 20–29 mm is confirmed by the bench tests.',
      evidenceEventIds: [3],
      supersedesId: null,
      supersededById: null,
      attachments: [],
    },
    evidence: [{ id: 3, summary: 'Ada Lovelace started a simulation in the project', link: null }],
    record: { type: 'entry', id: entryId },
    signatures: [
      {
        id: '7a7a7a7a-4444-4a55-9d43-0e7a2b7e1a01',
        meaning: 'approval',
        signer: ada,
        signedAt: '2026-11-28T05:06:07.000Z',
        contentHash,
        valid: true,
      },
    ],
  }),
];

/** The trail's rows of the items, chained as the chainer links them. */
function chainOf(list: readonly DesignHistoryItem[]): StoredRow[] {
  let prevHash = genesisHash;
  return list.map((it, i) => {
    const content = {
      seq: i + 1,
      id: it.id,
      occurredAt: it.occurredAt.replace('Z', '000Z'),
      actorId: ada.id,
      actorName: ada.name,
      action: it.action,
      objectType: 'project',
      objectId: projectId,
      deviceId,
      projectId,
      before: null,
      after: null,
      reason: null,
      requestId: `r${it.id}`,
      prevHash,
    };
    prevHash = hashOf(content);
    return { ...content, hash: prevHash };
  });
}

/** A measurement order's kept results after one hand correction (revision 2): three patients, two measurements. */
const measurementSnapshot = {
  id: 'c2c2c2c2-5555-4a55-9d43-0e7a2b7e1a02',
  objectType: 'measurement' as const,
  objectId: 'd3d3d3d3-6666-4a55-9d43-0e7a2b7e1a03',
  projectId: null,
  revision: 2,
  codeVersion: '1.2.3',
  takenAt: '2026-11-28T04:00:00.000Z',
  contentHash: 'e'.repeat(64),
  content: {
    kind: 'measurement-results',
    order: {
      id: 'd3d3d3d3-6666-4a55-9d43-0e7a2b7e1a03',
      cohortId: 'c-1',
      cohortName: 'Elderly TAVI cohort',
      measurements: [
        { definitionId: 'd-1', version: 2, name: 'Annulus perimeter', unit: 'mm', phase: 'end-diastole' },
        { definitionId: 'd-2', version: 1, name: 'Annulus area', unit: 'mm²', phase: 'end-systole' },
      ],
    },
    patients: [
      {
        patientId: 'SYN-000001',
        cells: [
          { automatic: 70, corrected: null, failure: null, value: 70 },
          { automatic: 400.25, corrected: null, failure: null, value: 400.25 },
        ],
        correction: null,
      },
      {
        patientId: 'SYN-000002',
        cells: [
          { automatic: 90, corrected: 74, failure: null, value: 74 },
          { automatic: null, corrected: null, failure: 'No annulus found.', value: null },
        ],
        correction: { landmarks: ['aortic_annulus'], by: null, at: '2026-11-28T03:00:00.000Z' },
      },
      {
        patientId: 'SYN-000003',
        cells: [
          { automatic: 78, corrected: null, failure: null, value: 78 },
          { automatic: 500.75, corrected: null, failure: null, value: 500.75 },
        ],
        correction: null,
      },
    ],
  },
};

const input = (format: 'pdf' | 'zip'): DesignHistoryFileInput => ({
  attachments: [],
  resultSnapshots: [
    {
      id: resultsId,
      objectType: 'analysis',
      objectId: 'b1b1b1b1-4444-4a55-9d43-0e7a2b7e1a01',
      projectId: null,
      revision: 2,
      codeVersion: '1.2.3',
      takenAt: '2026-11-28T05:00:00.000Z',
      contentHash: resultsHash,
      content: resultsContent,
    },
    measurementSnapshot,
  ],
  format,
  generatedAt: '2026-11-28T06:00:00.000Z',
  generatedBy: 'Ada Lovelace',
  workspace: 'Valve D',
  deviceId,
  projectId,
  project: 'TAVI sizing',
  items,
  audit: chainOf(items),
  signatures: [
    {
      id: '7a7a7a7a-4444-4a55-9d43-0e7a2b7e1a01',
      recordType: 'entry',
      recordId: entryId,
      meaning: 'approval',
      signerId: ada.id,
      signerName: ada.name,
      signedAt: '2026-11-28T05:06:07.000Z',
      contentHash,
      manifest,
    },
  ],
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('the design history file as PDF', () => {
  it('renders the same bytes for the same input', async () => {
    const a = await renderDesignHistoryReport(input('pdf'));
    const b = await renderDesignHistoryReport(input('pdf'));
    expect(Buffer.from(a.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('writes a signature as its meaning, printed name and UTC time, bound to its content hash', () => {
    expect(utcTime('2026-11-28T05:06:07.000Z')).toBe('28.11.2026 05:06:07 UTC');
    expect(signatureText(items[3]!.signatures[0]!)).toBe(
      `Approved by Ada Lovelace on 28.11.2026 05:06:07 UTC (meaning: approval; SHA-256 of the signed content ${contentHash})`,
    );
    expect(signatureText({ ...items[3]!.signatures[0]!, valid: false })).toMatch(/NO LONGER MATCHES WHAT WAS SIGNED$/);
  });

  it('reads back (pdftotext) with its sections, trace matrix, signature, change impact and audit hashes', async () => {
    const text = pdfToText(await renderDesignHistoryReport(input('pdf')));
    const flat = text.replace(/\s+/g, ' ');
    for (const heading of [
      'Design history file',
      'Project TAVI sizing',
      'Design inputs',
      'Design outputs',
      'Verification and validation evidence',
      'Reviews and approvals',
      'Trace matrix',
      'Electronic signatures',
      'Audit trail excerpt',
    ])
      expect(flat).toContain(heading);
    expect(flat).toContain('#1 Ada Lovelace created the project TAVI sizing');
    expect(flat).toContain('The sizing range 20–29 mm is confirmed by the bench tests.');
    // The trace matrix's row of the entry names the evidence it cites and who signed it.
    expect(
      text.split('\n').some((line) => line.includes('#4 Design review: Sizing') && line.includes('#3 Ada Lovelace')),
    ).toBe(true);
    expect(flat).toContain('Approved by Ada Lovelace on 28.11.2026 05:06:07 UTC (meaning: approval;');
    expect(flat).toContain('#3 Ada Lovelace started a simulation in the project: to be re-run on Ring valve v2');
    // Every audit row with its hash, whole, on its line of the excerpt.
    for (const row of chainOf(items))
      expect(text.split('\n').some((line) => line.includes(`#${row.id}`) && line.includes(row.hash))).toBe(true);
    expect(flat).toContain(contentHash);
    expect(flat).toContain(`Results kept as a snapshot on 28.11.2026 05:00:00 UTC (revision 2, code 1.2.3;`);
    expect(flat).toContain(resultsHash);
    expect(flat).toMatch(/page 1 of (\d+)/);
  });

  it('summarises the kept measurement results: per measurement, patients measured, failed, corrected, the values', async () => {
    const flat = pdfToText(await renderDesignHistoryReport(input('pdf'))).replace(/\s+/g, ' ');
    expect(flat).toContain('Measurement results kept');
    expect(flat).toContain('Cohort Elderly TAVI cohort: order d3d3d3d3-6666-4a55-9d43-0e7a2b7e1a03, revision 2');
    expect(flat).toContain(`Kept 28.11.2026 04:00:00 UTC · code 1.2.3 · SHA-256 ${'e'.repeat(64)} · 3 patients`);
    // Means by hand: (70 + 74 + 78) / 3 = 74 (the corrected 74, not the automatic 90); (400.25 + 500.75) / 2 = 450.5.
    expect(flat).toContain('Annulus perimeter (v2) end-diastole mm 3 0 1 74 70 78');
    expect(flat).toContain('Annulus area (v1) end-systole mm² 2 1 0 450.5 400.25 500.75');
  });
});

/** The file as the export stores it, gathered (small files only). */
async function renderDesignHistoryFile(file: DesignHistoryFileInput, attachments: StoredAttachment[] = []) {
  const bytes = await gathered(designHistoryFileStream(await designHistoryParts(file), attachments));
  return { bytes, sha256: sha256(bytes) };
}

/** An attached file whose stored bytes come in pieces, as storage streams them. */
function storedAttachment(bytes: Uint8Array, recordedHash = sha256(bytes)): StoredAttachment {
  return {
    entryId,
    id: '7a7a7a7a-5555-4a55-9d43-0e7a2b7e1a01',
    fileName: 'Bench report (final).pdf',
    sha256: recordedHash,
    bytes: bytes.length,
    open: () =>
      Promise.resolve(
        (async function* pieces() {
          for (let at = 0; at < bytes.length; at += 1000) yield bytes.subarray(at, at + 1000);
        })(),
      ),
  };
}

describe('the evidence ZIP', () => {
  it('streams each attached file in under its entry, listed with the SHA-256 the entry records', async () => {
    const content = new Uint8Array(10_000).map((_, i) => (i * 7919) % 251);
    const attachment = storedAttachment(content);
    const withFile = { ...input('zip'), attachments: [attachment] };
    const files = await unzipFiles((await renderDesignHistoryFile(withFile, [attachment])).bytes);
    const name = attachmentZipName(attachment);
    expect(name).toBe(`attachments/${entryId}/${attachment.id}-bench-report-final.pdf`);
    expect(Buffer.from(files.get(name)!).equals(Buffer.from(content))).toBe(true);
    const manifestFile = JSON.parse(new TextDecoder().decode(files.get('manifest.json'))) as {
      files: { name: string; bytes: number; sha256: string }[];
      attachments: number;
    };
    expect(manifestFile.attachments).toBe(1);
    expect(manifestFile.files).toContainEqual({ name, bytes: content.length, sha256: attachment.sha256 });
    expect(new TextDecoder().decode(files.get('SHA256SUMS'))).toContain(`${attachment.sha256}  ${name}\n`);
  });

  it('is refused when a stored file no longer gives the SHA-256 its entry records', async () => {
    const attachment = storedAttachment(new Uint8Array(5000).fill(1), 'f'.repeat(64));
    await expect(renderDesignHistoryFile({ ...input('zip'), attachments: [attachment] }, [attachment])).rejects.toThrow(
      `The stored file of attachment ${attachment.id} does not give its SHA-256 any more.`,
    );
  });

  it('holds the PDF, the evidence, signatures and audit excerpt, each file under its SHA-256 in the manifest', async () => {
    const { bytes, sha256: hash } = await renderDesignHistoryFile(input('zip'));
    expect(hash).toBe(sha256(bytes));
    const files = await unzipFiles(bytes);
    expect([...files.keys()].sort()).toEqual([
      'README.txt',
      'SHA256SUMS',
      'audit-excerpt.csv',
      'audit-excerpt.json',
      'design-history.json',
      'design-history.pdf',
      // The evidence section's events (the entry cites one of them): not the input, output or review.
      'evidence/3-simulation-started.json',
      'manifest.json',
      `results/${resultsId}.json`,
      `results/${measurementSnapshot.id}.json`,
      'signatures.json',
    ]);
    const manifestFile = JSON.parse(new TextDecoder().decode(files.get('manifest.json'))) as {
      files: { name: string; bytes: number; sha256: string }[];
      items: number;
      signatures: number;
    };
    expect(manifestFile).toMatchObject({ items: 4, signatures: 1 });
    expect(manifestFile.files.map((file) => file.name)).toHaveLength(files.size - 3);
    for (const listed of manifestFile.files) {
      expect(listed.sha256, listed.name).toBe(sha256(files.get(listed.name)!));
      expect(listed.bytes).toBe(files.get(listed.name)!.length);
    }
    expect(new TextDecoder().decode(files.get('SHA256SUMS'))).toContain(
      `${sha256(files.get('design-history.pdf')!)}  design-history.pdf\n`,
    );
    // The PDF inside is the file's PDF.
    expect(
      Buffer.from(files.get('design-history.pdf')!).equals(Buffer.from(await renderDesignHistoryReport(input('pdf')))),
    ).toBe(true);
    // A signature's manifest gives its content hash again; an audit row gives its hash again.
    const signatures = JSON.parse(new TextDecoder().decode(files.get('signatures.json'))) as {
      signatures: { manifest: unknown; contentHash: string }[];
    };
    for (const s of signatures.signatures)
      expect(createHash('sha256').update(canonicalJson(s.manifest)).digest('hex')).toBe(s.contentHash);
    const evidence = JSON.parse(new TextDecoder().decode(files.get('evidence/3-simulation-started.json'))) as {
      item: DesignHistoryItem;
      auditRow: StoredRow;
    };
    expect(evidence.item.snapshot).toEqual({ before: null, after: { name: 'Run 3' } });
    expect(hashOf(evidence.auditRow)).toBe(evidence.auditRow.hash);
    // The kept results give their hash again (issue 20 item 7).
    const results = JSON.parse(new TextDecoder().decode(files.get(`results/${resultsId}.json`))) as {
      content: unknown;
      contentHash: string;
    };
    expect(results.content).toEqual(resultsContent);
    expect(createHash('sha256').update(canonicalJson(results.content)).digest('hex')).toBe(results.contentHash);
  });

  it('is the same PDF alone when the format is pdf', async () => {
    const pdf = await renderDesignHistoryFile(input('pdf'));
    expect(Buffer.from(pdf.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(pdf.sha256).toBe(sha256(pdf.bytes));
  });
});
