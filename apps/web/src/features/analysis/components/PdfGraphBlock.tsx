import { useMemo, useState } from 'react';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { formatValue, parameterLabel } from '../format';
import type { BlockProps } from './blockProps';
import { ChartCard } from './charts/ChartCard';
import type { ChartOption } from './charts/chartOption';

interface PdfGraphBlockProps extends Pick<BlockProps, 'outcome' | 'draft' | 'parameterOf' | 'canEdit'> {
  setBandwidth: (rule: 'scott' | 'silverman') => void;
}

/** The PDF graph: the Gaussian kernel density of one parameter (Scott or Silverman bandwidth) with its percentiles. */
export function PdfGraphBlock({ outcome, draft, parameterOf, canEdit, setBandwidth }: PdfGraphBlockProps) {
  const [chosen, setChosen] = useState(outcome.parameters[0] ?? '');
  const key = outcome.parameters.includes(chosen) ? chosen : (outcome.parameters[0] ?? '');
  const index = outcome.parameters.indexOf(key);
  const result = outcome.analysis.parameters[index];
  const parameter = parameterOf.get(key);

  const option: ChartOption = useMemo(() => {
    const density = result?.density;
    const points = density ? Array.from(density.x, (x, i) => [x, density.density[i] ?? 0]) : [];
    return {
      grid: { left: 64, right: 24, top: 32, bottom: 48 },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'value', name: parameterLabel(parameter, key), nameLocation: 'middle', nameGap: 28, scale: true },
      yAxis: { type: 'value', name: 'Probability density' },
      series: [
        {
          type: 'line',
          name: 'Density',
          showSymbol: false,
          areaStyle: { opacity: 0.15 },
          data: points,
          markLine: {
            symbol: 'none',
            data: (result?.percentiles.values ?? [])
              .filter((p) => Number.isFinite(p.value))
              .map((p) => ({
                xAxis: p.value,
                label: { formatter: `P${formatValue(p.percentile, 0)}` },
              })),
          },
        },
      ],
    };
  }, [result, parameter, key]);

  return (
    <ChartCard
      title="PDF graph"
      fileName={`pdf-${key || 'graph'}`}
      option={option}
      empty={!result?.density}
      controls={
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 1 }}>
          <TextField
            select
            size="small"
            label="Parameter"
            value={key}
            onChange={(event) => setChosen(event.target.value)}
            sx={{ minWidth: 260 }}
          >
            {outcome.parameters.map((option) => (
              <MenuItem key={option} value={option}>
                {parameterLabel(parameterOf.get(option), option)}
              </MenuItem>
            ))}
          </TextField>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={draft.settings.bandwidth}
            onChange={(_event, rule: 'scott' | 'silverman' | null) => rule && setBandwidth(rule)}
            aria-label="Bandwidth"
            disabled={!canEdit}
          >
            <ToggleButton value="scott">Scott</ToggleButton>
            <ToggleButton value="silverman">Silverman</ToggleButton>
          </ToggleButtonGroup>
        </Stack>
      }
    />
  );
}
