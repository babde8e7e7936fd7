import { useMemo } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatValue } from '../format';
import { patientAt, type BlockProps } from './blockProps';
import { ChartCard } from './charts/ChartCard';
import type { ChartOption } from './charts/chartOption';
import { ExportTable } from './ExportTable';

interface MultivariateRow {
  patientId: string;
  distance: number;
  beyond: boolean;
}

interface UnivariateRow {
  patientId: string;
  parameter: string;
  value: number;
  side: 'below' | 'above';
  fence: number;
  decimals: number;
  unit: string;
}

/**
 * The outlier block: multivariate outliers (squared Mahalanobis distance beyond the χ² cut-off at alpha) with a
 * chart of every patient's distance, and univariate outliers (Tukey's fences) per parameter; each can be excluded.
 */
export function OutlierBlock({ outcome, table, parameterOf, canEdit, exclude }: BlockProps) {
  const { mahalanobis } = outcome.analysis;
  // Every patient by distance, farthest first: the top of the list is the first candidate to look at even when
  // nobody passes the cut-off.
  const multivariate: MultivariateRow[] = useMemo(() => {
    if (!mahalanobis) return [];
    return Array.from(mahalanobis.distances, (distance, row) => ({
      patientId: patientAt(outcome, table, row),
      distance,
      beyond: distance > mahalanobis.threshold,
    })).sort((a, b) => b.distance - a.distance);
  }, [mahalanobis, outcome, table]);
  const univariate: UnivariateRow[] = useMemo(
    () =>
      outcome.parameters.flatMap((key, j) => {
        const result = outcome.analysis.parameters[j];
        if (!result) return [];
        const column = table.values[table.parameters.findIndex((p) => p.key === key)] ?? [];
        return result.outliers.indices.map((row) => {
          const value = column[outcome.rows[row] ?? -1] ?? NaN;
          const below = value < result.outliers.lower;
          return {
            patientId: patientAt(outcome, table, row),
            parameter: parameterOf.get(key)?.label ?? key,
            value,
            side: below ? ('below' as const) : ('above' as const),
            fence: below ? result.outliers.lower : result.outliers.upper,
            decimals: parameterOf.get(key)?.decimals ?? 2,
            unit: parameterOf.get(key)?.unit ?? '',
          };
        });
      }),
    [outcome, table, parameterOf],
  );

  const option: ChartOption = useMemo(() => {
    const distances = mahalanobis ? Array.from(mahalanobis.distances) : [];
    const ids = distances.map((_, row) => patientAt(outcome, table, row));
    return {
      grid: { left: 56, right: 16, top: 24, bottom: 56 },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'category', data: ids, axisLabel: { rotate: 60, fontSize: 10 }, name: 'Patient' },
      yAxis: { type: 'value', name: 'Squared Mahalanobis distance' },
      series: [
        {
          type: 'bar',
          name: 'D²',
          data: distances.map((d) => ({
            value: d,
            itemStyle: { color: mahalanobis && d > mahalanobis.threshold ? '#c62828' : '#5c6bc0' },
          })),
          markLine: mahalanobis
            ? {
                symbol: 'none',
                label: { formatter: `χ² cut-off ${formatValue(mahalanobis.threshold, 1)}` },
                data: [{ yAxis: mahalanobis.threshold }],
              }
            : undefined,
        },
      ],
    };
  }, [mahalanobis, outcome, table]);

  const excludeButton = (patientId: string) =>
    canEdit ? (
      <Button size="small" onClick={() => exclude([patientId])} aria-label={`Exclude ${patientId}`}>
        Exclude
      </Button>
    ) : null;

  return (
    <Stack spacing={2}>
      {mahalanobis ? (
        <>
          <Typography color="text.secondary">
            Patients whose squared Mahalanobis distance exceeds the χ²({mahalanobis.degreesOfFreedom}) quantile at 1 −
            alpha ({formatValue(mahalanobis.threshold, 2)}, alpha {mahalanobis.alpha}), farthest first.
          </Typography>
          <ExportTable
            title="Patients by Mahalanobis distance"
            fileName="outliers-multivariate"
            columns={[
              { header: 'Patient', value: (row: MultivariateRow) => row.patientId },
              { header: 'Squared Mahalanobis distance', value: (row) => row.distance, decimals: 2, numeric: true },
              {
                header: 'Outlier',
                value: (row) => (row.beyond ? 'yes' : 'no'),
                render: (row) => (row.beyond ? <strong>beyond the cut-off</strong> : '–'),
              },
            ]}
            rows={multivariate}
            rowKey={(row) => row.patientId}
            emptyText="No patients."
            maxHeight={300}
            actions={(row) => excludeButton(row.patientId)}
          />
          <ChartCard
            title="Mahalanobis distances"
            fileName="outliers-mahalanobis"
            option={option}
            empty={mahalanobis.distances.length === 0}
          />
        </>
      ) : (
        <Typography color="text.secondary">
          Multivariate outliers need more patients than parameters and parameters that are not constant or exact
          combinations of each other. Choose fewer parameters to see them.
        </Typography>
      )}
      <ExportTable
        title="Univariate outliers (Tukey’s fences, 1.5 × IQR)"
        fileName="outliers-univariate"
        columns={[
          { header: 'Patient', value: (row: UnivariateRow) => row.patientId },
          { header: 'Parameter', value: (row) => row.parameter },
          { header: 'Value', value: (row) => row.value, decimals: (row) => row.decimals, numeric: true },
          { header: 'Side', value: (row) => row.side },
          { header: 'Fence', value: (row) => row.fence, decimals: (row) => row.decimals, numeric: true },
          // Rows are of different parameters: the unit is a column of its own.
          { header: 'Unit', value: (row) => row.unit },
        ]}
        rows={univariate}
        rowKey={(row) => `${row.patientId}:${row.parameter}`}
        emptyText="No value lies outside Tukey’s fences."
        actions={(row) => excludeButton(row.patientId)}
      />
    </Stack>
  );
}
