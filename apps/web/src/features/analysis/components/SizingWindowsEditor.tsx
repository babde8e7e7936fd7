import {
  analysisLimits,
  type AnalysisParameter,
  type DeviceFit,
  type DeviceSize,
  type ProjectDeviceVersion,
} from '@insilico/contracts';
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
import { parameterLabel } from '../format';
import { NumberField } from './NumberField';

interface SizingWindowsEditorProps {
  fits: readonly DeviceFit[];
  setFits: (fits: DeviceFit[]) => void;
  /** The project's ready device versions. */
  versions: readonly ProjectDeviceVersion[];
  /** Every parameter of the cohort (a size may use any of them). */
  parameters: readonly AnalysisParameter[];
  parameterOf: ReadonlyMap<string, AnalysisParameter>;
  canEdit: boolean;
  /** A new size (the n-th of its sizing), starting on sensible bounds. */
  newSize: (count: number) => DeviceSize;
}

export const noVersion = 'none';

/**
 * The sizing windows of device versions: per sizing a label and its device version (or none uploaded yet), its
 * sizes, and per size one or more parameter ranges (a patient fits when every range holds).
 */
export function SizingWindowsEditor({
  fits,
  setFits,
  versions,
  parameters,
  parameterOf,
  canEdit,
  newSize,
}: SizingWindowsEditorProps) {
  const allKeys = parameters.map((p) => p.key);
  const setFit = (index: number, fit: DeviceFit) => setFits(fits.map((f, i) => (i === index ? fit : f)));
  const setSize = (fitIndex: number, sizeIndex: number, size: DeviceSize) => {
    const fit = fits[fitIndex];
    if (fit) setFit(fitIndex, { ...fit, sizes: fit.sizes.map((s, i) => (i === sizeIndex ? size : s)) });
  };
  return (
    <Stack spacing={2}>
      {fits.length === 0 && (
        <Typography color="text.secondary">
          Add the sizes of a device version to see how much of the population each size fits.
        </Typography>
      )}
      {fits.map((fit, fitIndex) => (
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
                <Button color="error" onClick={() => setFits(fits.filter((_, i) => i !== fitIndex))}>
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
                  {canEdit && size.ranges.length < analysisLimits.rangesPerSize && (
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
              {canEdit && fit.sizes.length < analysisLimits.sizesPerFit && (
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
      {canEdit && fits.length < analysisLimits.deviceFits && (
        <Box>
          <Button
            variant="outlined"
            startIcon={<AddIcon />}
            onClick={() =>
              setFits([...fits, { versionId: null, label: `Sizing ${fits.length + 1}`, sizes: [newSize(0)] }])
            }
          >
            Add sizing windows
          </Button>
        </Box>
      )}
    </Stack>
  );
}
