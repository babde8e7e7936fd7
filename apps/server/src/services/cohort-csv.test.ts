import { defaultPopulation, PARAMETER_DEFINITIONS } from '@insilico/anatomy';
import { describe, expect, it } from 'vitest';
import { cohortCsv } from './cohort-csv';
import { parametersOf } from './cohort-patient.mapper';

describe('cohort CSV', () => {
  const patients = defaultPopulation().patients.slice(0, 5);
  const [header, ...rows] = cohortCsv(patients)
    .trimEnd()
    .split('\r\n')
    .map((line) => line.split(','));

  it('names every parameter with its unit in the header', () => {
    for (const definition of PARAMETER_DEFINITIONS)
      expect(header).toContain(`${definition.label} (${definition.unit})`);
    expect(header).toContain('Age (years)');
  });

  it('holds each value as the cohort’s tables show it: rounded to the parameter’s decimals', () => {
    patients.forEach((patient, i) => {
      for (const parameter of parametersOf(patient)) {
        const cell = rows[i]![header!.indexOf(`${parameter.label} (${parameter.unit})`)]!;
        expect(cell).toBe(String(Number(parameter.value.toFixed(parameter.decimals))));
        expect(cell.split('.')[1]?.length ?? 0).toBeLessThanOrEqual(parameter.decimals);
      }
    });
  });

  it('defuses text a spreadsheet would run as a formula, through the one CSV writer', () => {
    const [first] = patients;
    const row = cohortCsv([{ ...first!, id: '=HYPERLINK("http://evil")' }]).split('\r\n')[1]!;
    expect(row.startsWith(`"'=HYPERLINK(""http://evil"")",`)).toBe(true);
  });
});
