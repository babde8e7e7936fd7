import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as exportsModule from '../exports';
import { ExportTable } from './ExportTable';
import { ExportNameContext } from './exportName';

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

interface Row {
  label: string;
  unit: string;
  mean: number;
  fraction: number;
  decimals: number;
}

const rows: Row[] = [
  { label: 'Aortic annulus area', unit: 'mm²', mean: 412.345678, fraction: 0.873456, decimals: 1 },
  { label: 'Body height', unit: 'cm', mean: 171.06, fraction: 0.5, decimals: 0 },
];

describe('ExportTable CSV', () => {
  it('holds the values as the page shows them, with units in the headings and a file name saying what it is', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 25, 10, 0));
    const download = vi.spyOn(exportsModule, 'downloadCsv').mockImplementation(() => {});
    render(
      <ExportNameContext value="HF50-annulus">
        <ExportTable
          title="Summary"
          fileName="summary"
          columns={[
            { header: 'Parameter', value: (row: Row) => row.label },
            { header: 'Unit', value: (row) => row.unit },
            { header: 'Mean', value: (row) => row.mean, decimals: (row) => row.decimals + 1, numeric: true },
            { header: 'Coverage (%)', value: (row) => row.fraction * 100, decimals: 1, numeric: true },
          ]}
          rows={rows}
          rowKey={(row) => row.label}
          emptyText="None."
        />
      </ExportNameContext>,
    );
    // On screen: the same precision.
    expect(screen.getByText('412.35')).toBeTruthy();
    expect(screen.getByText('87.3')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Export Summary as CSV' }));
    expect(download).toHaveBeenCalledWith('HF50-annulus-summary-2026-11-25', {
      columns: ['Parameter', 'Unit', 'Mean', 'Coverage (%)'],
      rows: [
        ['Aortic annulus area', 'mm²', 412.35, 87.3],
        ['Body height', 'cm', 171.1, 50],
      ],
    });
  });
});
