import { afterEach, describe, expect, it, vi } from 'vitest';
import { csvCell, describedExportName, downloadCsv, downloadSvg, exportDate, exportFileName, toCsv } from './exports';

describe('CSV export', () => {
  it('writes RFC 4180 rows with CRLF and quotes only where needed', () => {
    expect(
      toCsv({
        columns: ['Parameter', 'Unit', 'Mean'],
        rows: [
          ['Aortic annulus perimeter', 'mm', 74.25],
          ['Says "hi", twice', 'mm²', null],
        ],
      }),
    ).toBe('Parameter,Unit,Mean\r\nAortic annulus perimeter,mm,74.25\r\n"Says ""hi"", twice",mm²,\r\n');
  });

  it('keeps numbers at full precision and leaves missing or infinite values empty', () => {
    expect(csvCell(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(csvCell(-3.5)).toBe('-3.5');
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvCell(Number.POSITIVE_INFINITY)).toBe('');
    expect(csvCell(true)).toBe('true');
  });

  it('defuses text a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-')).toBe("'-");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('SYN-000123')).toBe('SYN-000123');
  });
});

describe('export file names', () => {
  it('say what the file holds: cohort, analysis, table and date, spaces as dashes', () => {
    expect(exportDate(new Date(2026, 10, 5, 23, 59))).toBe('2026-11-05');
    expect(describedExportName(['HF 50', ' annulus ', 'summary', null, '2026-11-25'])).toBe(
      'HF-50-annulus-summary-2026-11-25',
    );
    expect(exportFileName(describedExportName(['A/B', 'summary']), 'csv')).toBe('A-B-summary.csv');
  });

  it('defaults to graph and adds the extension once', () => {
    expect(exportFileName('', 'svg')).toBe('graph.svg');
    expect(exportFileName('  ', 'svg')).toBe('graph.svg');
    expect(exportFileName('pdf-height', 'svg')).toBe('pdf-height.svg');
    expect(exportFileName('summary.CSV', 'csv')).toBe('summary.csv');
  });

  it('replaces characters file systems refuse', () => {
    expect(exportFileName('a/b:c*d?"e"<f>|g', 'csv')).toBe('a-b-c-d-e-f-g.csv');
  });
});

describe('downloads', () => {
  afterEach(() => vi.restoreAllMocks());

  async function captured(run: () => void): Promise<{ name: string; type: string; text: string }> {
    let blob: Blob | null = null;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((object) => {
      blob = object as Blob;
      return 'blob:test';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    let name = '';
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      name = this.download;
    });
    run();
    const saved = blob as unknown as Blob;
    // ignoreBOM keeps a byte-order mark in the text, so the test sees what a spreadsheet reads.
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await saved.arrayBuffer());
    return { name, type: saved.type, text };
  }

  it('saves a chart as <name>.svg, graph.svg by default', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"></svg>';
    expect(await captured(() => downloadSvg(svg))).toEqual({
      name: 'graph.svg',
      type: 'image/svg+xml;charset=utf-8',
      text: svg,
    });
    expect((await captured(() => downloadSvg(svg, 'heatmap'))).name).toBe('heatmap.svg');
  });

  it('saves a table as <name>.csv with a byte-order mark for spreadsheets', async () => {
    const file = await captured(() => downloadCsv('summary', { columns: ['a'], rows: [[1]] }));
    expect(file.name).toBe('summary.csv');
    expect(file.type).toBe('text/csv;charset=utf-8');
    expect(file.text).toBe('\uFEFFa\r\n1\r\n');
  });
});
