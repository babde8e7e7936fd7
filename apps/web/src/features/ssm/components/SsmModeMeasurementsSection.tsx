import {
  Alert,
  Box,
  Button,
  CircularProgress,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import type { SsmModeMeasurementCell, SsmModeMeasurements } from '@insilico/contracts';
import { useState } from 'react';
import { ssmUrls, useSsmModeMeasurements } from '../api';

const signed = (sd: number) => (sd > 0 ? `+${sd}` : sd === 0 ? '0' : `−${Math.abs(sd)}`);

/** The change per standard deviation around the mean: (value at +1 SD − value at −1 SD) / 2, when both exist. */
export function changePerSd(row: readonly SsmModeMeasurementCell[], deviations: readonly number[]): number | null {
  const minus = row[deviations.indexOf(-1)]?.value;
  const plus = row[deviations.indexOf(1)]?.value;
  return minus == null || plus == null ? null : (plus - minus) / 2;
}

/** A line through a row's values (−3 SD on the left, +3 SD on the right), gaps where a value failed. */
function Sparkline({ row, label }: { row: readonly SsmModeMeasurementCell[]; label: string }) {
  const values = row.map((c) => c.value);
  const known = values.filter((v): v is number => v !== null);
  if (known.length < 2) return null;
  const low = Math.min(...known);
  const span = Math.max(...known) - low || 1;
  const w = 84;
  const h = 20;
  const points = values.flatMap((v, i) =>
    v === null
      ? []
      : [`${((i / (values.length - 1)) * w).toFixed(1)},${(h - 2 - ((v - low) / span) * (h - 4)).toFixed(1)}`],
  );
  return (
    <svg width={w} height={h} role="img" aria-label={label}>
      <polyline points={points.join(' ')} fill="none" stroke="currentColor" strokeWidth={1.5} />
    </svg>
  );
}

function ModeTable({ table, mode }: { table: SsmModeMeasurements; mode: SsmModeMeasurements['modes'][number] }) {
  return (
    <Table size="small" aria-label={`Measurements along mode ${mode.mode}`}>
      <TableHead>
        <TableRow>
          <TableCell>Measurement</TableCell>
          {table.deviations.map((sd) => (
            <TableCell key={sd} align="right">
              {signed(sd)} SD
            </TableCell>
          ))}
          <TableCell align="right">Per SD</TableCell>
          <TableCell>Along the mode</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {table.measurements.map((m, r) => {
          const row = mode.rows[r] ?? [];
          const slope = changePerSd(row, table.deviations);
          return (
            <TableRow key={m.key}>
              <TableCell component="th">
                {m.name} ({m.unit})
              </TableCell>
              {row.map((cell, d) => (
                <TableCell key={d} align="right" title={cell.failure ?? undefined}>
                  {cell.value === null ? '–' : cell.value.toFixed(1)}
                </TableCell>
              ))}
              <TableCell align="right">
                {slope === null ? '–' : `${slope >= 0 ? '+' : '−'}${Math.abs(slope).toFixed(2)}`}
              </TableCell>
              <TableCell sx={{ color: 'primary.main' }}>
                <Sparkline row={row} label={`${m.name} from −3 SD to +3 SD of mode ${mode.mode}`} />
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

/**
 * Measurements along the modes (issue 18 item 8): the TAVI set on the model's shapes from −3 SD to +3 SD, one mode
 * at a time, with the change per SD and a line per measurement; the whole table as CSV.
 */
export function SsmModeMeasurementsSection({
  deviceId,
  projectId,
  ssmId,
}: {
  deviceId: string;
  projectId: string;
  ssmId: string;
}) {
  const { data, error, isLoading } = useSsmModeMeasurements(deviceId, projectId, ssmId);
  const [modeIndex, setModeIndex] = useState(0);
  const mode = data?.modes[modeIndex];
  return (
    <Box>
      <Typography variant="h2" sx={{ fontSize: 18, mb: 1 }}>
        Measurements along the modes
      </Typography>
      {isLoading && <CircularProgress aria-label="Measuring the shapes" />}
      {error && <Alert severity="error">{error.message}</Alert>}
      {data && (
        <Stack spacing={1}>
          <Typography variant="body2" color="text.secondary">
            The {data.set.name} set measured on the model’s shapes at {data.phase}, each mode moved from −3 SD to +3 SD
            with the others at the mean; landmarks and their planes follow each shape.
          </Typography>
          {data.modes.length === 0 ? (
            <Alert severity="info">This model has no modes to measure.</Alert>
          ) : (
            <>
              <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                <TextField
                  select
                  size="small"
                  label="Mode"
                  value={modeIndex}
                  onChange={(event) => setModeIndex(Number(event.target.value))}
                  sx={{ minWidth: 200 }}
                >
                  {data.modes.map((m, k) => (
                    <MenuItem key={m.mode} value={k}>
                      Mode {m.mode} ({(m.explained * 100).toFixed(1)} %)
                    </MenuItem>
                  ))}
                </TextField>
                <Button href={ssmUrls.csv(deviceId, projectId, ssmId, 'modeMeasurements')} download>
                  Measurements along the modes (CSV)
                </Button>
              </Stack>
              {mode && <ModeTable table={data} mode={mode} />}
            </>
          )}
        </Stack>
      )}
    </Box>
  );
}
