import { describe, expect, it } from 'vitest';
import { readReferenceCsv } from './representativeness-reference';

const parameters = [
  { key: 'aorticAnnulusPerimeter_mm', label: 'Aortic annulus perimeter' },
  { key: 'age_years', label: 'Age' },
];

describe('reference CSV', () => {
  it('takes keys or labels with a unit in brackets, a decimal comma with semicolons, empty and NA as missing', () => {
    const table = readReferenceCsv('Aortic annulus perimeter (mm);AGE;site\n75,5;81;A\n;NA;B\n80;79;C', parameters);
    expect(table.patients).toBe(3);
    expect([...table.columns.get('aorticAnnulusPerimeter_mm')!]).toEqual([75.5, Number.NaN, 80]);
    expect([...table.columns.get('age_years')!]).toEqual([81, Number.NaN, 79]);
    expect(table.ignoredColumns).toEqual(['site']);
  });

  it('refuses a field whose quote never ends and a parameter named twice', () => {
    expect(() => readReferenceCsv('age_years\n"81', parameters)).toThrow('a quoted field that never ends');
    expect(() => readReferenceCsv('age_years,Age (years)\n81,81', parameters)).toThrow(
      'Two columns name the parameter age_years; keep one ("Age (years)").',
    );
    expect(() => readReferenceCsv('Date of birth,Age\n1950-01-01,75', parameters)).toThrow(
      'The reference must be de-identified: remove the column "Date of birth".',
    );
  });
});
