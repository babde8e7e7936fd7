import PDFDocument from 'pdfkit';

/**
 * The building blocks of the workspace's PDF reports (trial report, population analysis report, …): pdfkit on A4
 * with the standard Helvetica, text the standard fonts can encode, numbers as the reports write them, headings,
 * label–value lines and histograms drawn as bars. Each report module lays out its own sections with these.
 */

/** The standard PDF fonts encode WinAnsi only: the few symbols the product writes, spelled out. */
export function pdfText(text: string): string {
  return text
    .replaceAll('≤', '<=')
    .replaceAll('≥', '>=')
    .replaceAll('√', 'sqrt')
    .replaceAll('→', '->')
    .replaceAll('Δ', 'delta ')
    .replaceAll('−', '-')
    .replace(/[^\u0020-\u007e\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026]/gu, '?');
}

/** A number as reports write it: four significant digits, exponent for the very large and small, `-` for none. */
export function pdfNumber(v: number | null | undefined): string {
  return v === null || v === undefined || !Number.isFinite(v)
    ? '-'
    : Math.abs(v) >= 1000 || (Math.abs(v) < 0.01 && v !== 0)
      ? v.toExponential(3)
      : String(Number(v.toPrecision(4)));
}

/** A fraction 0–1 as a percentage with one decimal. */
export function pdfPercent(f: number): string {
  return `${(100 * f).toFixed(1)} %`;
}

export interface PdfReportInfo {
  title: string;
  author: string;
  subject: string;
  /** The report's date: the document's creation and modification dates, so the same input gives the same bytes. */
  date: string;
}

/** A report being written: the document, its layout helpers, and `finish` for the bytes. */
export interface PdfReport {
  doc: PDFKit.PDFDocument;
  /** A section heading (13 pt bold), on a new page when little room is left; the body text after it is 10 pt. */
  heading(text: string): void;
  /** `Label: value` with the label in bold. */
  line(label: string, value: string): void;
  /** Ends the document and answers its bytes. */
  finish(): Promise<Uint8Array>;
}

/** Starts a report (A4, 50 pt margins). */
export function startPdfReport(info: PdfReportInfo): PdfReport {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: {
      Title: pdfText(info.title),
      Author: pdfText(info.author),
      Subject: info.subject,
      CreationDate: new Date(info.date),
      ModDate: new Date(info.date),
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  return {
    doc,
    heading(text) {
      if (doc.y > 700) doc.addPage();
      doc.moveDown(0.8).font('Helvetica-Bold').fontSize(13).text(pdfText(text)).moveDown(0.3);
      doc.font('Helvetica').fontSize(10);
    },
    line(label, value) {
      doc
        .font('Helvetica-Bold')
        .text(pdfText(`${label}: `), { continued: true })
        .font('Helvetica')
        .text(pdfText(value));
    },
    async finish() {
      doc.end();
      await done;
      return new Uint8Array(Buffer.concat(chunks));
    },
  };
}

/** Counts per bin over `edges` (one more edge than counts). */
export interface PdfHistogram {
  edges: number[];
  counts: number[];
}

/**
 * A histogram as bars below the current text (300 × 60 pt), its range under the axis and, to its right, the
 * tallest bar's count and `notes` one under another; the text goes on below it.
 */
export function drawHistogram(doc: PDFKit.PDFDocument, hist: PdfHistogram, notes: readonly string[] = []): void {
  const x0 = 70;
  const width = 300;
  const height = 60;
  const y0 = doc.y + 6;
  const top = Math.max(...hist.counts);
  const bar = width / hist.counts.length;
  hist.counts.forEach((count, i) => {
    const barHeight = top ? (height * count) / top : 0;
    doc
      .rect(x0 + i * bar + 1, y0 + height - barHeight, bar - 2, barHeight)
      .fillColor('#4a7ab5')
      .fill();
  });
  doc
    .fillColor('black')
    .strokeColor('#333333')
    .moveTo(x0, y0 + height)
    .lineTo(x0 + width, y0 + height)
    .stroke();
  doc.fontSize(8);
  doc.text(pdfNumber(hist.edges[0]), x0 - 10, y0 + height + 2, { lineBreak: false });
  doc.text(pdfNumber(hist.edges[hist.edges.length - 1]), x0 + width - 20, y0 + height + 2, { lineBreak: false });
  doc.text(`${top} patients`, x0 + width + 8, y0, { lineBreak: false });
  notes.forEach((note, i) =>
    doc.text(pdfText(note), x0 + width + 8, y0 + 12 * (i + 1), {
      lineBreak: false,
    }),
  );
  doc.x = 50;
  doc.y = y0 + height + 16;
  doc.fontSize(10).moveDown(0.5);
}
