import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, csvCell, csvRow, readCsv, readNumericCsv, toCsv } from './csv';

describe('csvCell', () => {
  it('quotes a field holding a comma, a double quote or a line break, doubling its quotes (RFC 4180)', () => {
    expect(csvCell('plain text')).toBe('plain text');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvCell('Aortic annulus area (mm²)')).toBe('Aortic annulus area (mm²)');
  });

  it('prefixes a quote to text starting with = + - @ tab or carriage return (formula injection)', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    // The carriage return also needs quotes, after the prefix.
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    // Only the first character counts.
    expect(csvCell('SYN-000123')).toBe('SYN-000123');
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('writes numbers as numbers, negative ones without the guard', () => {
    expect(csvCell(0)).toBe('0');
    expect(csvCell(-3.5)).toBe('-3.5');
    expect(csvCell(-0.001)).toBe('-0.001');
    expect(csvCell(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(csvCell(1e21)).toBe('1e+21');
    expect(csvCell(-1e-7)).toBe('-1e-7');
  });

  it('writes NaN and infinities as empty cells unless the export writes numbers its own way', () => {
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvCell(Number.NEGATIVE_INFINITY)).toBe('');
    expect(csvCell(Number.NaN, String)).toBe('NaN');
    expect(csvCell(-2.5, (v) => v.toFixed(2))).toBe('-2.50');
  });

  it('writes null and undefined as empty cells, booleans as true/false', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell('')).toBe('');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(false)).toBe('false');
  });
});

describe('csvRow and toCsv', () => {
  it('joins cells with commas, keeping empty cells in place', () => {
    expect(csvRow(['a', null, 1, undefined, -2])).toBe('a,,1,,-2');
    expect(csvRow([])).toBe('');
  });

  it('ends every row with CRLF by default, or LF when told', () => {
    const rows = [
      ['Name', 'Value (mm)'],
      ['-x', -1.25],
    ];
    expect(toCsv(rows)).toBe("Name,Value (mm)\r\n'-x,-1.25\r\n");
    expect(toCsv(rows, { lineEnd: '\n' })).toBe("Name,Value (mm)\n'-x,-1.25\n");
    expect(toCsv([])).toBe('');
  });

  it('applies the number option to every number of every row', () => {
    expect(toCsv([[Number.NaN, 1]], { number: String })).toBe('NaN,1\r\n');
  });
});

describe('readCsv', () => {
  it('reads RFC 4180 fields: quotes with doubled quotes and line ends inside, CRLF, a byte-order mark, blank lines', () => {
    expect(readCsv('\uFEFFa,"b ""x""",c\r\n1,"2\n3",\r\n\r\n')).toEqual([
      ['a', 'b "x"', 'c'],
      ['1', '2\n3', ''],
    ]);
  });

  it('takes semicolons where the first line has no comma, and refuses a quoted field that never ends', () => {
    expect(readCsv('a;b\n1,5;2')).toEqual([
      ['a', 'b'],
      ['1,5', '2'],
    ]);
    expect(() => readCsv('a\n"1')).toThrow(CsvSyntaxError);
  });

  it('reads back what the writer wrote, formula guard and all', () => {
    const rows = [
      ['name', 'value'],
      ['-inlet, "A"', 1.5],
      ['line\nbreak', -2],
    ];
    expect(readCsv(toCsv(rows))).toEqual([
      ['name', 'value'],
      ['\'-inlet, "A"', '1.5'],
      ['line\nbreak', '-2'],
    ]);
  });
});

describe('readNumericCsv', () => {
  it('reads columns of numbers under the header; an empty or missing cell is no value, not 0', () => {
    expect(readNumericCsv('time (s),"a, b (Pa)",c\n0,1.5,\n0.1,-2\n')).toEqual({
      headers: ['time (s)', 'a, b (Pa)', 'c'],
      columns: [
        [0, 0.1],
        [1.5, -2],
        [Number.NaN, Number.NaN],
      ],
    });
    expect(readNumericCsv('')).toEqual({ headers: [], columns: [] });
  });
});
