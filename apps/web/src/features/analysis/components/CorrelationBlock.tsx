import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { formatPValue, formatValue, parameterLabel, roundPValue } from '../format';
import { patientAt, type BlockProps } from './blockProps';
import { ChartCard } from './charts/ChartCard';
import { gridWithLabels, type ChartOption } from './charts/chartOption';
import { ExportTable } from './ExportTable';

interface PairRow {
  a: string;
  b: string;
  r: number;
  p: number;
}

interface CorrelationBlockProps extends BlockProps {
  /** The recalculation after an exclusion is running (spec §3 loading flag `correlation`). */
  recalculating: boolean;
}

/**
 * Correlations: the Pearson or Spearman heatmap of the analysed parameters, the pairs flagged by the threshold and
 * alpha (spec §9: |r| ≥ 0.9, p < 0.001 by default), and a scatter plot of a chosen pair (a click on a point excludes
 * that patient).
 */
export function CorrelationBlock({
  outcome,
  table,
  draft,
  parameterOf,
  canEdit,
  exclude,
  recalculating,
}: CorrelationBlockProps) {
  const [method, setMethod] = useState<'pearson' | 'spearman'>('pearson');
  const { analysis, parameters } = outcome;
  const matrix = method === 'pearson' ? analysis.pearson : analysis.spearman;
  const flagged = method === 'pearson' ? analysis.flaggedPearson : analysis.flaggedSpearman;
  const short = (key: string) => parameterOf.get(key)?.label ?? key;
  const pairs: PairRow[] = flagged.map((pair) => ({
    a: parameters[pair.a] ?? '',
    b: parameters[pair.b] ?? '',
    r: pair.r,
    p: pair.p,
  }));

  const [pair, setPair] = useState<[string, string] | null>(null);
  const [x, y] =
    pair && parameters.includes(pair[0]) && parameters.includes(pair[1])
      ? pair
      : pairs[0]
        ? [pairs[0].a, pairs[0].b]
        : [parameters[0] ?? '', parameters[1] ?? parameters[0] ?? ''];

  const heatmap: ChartOption = useMemo(() => {
    const size = matrix.size;
    const cells: [number, number, number][] = [];
    for (let i = 0; i < size; i++)
      for (let j = 0; j < size; j++) cells.push([j, i, Number((matrix.r[i * size + j] ?? NaN).toFixed(2))]);
    const labels = parameters.map(short);
    return {
      // Below the plot: room for the colour scale only; the labels' room is measured (`gridWithLabels`).
      grid: gridWithLabels({ left: 8, right: 24, top: 16, bottom: 56 }),
      tooltip: { position: 'top' },
      xAxis: { type: 'category', data: labels, axisLabel: { rotate: 45, fontSize: 10 } },
      yAxis: { type: 'category', data: labels, axisLabel: { fontSize: 10 } },
      visualMap: {
        min: -1,
        max: 1,
        calculable: true,
        orient: 'horizontal',
        left: 'center',
        bottom: 0,
        inRange: { color: ['#1565c0', '#ffffff', '#c62828'] },
      },
      series: [
        {
          type: 'heatmap',
          name: method === 'pearson' ? 'Pearson r' : 'Spearman ρ',
          data: cells,
          label: { show: size <= 10, fontSize: 10 },
        },
      ],
    };
    // `short` reads parameterOf only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [matrix, parameters, parameterOf, method]);

  const scatter: ChartOption = useMemo(() => {
    const column = (key: string) => table.values[table.parameters.findIndex((p) => p.key === key)] ?? [];
    const xs = column(x);
    const ys = column(y);
    const points = outcome.rows.map((row) => [xs[row] ?? NaN, ys[row] ?? NaN]);
    return {
      grid: { left: 64, right: 24, top: 24, bottom: 56 },
      tooltip: {
        trigger: 'item',
        formatter: (item: { dataIndex: number; value: number[] }) =>
          `${patientAt(outcome, table, item.dataIndex)}<br/>${formatValue(item.value[0])} × ${formatValue(item.value[1])}`,
      },
      xAxis: {
        type: 'value',
        scale: true,
        name: parameterLabel(parameterOf.get(x), x),
        nameLocation: 'middle',
        nameGap: 32,
      },
      yAxis: { type: 'value', scale: true, name: parameterLabel(parameterOf.get(y), y) },
      series: [{ type: 'scatter', name: 'Patients', symbolSize: 8, data: points }],
    };
  }, [x, y, outcome, table, parameterOf]);

  const pick = (label: string, value: string, onChange: (key: string) => void) => (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      sx={{ minWidth: 240 }}
    >
      {parameters.map((key) => (
        <MenuItem key={key} value={key}>
          {parameterLabel(parameterOf.get(key), key)}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <Stack spacing={2} aria-busy={recalculating}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={method}
          onChange={(_e, next: typeof method | null) => next && setMethod(next)}
          aria-label="Correlation method"
        >
          <ToggleButton value="pearson">Pearson</ToggleButton>
          <ToggleButton value="spearman">Spearman</ToggleButton>
        </ToggleButtonGroup>
        {recalculating && <Typography color="text.secondary">Recalculating correlations…</Typography>}
      </Stack>
      <ChartCard
        title="Correlation heatmap"
        fileName={`correlation-${method}`}
        option={heatmap}
        empty={parameters.length < 2}
        // The cells, plus the rotated names below and the colour scale.
        height={Math.max(320, 220 + 28 * parameters.length)}
      />
      <ExportTable
        title={`Flagged pairs (|r| ≥ ${draft.settings.correlationThreshold}, p < ${draft.settings.alpha})`}
        fileName={`correlated-pairs-${method}`}
        columns={[
          { header: 'Parameter A', value: (row: PairRow) => short(row.a) },
          { header: 'Parameter B', value: (row) => short(row.b) },
          { header: 'r', value: (row) => row.r, decimals: 3, numeric: true },
          { header: 'p', value: (row) => roundPValue(row.p), render: (row) => formatPValue(row.p), numeric: true },
        ]}
        rows={pairs}
        rowKey={(row) => `${row.a}:${row.b}`}
        emptyText="No pair of parameters is correlated that strongly."
        actions={(row) => (
          <Button size="small" onClick={() => setPair([row.a, row.b])}>
            Scatter plot
          </Button>
        )}
      />
      <ChartCard
        title="Scatter plot"
        fileName={`scatter-${x}-${y}`}
        option={scatter}
        empty={parameters.length < 2}
        onItemClick={canEdit ? (dataIndex) => exclude([patientAt(outcome, table, dataIndex)]) : undefined}
        controls={
          <Box sx={{ mb: 1 }}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              {pick('X axis', x, (key) => setPair([key, y]))}
              {pick('Y axis', y, (key) => setPair([x, key]))}
            </Stack>
            {canEdit && (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                Click a point to exclude that patient.
              </Typography>
            )}
          </Box>
        }
      />
    </Stack>
  );
}
