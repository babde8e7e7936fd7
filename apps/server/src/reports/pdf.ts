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
  /** The report's title (18 pt bold) and, under it in small grey type, what it is and when it was made. */
  title(text: string, note: string): void;
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
    title(text, note) {
      doc.font('Helvetica-Bold').fontSize(18).text(pdfText(text));
      doc.font('Helvetica').fontSize(9).fillColor('#555555').text(pdfText(note)).fillColor('black');
    },
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
 * tallest bar's count (of `what`, patients unless told) and `notes` one under another; the text goes on below it.
 */
export function drawHistogram(
  doc: PDFKit.PDFDocument,
  hist: PdfHistogram,
  notes: readonly string[] = [],
  what = 'patients',
): void {
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
  doc.text(`${top} ${what}`, x0 + width + 8, y0, { lineBreak: false });
  notes.forEach((note, i) =>
    doc.text(pdfText(note), x0 + width + 8, y0 + 12 * (i + 1), {
      lineBreak: false,
    }),
  );
  doc.x = 50;
  doc.y = y0 + height + 16;
  doc.fontSize(10).moveDown(0.5);
}

/**
 * A QQ plot (200 × 120 pt) below the current text: the points (x, y), the line y = x from 0 to the largest value,
 * the axes' names and ranges; the text goes on below it.
 */
export function drawQqPlot(
  doc: PDFKit.PDFDocument,
  points: readonly (readonly [number, number])[],
  axes: { x: string; y: string },
): void {
  const x0 = 90;
  const width = 200;
  const height = 120;
  const y0 = doc.y + 6;
  const top = Math.max(1e-9, ...points.flatMap(([x, y]) => [x, y]).filter(Number.isFinite));
  const at = (x: number, y: number): [number, number] => [x0 + (width * x) / top, y0 + height - (height * y) / top];
  doc
    .strokeColor('#333333')
    .moveTo(x0, y0)
    .lineTo(x0, y0 + height)
    .lineTo(x0 + width, y0 + height)
    .stroke();
  doc
    .strokeColor('#999999')
    .moveTo(...at(0, 0))
    .lineTo(...at(top, top))
    .stroke();
  for (const [x, y] of points)
    if (Number.isFinite(x) && Number.isFinite(y))
      doc
        .circle(...at(x, y), 1.6)
        .fillColor('#4a7ab5')
        .fill();
  doc.fillColor('black').fontSize(8);
  doc.text('0', x0 - 10, y0 + height + 2, { lineBreak: false });
  doc.text(pdfNumber(top), x0 + width - 20, y0 + height + 2, { lineBreak: false });
  doc.text(pdfText(axes.x), x0 + width + 8, y0 + height - 8, { lineBreak: false });
  doc.text(pdfText(axes.y), x0 + 6, y0 - 2, { lineBreak: false });
  doc.text(pdfNumber(top), x0 - 40, y0, { lineBreak: false });
  doc.x = 50;
  doc.y = y0 + height + 16;
  doc.fontSize(10).moveDown(0.5);
}

/** The reference a cohort is compared with: its values (a patients' CSV) or, for published statistics, mean and SD. */
export interface PdfReference {
  values: readonly number[] | null;
  mean: number;
  sd: number;
}

/** Equal bins over [min, max] (Sturges' count for `n` values) and each value set's density per bin (1/unit). */
export function overlaidDensities(
  cohort: readonly number[],
  reference: PdfReference,
): { edges: number[]; cohort: number[]; reference: number[] | null } {
  const spread = reference.values ?? [reference.mean - 3 * reference.sd, reference.mean + 3 * reference.sd];
  const all = [...cohort, ...spread].filter(Number.isFinite);
  let min = Math.min(...all);
  let max = Math.max(...all);
  if (!(max > min)) {
    min -= 0.5;
    max += 0.5;
  }
  const bins = Math.max(5, Math.ceil(Math.log2(Math.max(1, cohort.length))) + 1);
  const width = (max - min) / bins;
  const edges = Array.from({ length: bins + 1 }, (_, i) => (i === bins ? max : min + i * width));
  const density = (values: readonly number[]): number[] => {
    const finite = values.filter(Number.isFinite);
    const counts = new Array<number>(bins).fill(0);
    for (const v of finite) counts[Math.min(bins - 1, Math.max(0, Math.floor((v - min) / width)))]!++;
    return counts.map((c) => (finite.length ? c / (finite.length * width) : 0));
  };
  return { edges, cohort: density(cohort), reference: reference.values ? density(reference.values) : null };
}

