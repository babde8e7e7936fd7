import {
  designHistoryEntryKindLabels,
  designHistorySectionLabels,
  designHistorySections,
  signatureMeaningLabels,
  type DesignHistoryItem,
  type ResultSnapshot,
  type Signature,
} from '@insilico/contracts';
import type { StoredRow } from '../events/chain';
import { pdfText, startPdfReport } from '../reports/pdf';
import { keepPages, pageFooters, pdfTable } from '../reports/pdf-layout';
import { measurementSnapshotSummary } from './design-history-measurements';

/**
 * Everything the design history file shows, gathered by DesignHistoryService when it is exported (the record as it
 * stood then), structured-cloneable for the CPU pool.
 */
export interface DesignHistoryReportInput {
  generatedAt: string;
  generatedBy: string;
  workspace: string;
  /** The one project's name; null: every project the exporter may see. */
  project: string | null;
  /** The timeline, oldest first. */
  items: DesignHistoryItem[];
  /** The audit trail's rows of the items, in chain order (each with its place in the chain and its hash). */
  audit: StoredRow[];
  /**
   * Results kept when evidence entered the history (issue 20 item 7): those the items name, and the measurement
   * orders on the projects' cohorts (not project events, so summarised in a section of their own).
   */
  resultSnapshots: ResultSnapshot[];
}

/** A time as the product shows a signature's: the UTC day and second, `28.11.2026 07:04:05 UTC`. */
export function utcTime(iso: string): string {
  return `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)} ${iso.slice(11, 19)} UTC`;
}

/** §11.50: the printed name of the signer, the date and time, and the meaning, as one line. */
export function signatureText(signature: Signature): string {
  return (
    `${signatureMeaningLabels[signature.meaning]} by ${signature.signer.name} on ${utcTime(signature.signedAt)} ` +
    `(meaning: ${signature.meaning}; SHA-256 of the signed content ${signature.contentHash})` +
    (signature.valid ? '' : ' - THE RECORD NO LONGER MATCHES WHAT WAS SIGNED')
  );
}

/** The title of an item: an entry's own title, an event's summary. */
export const itemTitle = (item: DesignHistoryItem) => item.entry?.title ?? item.summary;

/** The recorded state of an event, compact, cut at `max` characters (the evidence ZIP holds it whole). */
function snapshotText(snapshot: unknown, max = 600): string {
  const text = JSON.stringify(snapshot);
  return text.length > max ? `${text.slice(0, max)} … (${text.length} characters; whole in the evidence ZIP)` : text;
}

/**
 * The design history file as PDF bytes (issue 20 item 6, ISO 13485 §7.3.10): the four sections with every item, its
 * entry, reason, trace links, change impact and signatures; the trace matrix; the signatures with their meanings and
 * content hashes; the audit trail's rows of the items with their hashes; "Page n of m" on every page. The document's
 * dates are the export's, so the same input gives the same bytes.
 */
