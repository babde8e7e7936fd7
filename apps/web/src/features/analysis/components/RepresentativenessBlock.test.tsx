import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CohortParameterTable, Representativeness } from '@insilico/contracts';
import type { ChartOption } from './charts/chartOption';
import { RepresentativenessBlock } from './RepresentativenessBlock';

// The real chart needs a browser: this stand-in keeps the option it was given.
vi.mock('./charts/EChart', () => ({
  default: function FakeChart({ option }: { option: ChartOption }) {
    useEffect(() => void option, [option]);
    return <div data-testid="echart" />;
  },
}));

const table: CohortParameterTable = {
  cohortId: 'c',
  synthetic: true,
  patients: ['SYN-000001', 'SYN-000002'],
  sex: ['F', 'M'],
  age: [70, 80],
  parameters: [
    { key: 'aorticAnnulusPerimeter_mm', group: 'cardiac', label: 'Aortic annulus perimeter', unit: 'mm', decimals: 1 },
    { key: 'measurement.x.0', group: 'measurement', label: 'Measured', unit: 'mm', decimals: 1 },
  ],
  values: [
    [72, 78],
    [1, 2],
  ],
};

const answer: Representativeness = {
  analysisId: 'a',
  cohort: { id: 'c', name: 'TAVI 20', modelVersion: 'population-2026.11', patients: 2 },
  source: 'Registry X',
  referenceKind: 'summary',
  referencePatients: null,
  ignoredColumns: [],
  parameters: [
    {
      key: 'aorticAnnulusPerimeter_mm',
      label: 'Aortic annulus perimeter',
      unit: 'mm',
      cohort: { n: 2, mean: 75, sd: 4.24, p5: 72.3, p50: 75, p95: 77.7 },
      reference: { n: 506, mean: 76, sd: 6, p5: null, p50: null, p95: null },
      referenceValues: null,
      ks: null,
      range: null,
      standardisedDifference: -1 / 6,
      sdRatio: 0.707,
    },
  ],
  energy: null,
  mahalanobis: { distances: [0.1, 0.2], expected: [0.1, 1.3], degreesOfFreedom: 1, beyond95: 0 },
  createdAt: '2026-11-28T03:00:00.000Z',
};

afterEach(() => vi.restoreAllMocks());

describe('RepresentativenessBlock', () => {
  it('sends published statistics of the analysed anatomical parameters with their source, and shows the answer', async () => {
    const sent: unknown[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_url, init) => {
      sent.push(JSON.parse(String(init?.body)));
      return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    render(
      <RepresentativenessBlock
        deviceId="d"
        projectId="p"
        analysisId="a"
        cohortName="TAVI 20"
        cohortSource="virtual"
        table={table}
        parameters={['aorticAnnulusPerimeter_mm', 'measurement.x.0']}
      />,
    );
    const compare = screen.getByRole('button', { name: 'Compare with the reference' });
    expect(compare).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Published statistics' }));
    // Measurements are not compared: only the cohort's anatomical parameters have a population model.
    expect(screen.queryByLabelText('Measured mean')).toBeNull();
    fireEvent.change(screen.getByLabelText('Aortic annulus perimeter mean'), { target: { value: '76' } });
    fireEvent.change(screen.getByLabelText('Aortic annulus perimeter SD'), { target: { value: '6' } });
    fireEvent.change(screen.getByLabelText('Aortic annulus perimeter n'), { target: { value: '506' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Source of the reference/ }), {
      target: { value: 'Registry X' },
    });
    fireEvent.click(compare);
    await waitFor(() => expect(screen.getByText(/population model population-2026.11/)).toBeTruthy());
    expect(sent).toEqual([
      {
        source: 'Registry X',
        reference: {
          kind: 'summary',
          parameters: [{ key: 'aorticAnnulusPerimeter_mm', mean: 76, sd: 6, n: 506 }],
        },
        parameters: ['aorticAnnulusPerimeter_mm'],
      },
    ]);
    expect(screen.getByText(/0.0 % of the cohort lies beyond the reference’s χ² 95 % quantile/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download report (CSV)' })).toBeTruthy();
  });

  it('says the server’s refusal', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(
        JSON.stringify({
          error: {
            code: 'invalid_reference',
            message: 'The reference must be de-identified: remove the column "Name".',
          },
        }),
        { status: 400, headers: { 'content-type': 'application/json' } },
      ),
    );
    const { container } = render(
      <RepresentativenessBlock
        deviceId="d"
        projectId="p"
        analysisId="a"
        cohortName="TAVI 20"
        cohortSource="virtual"
        table={table}
        parameters={['aorticAnnulusPerimeter_mm']}
      />,
    );
    const input = container.querySelector('input[type="file"]')!;
    fireEvent.change(input, { target: { files: [new File(['Name,x\nJane,1'], 'ref.csv', { type: 'text/csv' })] } });
    await screen.findByText('ref.csv');
    fireEvent.change(screen.getByRole('textbox', { name: /Source of the reference/ }), { target: { value: 'Mine' } });
    fireEvent.click(screen.getByRole('button', { name: 'Compare with the reference' }));
    expect(await screen.findByText('The reference must be de-identified: remove the column "Name".')).toBeTruthy();
  });
});