/** The normal density of mean `mean` and SD `sd` at x. */
const normalDensity = (x: number, mean: number, sd: number): number =>
  Math.exp(-0.5 * ((x - mean) / sd) ** 2) / (sd * Math.sqrt(2 * Math.PI));

/**
 * A cohort's distribution overlaid with a reference population's (300 × 60 pt) below the current text: the cohort
 * as bars of density, the reference as an orange line over the same axis (the density of its own values over the
 * same bins, or the normal density of its published mean and SD), the range under the axis and, to its right, what
 * each shows; the text goes on below it.
 */
export function drawOverlaidDistributions(
  doc: PDFKit.PDFDocument,
  cohort: readonly number[],
  reference: PdfReference,
): void {
  const x0 = 70;
  const width = 300;
  const height = 60;
  if (doc.y > 680) doc.addPage();
  const y0 = doc.y + 6;
  const d = overlaidDensities(cohort, reference);
  const lo = d.edges[0]!;
  const hi = d.edges[d.edges.length - 1]!;
  const curve =
    d.reference === null
      ? Array.from({ length: 61 }, (_, i) => {
          const x = lo + ((hi - lo) * i) / 60;
          return [x, reference.sd > 0 ? normalDensity(x, reference.mean, reference.sd) : 0] as const;
        })
      : d.reference.flatMap((density, i) => [[d.edges[i]!, density] as const, [d.edges[i + 1]!, density] as const]);
  const top = Math.max(1e-12, ...d.cohort, ...curve.map(([, y]) => y));
  const xAt = (x: number) => x0 + (width * (x - lo)) / (hi - lo);
  const yAt = (y: number) => y0 + height - (height * y) / top;
  const bar = width / d.cohort.length;
  d.cohort.forEach((density, i) => {
    const barHeight = (height * density) / top;
    doc
      .rect(x0 + i * bar + 1, y0 + height - barHeight, bar - 2, barHeight)
      .fillColor('#4a7ab5')
      .fill();
  });
  doc.moveTo(xAt(curve[0]![0]), yAt(curve[0]![1]));
  for (const [x, y] of curve.slice(1)) doc.lineTo(xAt(x), yAt(y));
  doc.lineWidth(1.5).strokeColor('#d95f02').stroke().lineWidth(1);
  doc
    .fillColor('black')
    .strokeColor('#333333')
    .moveTo(x0, y0 + height)
    .lineTo(x0 + width, y0 + height)
    .stroke();
  doc.fontSize(8);
  doc.text(pdfNumber(lo), x0 - 10, y0 + height + 2, { lineBreak: false });
  doc.text(pdfNumber(hi), x0 + width - 20, y0 + height + 2, { lineBreak: false });
  const n = cohort.filter(Number.isFinite).length;
  const notes = [
    `Bars: cohort (n ${n})`,
    reference.values
      ? `Line: reference (n ${reference.values.filter(Number.isFinite).length})`
      : `Line: reference, normal`,
    reference.values
      ? 'density over the same bins'
      : `(mean ${pdfNumber(reference.mean)}, SD ${pdfNumber(reference.sd)})`,
  ];
  notes.forEach((note, i) => doc.text(pdfText(note), x0 + width + 8, y0 + 12 * i, { lineBreak: false }));
  doc.x = 50;
  doc.y = y0 + height + 16;
  doc.fontSize(10).moveDown(0.5);
}