export async function renderDesignHistoryReport(input: DesignHistoryReportInput): Promise<Uint8Array> {
  const scope = input.project ?? `all projects of ${input.workspace}`;
  const { doc, heading, line, finish } = startPdfReport({
    title: `Design history file: ${scope}`,
    author: input.generatedBy,
    subject: 'Design and development file (ISO 13485 7.3.10)',
    date: input.generatedAt,
  });
  keepPages(doc);
  const items = input.items;
  const signatures = items.flatMap((item) => item.signatures.map((signature) => ({ item, signature })));

  doc.font('Helvetica-Bold').fontSize(18).text(pdfText('Design history file'));
  doc
    .font('Helvetica')
    .fontSize(12)
    .text(pdfText(input.project ? `Project ${input.project}` : scope));
  doc
    .fontSize(9)
    .fillColor('#555555')
    .text(
      pdfText(
        `Workspace ${input.workspace}. Exported ${utcTime(input.generatedAt)} by ${input.generatedBy}. The design ` +
          'and development file (ISO 13485 §7.3.10) as the audit trail records it: design inputs, outputs, ' +
          'verification and validation evidence (each an immutable snapshot of what was recorded), reviews and ' +
          'approvals. Electronic signatures (21 CFR Part 11 §11.50) show the signer’s printed name, the date and ' +
          'time (UTC) and the meaning.',
      ),
    )
    .fillColor('black');

  heading('Summary');
  for (const section of designHistorySections)
    line(designHistorySectionLabels[section], String(items.filter((item) => item.section === section).length));
  line('Entries', String(items.filter((item) => item.entry).length));
  line('Signatures', String(signatures.length));
  line('Evidence to be re-run', String(items.filter((item) => item.toBeRerun).length));
  if (items.length > 0) line('Period', `${utcTime(items[0]!.occurredAt)} to ${utcTime(items.at(-1)!.occurredAt)}`);

  for (const section of designHistorySections) {
    heading(designHistorySectionLabels[section]);
    const inSection = items.filter((item) => item.section === section);
    if (inSection.length === 0) doc.text('Nothing recorded.');
    for (const item of inSection) itemBlock(doc, item);
  }

  measurementSection(doc, heading, input.resultSnapshots);

  heading('Trace matrix');
  const entries = items.filter((item) => item.entry);
  if (entries.length === 0) doc.text('No entries yet: trace links are made by entries citing evidence.');
  else
    pdfTable(
      doc,
      [
        { header: 'Entry', width: 160 },
        { header: 'Section', width: 80 },
        { header: 'Evidence cited', width: 155 },
        { header: 'Signed', width: 100 },
      ],
      entries.map((item) => [
        `#${item.id} ${designHistoryEntryKindLabels[item.entry!.kind]}: ${item.entry!.title}` +
          (item.entry!.supersededById ? ' (superseded)' : ''),
        designHistorySectionLabels[item.section],
        item.evidence.length ? item.evidence.map((cited) => `#${cited.id} ${cited.summary}`).join('\n') : 'none',
        item.signatures.length
          ? item.signatures.map((s) => `${signatureMeaningLabels[s.meaning]} by ${s.signer.name}`).join('\n')
          : 'not signed',
      ]),
    );
  const rerun = items.filter((item) => item.toBeRerun);
  doc.font('Helvetica-Bold').text('Change impact').font('Helvetica');
  if (rerun.length === 0) doc.text('No evidence waits to be re-run on a newer device version.');
  for (const item of rerun)
    doc.text(pdfText(`#${item.id} ${itemTitle(item)}: to be re-run on ${item.toBeRerun!.versionName}`));

  heading('Electronic signatures');
  if (signatures.length === 0) doc.text('Nothing in this file is signed.');
  for (const { item, signature } of signatures)
    doc.text(pdfText(`#${item.id} ${itemTitle(item)}: ${signatureText(signature)}`)).moveDown(0.3);

  heading('Audit trail excerpt');
  doc
    .fontSize(9)
    .text(
      pdfText(
        `The audit trail's rows of the ${input.audit.length} events above, with their place in the hash chain and ` +
          'their SHA-256. The evidence ZIP holds the whole rows (audit-excerpt.json) and the rule by which each ' +
          'hash is recomputed; the trail’s verifier checks the whole chain.',
      ),
    )
    .fontSize(10)
    .moveDown(0.3);
  pdfTable(
    doc,
    [
      { header: 'Row', width: 30 },
      { header: 'Event', width: 35 },
      { header: 'Time (UTC)', width: 95 },
      { header: 'Action', width: 115 },
      { header: 'SHA-256', width: 220, font: 'Courier', fontSize: 5.5 },
    ],
    input.audit.map((row) => [
      String(row.seq),
      `#${row.id}`,
      utcTime(row.occurredAt).replace(' UTC', ''),
      row.action,
      row.hash,
    ]),
  );

  pageFooters(
    doc,
    (page, pages) =>
      `Design history file: ${scope} · exported ${utcTime(input.generatedAt)} · page ${page} of ${pages}`,
  );
  return finish();
}

const figure = (value: number | null) => (value === null ? '-' : Number(value.toFixed(2)).toString());

/**
 * The measurement orders' kept results (issue 20 item 7): each revision (ready, then after each hand correction) with
 * its time, code version and SHA-256, and per measurement the patients measured, failed and corrected and the used
 * values' mean, minimum and maximum. The values per patient are in the evidence ZIP (results/).
 */
