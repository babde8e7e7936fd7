import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CohortParameterTable } from '@insilico/contracts';
import type { FitCoverage } from '../worker/analysisProtocol';
import { SizingDisagreementNote } from './SizingDisagreementNote';

const table = {
  patients: ['SYN-000001', 'SYN-000002', 'SYN-000003'],
  parameters: [
    { key: 'a', group: 'measurement', label: 'Annulus area', unit: 'mm²', decimals: 0 },
    { key: 'p', group: 'measurement', label: 'Annulus perimeter', unit: 'mm', decimals: 1 },
  ],
} as unknown as CohortParameterTable;
const fit = (label: string, rows: number[]) =>
  ({
    label,
    versionId: null,
    coverage: {
      disagreement: {
        count: rows.length,
        n: 3,
        fraction: rows.length / 3,
        lower: 0.1,
        upper: 0.8,
        parameters: [0, 1],
        rows,
      },
    },
  }) as unknown as FitCoverage;

describe('sizing disagreement', () => {
  it('names the methods and the patients they size differently', () => {
    render(
      <SizingDisagreementNote
        fits={[fit('Valve A', [2]), fit('Valve B', [])]}
        table={table}
        patientOf={(row) => table.patients[row]!}
      />,
    );
    const notes = screen.getAllByRole('status');
    expect(notes[0]?.textContent).toBe(
      'Valve A: sizing by Annulus area, Annulus perimeter picks different sizes for 1 of 3 patients (33.3 %; 95 % CI 10.0 %–80.0 %): SYN-000003.',
    );
    expect(notes[1]?.textContent).toBe(
      'Valve B: sizing by Annulus area, Annulus perimeter picks the same size for every patient it can size.',
    );
  });

  it('says nothing for sizings on one parameter', () => {
    const { container } = render(
      <SizingDisagreementNote
        fits={[{ label: 'X', versionId: null, coverage: null }]}
        table={table}
        patientOf={String}
      />,
    );
    expect(container.innerHTML).toBe('');
  });
});
