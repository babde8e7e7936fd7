import { useMemo } from 'react';
import type { AnalysisSettings, DeviceFit, DeviceSize, ProjectDeviceVersion } from '@insilico/contracts';
import type { Proportion } from '@insilico/stats';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { formatPercent, formatValue, parameterLabel } from '../format';
import type { BlockProps } from './blockProps';
import { ChartCard } from './charts/ChartCard';
import type { ChartOption } from './charts/chartOption';
import { ExportTable } from './ExportTable';
import { NumberField } from './NumberField';

interface DeviceFitBlockProps extends Pick<BlockProps, 'outcome' | 'table' | 'draft' | 'parameterOf' | 'canEdit'> {
  versions: readonly ProjectDeviceVersion[];
  setSettings: (settings: AnalysisSettings) => void;
}

interface CoverageRow extends Proportion {
  fit: string;
  size: string;
}

const noVersion = 'none';

/**
 * Device fit: sizing windows per device version and parameter (a patient fits a size when every range holds), the
 * coverage of each size and of their union with a Wilson 95 % interval, the sizing proposal from the seed percentile
 * to the target coverage, and the size-set proposal (fewest windows of a given width).
 */
export function DeviceFitBlock({
  outcome,
  table,
  draft,
  parameterOf,
  canEdit,
  versions,
  setSettings,
}: DeviceFitBlockProps) {
  const { settings } = draft;
  const setFits = (deviceFits: DeviceFit[]) => setSettings({ ...settings, deviceFits });
  const setFit = (index: number, fit: DeviceFit) => setFits(settings.deviceFits.map((f, i) => (i === index ? fit : f)));
  const setSize = (fitIndex: number, sizeIndex: number, size: DeviceSize) => {
    const fit = settings.deviceFits[fitIndex];
    if (fit) setFit(fitIndex, { ...fit, sizes: fit.sizes.map((s, i) => (i === sizeIndex ? size : s)) });
  };
  const allKeys = table.parameters.map((p) => p.key);
  const firstKey = settings.sizingParameter ?? outcome.parameters[0] ?? allKeys[0] ?? '';

  /** A new size starts on the middle half of the population (quartiles) of its parameter. */
  const newSize = (count: number): DeviceSize => {
    const j = outcome.parameters.indexOf(firstKey);
    const summary = outcome.analysis.parameters[j]?.summary;
    const round = (v: number) => Number(v.toFixed(parameterOf.get(firstKey)?.decimals ?? 1));
    return {
      name: `Size ${count + 1}`,
      ranges: [{ parameter: firstKey, min: summary ? round(summary.q1) : 0, max: summary ? round(summary.q3) : 1 }],
    };
  };

  const coverageRows: CoverageRow[] = outcome.fits.flatMap((fit) =>
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
      grid: { left: 56, right: 16, top: 24, bottom: 96 },
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
    // coverageRows is derived from outcome.fits.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [outcome.fits]);

  const sizing = outcome.analysis.sizing;
  const sizingKey = settings.sizingParameter;
  const sizingDecimals = sizingKey ? (parameterOf.get(sizingKey)?.decimals ?? 1) : 1;

  return (
    <Stack spacing={2}>
      {settings.deviceFits.length === 0 && (
        <Typography color="text.secondary">
          Add the sizes of a device version to see how much of the population each size fits.
        </Typography>
      )}
      {settings.deviceFits.map((fit, fitIndex) => (
        <Card key={fitIndex} variant="outlined">
          <CardContent>
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' }, mb: 1.5 }}>
              <TextField
                size="small"
                label="Sizing name"
                defaultValue={fit.label}
                key={fit.label}
                disabled={!canEdit}
                onBlur={(event) => {
                  const label = event.target.value.trim();
                  if (label && label !== fit.label) setFit(fitIndex, { ...fit, label });
                }}
              />
              <TextField
                select
                size="small"
                label="Device version"
                value={fit.versionId ?? noVersion}
                disabled={!canEdit}
                onChange={(event) =>
                  setFit(fitIndex, { ...fit, versionId: event.target.value === noVersion ? null : event.target.value })
                }
                sx={{ minWidth: 220 }}
              >
                <MenuItem value={noVersion}>Not uploaded yet</MenuItem>
                {versions.map((version) => (
                  <MenuItem key={version.id} value={version.id}>
                    {version.name}
                  </MenuItem>
                ))}
              </TextField>
              {canEdit && (
                <Button color="error" onClick={() => setFits(settings.deviceFits.filter((_, i) => i !== fitIndex))}>
                  Remove sizing
                </Button>
              )}
            </Stack>
            <Stack spacing={1.5}>
              {fit.sizes.map((size, sizeIndex) => (
                <Box key={sizeIndex} sx={{ borderLeft: 3, borderColor: 'primary.light', pl: 1.5 }}>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
                    <TextField
                      size="small"
                      label="Size"
                      defaultValue={size.name}
                      key={size.name}
                      disabled={!canEdit}
                      onBlur={(event) => {
                        const name = event.target.value.trim().slice(0, 60);
                        if (name && name !== size.name) setSize(fitIndex, sizeIndex, { ...size, name });
                      }}
                      sx={{ width: 160 }}
                    />
                    {canEdit && (
                      <IconButton
                        aria-label={`Remove size ${size.name}`}
                        onClick={() => setFit(fitIndex, { ...fit, sizes: fit.sizes.filter((_, i) => i !== sizeIndex) })}
                      >
                        <DeleteOutlineIcon />
                      </IconButton>
                    )}
                  </Stack>
                  {size.ranges.map((range, rangeIndex) => {
                    const setRange = (next: typeof range) =>
                      setSize(fitIndex, sizeIndex, {
                        ...size,
                        ranges: size.ranges.map((r, i) => (i === rangeIndex ? next : r)),
                      });
                    return (
                      <Stack key={rangeIndex} direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mb: 1 }}>
                        <TextField
                          select
                          size="small"
                          label="Parameter"
                          value={range.parameter}
                          disabled={!canEdit}
                          onChange={(event) => setRange({ ...range, parameter: event.target.value })}
                          sx={{ minWidth: 260 }}
                        >
                          {allKeys.map((key) => (
                            <MenuItem key={key} value={key}>
                              {parameterLabel(parameterOf.get(key), key)}
                            </MenuItem>
                          ))}
                        </TextField>
                        {/* A minimum above the maximum moves the maximum along (and back), so a range is never empty. */}
                        <NumberField
                          label="Min"
                          value={range.min}
                          disabled={!canEdit}
                          onCommit={(v) => v !== null && setRange({ ...range, min: v, max: Math.max(v, range.max) })}
                        />
                        <NumberField
                          label="Max"
                          value={range.max}
                          disabled={!canEdit}
                          onCommit={(v) => v !== null && setRange({ ...range, max: v, min: Math.min(v, range.min) })}
                        />
                        {canEdit && size.ranges.length > 1 && (
                          <IconButton
                            aria-label="Remove range"
                            onClick={() =>
                              setSize(fitIndex, sizeIndex, {
                                ...size,
                                ranges: size.ranges.filter((_, i) => i !== rangeIndex),
                              })
                            }
                          >
                            <DeleteOutlineIcon />
                          </IconButton>
                        )}
                      </Stack>
                    );
                  })}
                  {canEdit && size.ranges.length < 8 && (
                    <Button
                      size="small"
                      startIcon={<AddIcon />}
                      onClick={() =>
                        setSize(fitIndex, sizeIndex, { ...size, ranges: [...size.ranges, ...newSize(0).ranges] })
                      }
                    >
                      Add range
                    </Button>
                  )}
                </Box>
              ))}
              {canEdit && fit.sizes.length < 20 && (
                <Box>
                  <Button
                    size="small"
                    startIcon={<AddIcon />}
                    onClick={() => setFit(fitIndex, { ...fit, sizes: [...fit.sizes, newSize(fit.sizes.length)] })}
                  >
                    Add size
                  </Button>
                </Box>
              )}
            </Stack>
          </CardContent>
        </Card>
      ))}
      {canEdit && settings.deviceFits.length < 10 && (
        <Box>
          <Button
            variant="outlined"
            startIcon={<AddIcon />}
            onClick={() =>
              setFits([
                ...settings.deviceFits,
                { versionId: null, label: `Sizing ${settings.deviceFits.length + 1}`, sizes: [newSize(0)] },
              ])
            }
          >
            Add sizing windows
          </Button>
        </Box>
      )}
      <ExportTable
        title="Coverage per size (Wilson 95 % interval)"
        fileName="coverage"
        columns={[
          { header: 'Sizing', value: (row: CoverageRow) => row.fit },
          { header: 'Size', value: (row) => row.size },
          { header: 'Patients fitting', value: (row) => row.count, numeric: true },
          { header: 'Patients', value: (row) => row.n, numeric: true },
          {
            header: 'Coverage',
            value: (row) => row.fraction,
            render: (row) => formatPercent(row.fraction),
            numeric: true,
          },
          { header: 'CI lower', value: (row) => row.lower, render: (row) => formatPercent(row.lower), numeric: true },
          { header: 'CI upper', value: (row) => row.upper, render: (row) => formatPercent(row.upper), numeric: true },
        ]}
        rows={coverageRows}
        rowKey={(row) => `${row.fit}:${row.size}`}
        emptyText="No sizes yet."
      />
      <ChartCard title="Coverage" fileName="coverage" option={chart} empty={coverageRows.length === 0} />

      <Typography variant="subtitle1" component="h4" sx={{ fontWeight: 700 }}>
        Sizing proposal
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <TextField
          select
          size="small"
          label="Parameter"
          value={sizingKey ?? noVersion}
          disabled={!canEdit}
          onChange={(event) =>
            setSettings({ ...settings, sizingParameter: event.target.value === noVersion ? null : event.target.value })
          }
          sx={{ minWidth: 260 }}
        >
          <MenuItem value={noVersion}>No proposal</MenuItem>
          {outcome.parameters.map((key) => (
            <MenuItem key={key} value={key}>
              {parameterLabel(parameterOf.get(key), key)}
            </MenuItem>
          ))}
        </TextField>
        <NumberField
          label="Seed percentile"
          value={settings.seedPercentile}
          disabled={!canEdit}
          onCommit={(v) => v !== null && setSettings({ ...settings, seedPercentile: v })}
          helperText="Moved into 0–100"
        />
        <NumberField
          label="Target coverage (%)"
          value={settings.targetCoveragePercent}
          disabled={!canEdit}
          onCommit={(v) =>
            v !== null && setSettings({ ...settings, targetCoveragePercent: Math.min(100, Math.max(1, v)) })
          }
          helperText="1–100"
        />
        <NumberField
          label="Size-set window width"
          value={settings.sizeSetWidth}
          allowEmpty
          disabled={!canEdit || sizingKey === null}
          onCommit={(v) => setSettings({ ...settings, sizeSetWidth: v !== null && v > 0 ? v : null })}
          helperText={
            sizingKey ? `In ${parameterOf.get(sizingKey)?.unit ?? 'its unit'}; empty: none` : 'Choose a parameter'
          }
          width={200}
        />
      </Stack>
      {sizing && sizingKey && (
        <Typography>
          From the P{formatValue(settings.seedPercentile, 0)} value {formatValue(sizing.seedValue, sizingDecimals)}, the
          narrowest window holding {settings.targetCoveragePercent} % of the patients is{' '}
          <strong>
            {formatValue(sizing.min, sizingDecimals)}–{formatValue(sizing.max, sizingDecimals)}{' '}
            {parameterOf.get(sizingKey)?.unit}
          </strong>
          : {sizing.coverage.count} of {sizing.coverage.n} patients ({formatPercent(sizing.coverage.fraction)}, 95 % CI{' '}
          {formatPercent(sizing.coverage.lower)}–{formatPercent(sizing.coverage.upper)}).
        </Typography>
      )}
      {outcome.sizeSet && sizingKey && (
        <ExportTable
          title={`Size-set proposal: ${outcome.sizeSet.windows.length} size${outcome.sizeSet.windows.length === 1 ? '' : 's'} covering ${formatPercent(outcome.sizeSet.coverage.fraction)}${outcome.sizeSet.reached ? '' : ' (target not reached)'}`}
          fileName="size-set-proposal"
          columns={[
            {
              header: 'Min',
              value: (row: { min: number; max: number; count: number }) => row.min,
              render: (row) => formatValue(row.min, sizingDecimals),
              numeric: true,
            },
            {
              header: 'Max',
              value: (row) => row.max,
              render: (row) => formatValue(row.max, sizingDecimals),
              numeric: true,
            },
            { header: 'Patients', value: (row) => row.count, numeric: true },
          ]}
          rows={outcome.sizeSet.windows}
          rowKey={(row) => `${row.min}`}
          emptyText="No window is needed for this target."
        />
      )}
    </Stack>
  );
}
