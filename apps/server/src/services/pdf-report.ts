import PDFDocument from 'pdfkit';

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

/** A report being written: the document, its two text styles, and the bytes once it is finished. */
export interface PdfReport {
  doc: PDFKit.PDFDocument;
  /** A section heading (13 pt bold), on a new page when too little of this one is left. */
  heading(text: string): void;
  /** "Label: value", the label bold. */
  line(label: string, value: string): void;
  /** A table of wrapped text cells (8 pt) whose header row repeats on each page it runs over. */
  table(
    columns: readonly { header: string; width: number; font?: string; fontSize?: number }[],
    rows: readonly string[][],
  ): void;
  /** Ends the document (after `beforeEnd`, e.g. page footers) and answers its bytes. */
  finish(beforeEnd?: () => void): Promise<Uint8Array>;
}

/**
 * Starts a report (pdfkit, A4, the standard Helvetica) whose document dates are the report's own, so the same input
 * gives the same bytes. The trial report and the design history file are written with it.
 */
export function startPdfReport(options: {
  title: string;
  author: string;
  subject: string;
  /** ISO 8601: the report's creation date. */
  date: string;
  /** Keep the pages until the end (page numbers "Page n of m" need the count). */
  bufferPages?: boolean;
}): PdfReport {
  const date = new Date(options.date);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    bufferPages: options.bufferPages ?? false,
    info: {
      Title: pdfText(options.title),
      Author: pdfText(options.author),
      Subject: options.subject,
      CreationDate: date,
      ModDate: date,
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
    heading: (text) => {
      if (doc.y > 700) doc.addPage();
      doc.moveDown(0.8).font('Helvetica-Bold').fontSize(13).text(pdfText(text)).moveDown(0.3);
      doc.font('Helvetica').fontSize(10);
    },
    line: (label, value) =>
      doc
        .font('Helvetica-Bold')
        .text(pdfText(`${label}: `), { continued: true })
        .font('Helvetica')
        .text(pdfText(value)),
    table: (columns, rows) => {
      const x0 = doc.page.margins.left;
      const bottom = () => doc.page.height - doc.page.margins.bottom;
      const heightOf = (cells: readonly string[], bold: boolean) =>
        Math.max(
          ...cells.map((cell, i) =>
            doc
              .font(bold ? 'Helvetica-Bold' : (columns[i]!.font ?? 'Helvetica'))
              .fontSize(bold ? 8 : (columns[i]!.fontSize ?? 8))
              .heightOfString(pdfText(cell), { width: columns[i]!.width - 6 }),
          ),
        ) + 4;
      const drawRow = (cells: readonly string[], bold: boolean) => {
        const y = doc.y;
        const height = heightOf(cells, bold);
        let x = x0;
        cells.forEach((cell, i) => {
          const column = columns[i]!;
          doc
            .font(bold ? 'Helvetica-Bold' : (column.font ?? 'Helvetica'))
            .fontSize(bold ? 8 : (column.fontSize ?? 8))
            .text(pdfText(cell), x + 2, y + 2, { width: column.width - 6 });
          x += column.width;
        });
        doc
          .strokeColor('#bbbbbb')
          .moveTo(x0, y + height)
          .lineTo(x, y + height)
          .stroke()
          .strokeColor('black');
        doc.x = x0;
        doc.y = y + height;
      };
      const header = columns.map((column) => column.header);
      // The header stays with the first row.
      if (rows[0] && doc.y + heightOf(header, true) + heightOf(rows[0], false) > bottom()) doc.addPage();
      drawRow(header, true);
      for (const row of rows) {
        if (doc.y + heightOf(row, false) > bottom()) {
          doc.addPage();
          drawRow(header, true);
        }
        drawRow(row, false);
      }
      doc.font('Helvetica').fontSize(10).moveDown(0.5);
    },
    finish: async (beforeEnd) => {
      beforeEnd?.();
      doc.end();
      await done;
      return new Uint8Array(Buffer.concat(chunks));
    },
  };
}
