import { formatValue } from '../format';
import type { BlockProps } from './blockProps';
import { ExportTable, type ExportColumn } from './ExportTable';

interface SummaryRow {
  key: string;
  label: string;
  unit: string;
  decimals: number;
  stats: BlockProps['outcome']['analysis']['parameters'][number];
}

/** The summary block: n, mean, SD, range, quartiles, skewness and the chosen percentiles per parameter. */
export function SummaryBlock({ outcome, parameterOf }: Pick<BlockProps, 'outcome' | 'parameterOf'>) {
  const rows: SummaryRow[] = outcome.parameters.map((key, j) => {
    const parameter = parameterOf.get(key);
    return {
      key,
      label: parameter?.label ?? key,
      unit: parameter?.unit ?? '',
      decimals: parameter?.decimals ?? 2,
      stats: outcome.analysis.parameters[j]!,
    };
  });
  const method = rows[0]?.stats.percentiles.method;
  // Statistics show one decimal more than the parameter; the CSV holds them as shown, in the row's unit.
  const number = (header: string, value: (row: SummaryRow) => number, decimals?: number): ExportColumn<SummaryRow> => ({
    header,
    value,
    decimals: (row) => decimals ?? row.decimals + 1,
    numeric: true,
  });
  const columns: ExportColumn<SummaryRow>[] = [
    { header: 'Parameter', value: (row) => row.label },
    { header: 'Unit', value: (row) => row.unit },
    number('n', (row) => row.stats.summary.n, 0),
    number('Mean', (row) => row.stats.summary.mean),
    number('SD', (row) => row.stats.summary.sd),
    number('Min', (row) => row.stats.summary.min),
    number('Q1', (row) => row.stats.summary.q1),
    number('Median', (row) => row.stats.summary.median),
    number('Q3', (row) => row.stats.summary.q3),
    number('Max', (row) => row.stats.summary.max),
    number('Skewness', (row) => row.stats.summary.skewness, 2),
    ...(rows[0]?.stats.percentiles.values ?? []).map(({ percentile }, k) =>
      number(
        `P${formatValue(percentile, Number.isInteger(percentile) ? 0 : 1)}`,
        (row) => row.stats.percentiles.values[k]?.value ?? NaN,
      ),
    ),
  ];
  return (
    <ExportTable
      title={`Summary (percentiles ${method === 'normal' ? 'from a fitted normal distribution' : 'from the data'})`}
      fileName="summary"
      columns={columns}
      rows={rows}
      rowKey={(row) => row.key}
      emptyText="Choose parameters to see their summary."
    />
  );
}