function measurementSection(
  doc: PDFKit.PDFDocument,
  heading: (text: string) => void,
  snapshots: readonly ResultSnapshot[],
): void {
  const kept = snapshots.filter((snapshot) => snapshot.objectType === 'measurement');
  heading('Measurement results kept');
  if (kept.length === 0) {
    doc.text('No measurement results are kept for the cohorts of these projects.');
    return;
  }
  doc
    .fontSize(9)
    .text(
      pdfText(
        'The measurements of the cohorts of these projects as kept when each order was ready and after each hand ' +
          'correction (a new revision). Each snapshot is bound by its SHA-256; the values per patient are in the ' +
          'evidence ZIP (results/).',
      ),
    )
    .fontSize(10)
    .moveDown(0.3);
  for (const snapshot of kept) {
    const summary = measurementSnapshotSummary(snapshot);
    if (doc.y > 680) doc.addPage();
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .text(
        pdfText(
          `${summary ? `Cohort ${summary.cohortName}` : 'Measurements'}: order ${snapshot.objectId}, revision ` +
            `${snapshot.revision}`,
        ),
      );
    muted(
      doc,
      `Kept ${utcTime(snapshot.takenAt)} · code ${snapshot.codeVersion} · SHA-256 ${snapshot.contentHash}` +
        (summary ? ` · ${summary.patients} patients` : ''),
    );
    if (!summary) {
      doc.fontSize(9).text('Results of another form: see the evidence ZIP.').fontSize(10).moveDown(0.5);
      continue;
    }
    pdfTable(
      doc,
      [
        { header: 'Measurement', width: 120 },
        { header: 'Phase', width: 65 },
        { header: 'Unit', width: 30 },
        { header: 'Measured', width: 45 },
        { header: 'Failed', width: 35 },
        { header: 'Corrected', width: 45 },
        { header: 'Mean', width: 55 },
        { header: 'Min', width: 50 },
        { header: 'Max', width: 50 },
      ],
      summary.rows.map((row) => [
        `${row.name} (v${row.version})`,
        row.phase,
        row.unit,
        String(row.measured),
        String(row.failed),
        String(row.corrected),
        figure(row.mean),
        figure(row.min),
        figure(row.max),
      ]),
    );
    doc.moveDown(0.5);
  }
}

/** The results kept with an item (issue 20 item 7): when, of which revision, by which code, and their SHA-256. */
export function resultsSnapshotText(snapshot: NonNullable<DesignHistoryItem['resultsSnapshot']>): string {
  return (
    `Results kept as a snapshot on ${utcTime(snapshot.takenAt)} (revision ${snapshot.revision}, code ` +
    `${snapshot.codeVersion}; SHA-256 of the results ${snapshot.sha256})`
  );
}

/** One item of a section: title, who and when, the entry's text, reason, trace links, change impact, signatures. */
function itemBlock(doc: PDFKit.PDFDocument, item: DesignHistoryItem): void {
  if (doc.y > 720) doc.addPage();
  doc
    .font('Helvetica-Bold')
    .fontSize(10)
    .text(pdfText(`#${item.id} ${itemTitle(item)}`));
  muted(
    doc,
    [
      utcTime(item.occurredAt),
      item.actor?.name ?? 'The system',
      `project ${item.project.name}`,
      item.entry ? designHistoryEntryKindLabels[item.entry.kind] : item.action,
    ].join(' · '),
  );
  doc.fontSize(9);
  if (item.entry?.body) doc.text(pdfText(item.entry.body));
  if (item.entry?.supersedesId) doc.text('Supersedes an earlier entry.');
  if (item.entry?.supersededById) doc.text('Superseded by a later entry.');
  if (item.reason) doc.text(pdfText(`Reason: ${item.reason}`));
  for (const cited of item.evidence) doc.text(pdfText(`Evidence: #${cited.id} ${cited.summary}`));
  for (const file of item.entry?.attachments ?? [])
    doc.text(pdfText(`Attachment: ${file.fileName} (${file.bytes} bytes, SHA-256 ${file.sha256})`));
  if (item.toBeRerun) doc.text(pdfText(`To be re-run on ${item.toBeRerun.versionName}`));
  if (item.resultsSnapshot) doc.text(pdfText(resultsSnapshotText(item.resultsSnapshot)));
  if (!item.entry && item.snapshot !== null)
    doc
      .font('Courier')
      .fontSize(7)
      .text(pdfText(`Recorded state: ${snapshotText(item.snapshot)}`))
      .font('Helvetica')
      .fontSize(9);
  for (const signature of item.signatures) doc.font('Helvetica-Bold').text(pdfText(signatureText(signature)));
  doc.font('Helvetica').fontSize(10).moveDown(0.5);
}

/** A line of small grey text (8 pt). */
function muted(doc: PDFKit.PDFDocument, text: string): void {
  doc.font('Helvetica').fontSize(8).fillColor('#555555').text(pdfText(text)).fillColor('black');
}
