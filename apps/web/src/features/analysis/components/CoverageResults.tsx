import { useMemo } from 'react';
import type { Proportion } from '@insilico/stats';
import Stack from '@mui/material/Stack';
import { formatPercent } from '../format';
import type { FitCoverage } from '../worker/analysisProtocol';
import { ChartCard } from './charts/ChartCard';
import { gridWithLabels, type ChartOption } from './charts/chartOption';
import { ExportTable } from './ExportTable';

interface CoverageRow extends Proportion {
  fit: string;
  size: string;
}

/** Coverage of each size and of the union of a sizing's sizes, with the Wilson 95 % interval: table and chart. */
export function CoverageResults({ fits }: { fits: readonly FitCoverage[] }) {
  const coverageRows: CoverageRow[] = fits.flatMap((fit) =>
    fit.coverage
      ? [
          ...fit.coverage.sizes.map((size) => ({ ...size, fit: fit.label, size: size.name })),
          { ...fit.coverage.union, fit: fit.label, size: 'Any size (union)' },
        ]
      : [],
  );

  const chart: ChartOption = useMemo(() => {
    const labels = coverageRows.map((row) => `${row.fit}: ${row.size}`);
    return {
      grid: gridWithLabels({ left: 8, right: 16, top: 32, bottom: 8 }),
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'category', data: labels, axisLabel: { rotate: 30, fontSize: 10 } },
      yAxis: { type: 'value', name: 'Coverage (%)', min: 0, max: 100 },
      series: [
        { type: 'bar', name: 'Coverage', data: coverageRows.map((row) => Number((row.fraction * 100).toFixed(2))) },
        {
          type: 'custom',
          name: '95 % CI',
          // A vertical line with caps from the lower to the upper bound of the Wilson interval.
          renderItem: (
            _params: unknown,
            api: { value: (i: number) => number; coord: (p: number[]) => number[]; size: (p: number[]) => number[] },
          ) => {
            const x = api.value(0);
            const low = api.coord([x, api.value(1)]);
            const high = api.coord([x, api.value(2)]);
            const cap = (api.size([1, 0])[0] ?? 20) * 0.15;
            const style = { stroke: '#263238', lineWidth: 1.5 };
            return {
              type: 'group',
              children: [
                { type: 'line', shape: { x1: low[0], y1: low[1], x2: high[0], y2: high[1] }, style },
                {
                  type: 'line',
                  shape: { x1: (low[0] ?? 0) - cap, y1: low[1], x2: (low[0] ?? 0) + cap, y2: low[1] },
                  style,
                },
                {
                  type: 'line',
                  shape: { x1: (high[0] ?? 0) - cap, y1: high[1], x2: (high[0] ?? 0) + cap, y2: high[1] },
                  style,
                },
              ],
            };
          },
          data: coverageRows.map((row, i) => [i, row.lower * 100, row.upper * 100]),
          z: 10,
        },
      ],
    };
    // coverageRows is derived from fits.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fits]);

  return (
    <Stack spacing={2}>
      <ExportTable
        title="Coverage per size (Wilson 95 % interval)"
        fileName="coverage"
        columns={[
          { header: 'Sizing', value: (row: CoverageRow) => row.fit },
          { header: 'Size', value: (row) => row.size },
          { header: 'Patients fitting', value: (row) => row.count, numeric: true },
          { header: 'Patients', value: (row) => row.n, numeric: true },
          // Percentages as shown (one decimal), the unit in the heading.
          {
            header: 'Coverage (%)',
            value: (row) => row.fraction * 100,
            decimals: 1,
            render: (row) => formatPercent(row.fraction),
            numeric: true,
          },
          {
            header: 'CI lower (%)',
            value: (row) => row.lower * 100,
            decimals: 1,
            render: (row) => formatPercent(row.lower),
            numeric: true,
          },
          {
            header: 'CI upper (%)',
            value: (row) => row.upper * 100,
            decimals: 1,
            render: (row) => formatPercent(row.upper),
            numeric: true,
          },
        ]}
        rows={coverageRows}
        rowKey={(row) => `${row.fit}:${row.size}`}
        emptyText="No sizes yet."
      />
      <ChartCard title="Coverage" fileName="coverage" option={chart} empty={coverageRows.length === 0} />
    </Stack>
  );
}
