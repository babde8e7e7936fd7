import { pdfText } from './pdf';

/**
 * Layout for long reports (the design history file) beside the building blocks of reports/pdf.ts: tables of wrapped
 * text whose header repeats on each page, and page footers that number the pages ("page n of m").
 */

/** A table column: its header, width (pt) and the font and size of its cells (Helvetica 8 pt by default). */
export interface PdfColumn {
  header: string;
  width: number;
  font?: string;
  fontSize?: number;
}

/** A table of wrapped text cells at the left margin; the header row repeats on each page the table runs over. */
export function pdfTable(doc: PDFKit.PDFDocument, columns: readonly PdfColumn[], rows: readonly string[][]): void {
  const x0 = doc.page.margins.left;
  const bottom = () => doc.page.height - doc.page.margins.bottom;
  const style = (i: number, header: boolean) =>
    doc
      .font(header ? 'Helvetica-Bold' : (columns[i]!.font ?? 'Helvetica'))
      .fontSize(header ? 8 : (columns[i]!.fontSize ?? 8));
  const heightOf = (cells: readonly string[], header: boolean) =>
    Math.max(
      ...cells.map((cell, i) => style(i, header).heightOfString(pdfText(cell), { width: columns[i]!.width - 6 })),
    ) + 4;
  const drawRow = (cells: readonly string[], header: boolean) => {
    const y = doc.y;
    const height = heightOf(cells, header);
    let x = x0;
    cells.forEach((cell, i) => {
      style(i, header).text(pdfText(cell), x + 2, y + 2, { width: columns[i]!.width - 6 });
      x += columns[i]!.width;
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
}

/**
 * Keeps every page until the document ends, so that `pageFooters` can number them: call it right after the report
 * is started (pdfkit writes out each finished page otherwise).
 */
export function keepPages(doc: PDFKit.PDFDocument): void {
  doc.options.bufferPages = true;
}

/** Writes `footer(page, pages)` small and grey, centred in the bottom margin of every kept page. */
export function pageFooters(doc: PDFKit.PDFDocument, footer: (page: number, pages: number) => string): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Written in the bottom margin: without lifting it, pdfkit would start a new page.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor('#555555')
      .text(pdfText(footer(i + 1, range.count)), 50, doc.page.height - 35, {
        width: doc.page.width - 100,
        align: 'center',
        lineBreak: false,
      })
      .fillColor('black');
    doc.page.margins.bottom = bottom;
  }
}
