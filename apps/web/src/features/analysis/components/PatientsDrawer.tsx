import { useMemo, useState } from 'react';
import type { CohortParameterTable } from '@insilico/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import RemoveCircleOutlineIcon from '@mui/icons-material/RemoveCircleOutline';
import { PatientOriginLabel } from '../../../components/PatientOriginLabel';
import type { AnalysisViewState } from '../analysisState';

interface PatientsDrawerProps {
  open: boolean;
  onClose: () => void;
  table: CohortParameterTable;
  excluded: readonly string[];
  /** Patients flagged as outliers by the newest result. */
  outliers: ReadonlySet<string>;
  loading: AnalysisViewState['loading'];
  canEdit: boolean;
  onToggle: (patientId: string) => void;
  onExclude: (patientIds: string[]) => void;
  onInclude: (patientIds: string[]) => void;
}

/**
 * The drawer section that opens on patients (spec §3): every patient of the cohort with a checkbox (included or
 * excluded) and a Remove button, the excluded set with "Include again"; each change is saved and recalculates.
 */
export function PatientsDrawer({
  open,
  onClose,
  table,
  excluded,
  outliers,
  loading,
  canEdit,
  onToggle,
  onExclude,
  onInclude,
}: PatientsDrawerProps) {
  const [search, setSearch] = useState('');
  const excludedSet = useMemo(() => new Set(excluded), [excluded]);
  const query = search.trim().toLowerCase();
  const shown = table.patients
    .map((id, i) => ({ id, about: aboutPatient(table.sex[i] ?? '', table.age[i] ?? null) }))
    .filter((patient) => query === '' || `${patient.id} ${patient.about}`.toLowerCase().includes(query));
  const status = loading.patients ? 'Saving…' : loading.alpha > 0 ? `Recalculating (${loading.alpha})…` : 'Saved';

  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      slotProps={{ paper: { sx: { width: { xs: '100%', sm: 420 } } } }}
    >
      <Box role="region" aria-label="Patients" sx={{ p: 2 }}>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography variant="h2" component="h2" sx={{ fontSize: 20 }}>
              Patients
            </Typography>
            <PatientOriginLabel origin={table.synthetic ? 'synthetic' : 'imaging'} />
          </Stack>
          <IconButton onClick={onClose} aria-label="Close patients">
            <CloseIcon />
          </IconButton>
        </Stack>
        <Typography color="text.secondary" sx={{ my: 1 }} role="status">
          {table.patients.length - excludedSet.size} of {table.patients.length} included · {status}
        </Typography>
        {excluded.length > 0 && (
          <Box sx={{ mb: 2 }}>
            <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
              <Typography variant="subtitle2" component="h3">
                Excluded ({excluded.length})
              </Typography>
              {canEdit && (
                <Button size="small" onClick={() => onInclude([...excluded])}>
                  Include all again
                </Button>
              )}
            </Stack>
            <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5, mt: 0.5 }}>
              {excluded.map((id) => (
                <Chip
                  key={id}
                  label={id}
                  size="small"
                  onDelete={canEdit ? () => onInclude([id]) : undefined}
                  aria-label={`${id}, excluded`}
                />
              ))}
            </Stack>
          </Box>
        )}
        <TextField
          size="small"
          fullWidth
          label="Search patients"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <List dense aria-label="Patients of the cohort">
          {shown.map((patient) => {
            const included = !excludedSet.has(patient.id);
            return (
              <ListItem
                key={patient.id}
                disableGutters
                secondaryAction={
                  canEdit && included ? (
                    <IconButton edge="end" aria-label={`Remove ${patient.id}`} onClick={() => onExclude([patient.id])}>
                      <RemoveCircleOutlineIcon />
                    </IconButton>
                  ) : null
                }
              >
                <ListItemIcon sx={{ minWidth: 40 }}>
                  <Checkbox
                    edge="start"
                    checked={included}
                    disabled={!canEdit}
                    onChange={() => onToggle(patient.id)}
                    slotProps={{ input: { 'aria-label': `Include ${patient.id}` } }}
                  />
                </ListItemIcon>
                <ListItemText
                  primary={
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <span>{patient.id}</span>
                      {outliers.has(patient.id) && (
                        <Chip label="Outlier" size="small" color="warning" variant="outlined" />
                      )}
                    </Stack>
                  }
                  secondary={`${patient.about}${included ? '' : ' · excluded'}`}
                />
              </ListItem>
            );
          })}
        </List>
        {shown.length === 0 && <Typography color="text.secondary">No patient matches “{search}”.</Typography>}
      </Box>
    </Drawer>
  );
}

/** Sex and age as the list shows them; an imaging patient has neither (de-identification removed them). */
function aboutPatient(sex: string, age: number | null): string {
  const shown = sex === 'female' ? 'Female' : sex === 'male' ? 'Male' : sex;
  if (shown === '' && age === null) return 'Sex and age not known (de-identified)';
  return [shown || 'Sex not known', age === null ? 'age not known' : `${age} years`].join(', ');
}
