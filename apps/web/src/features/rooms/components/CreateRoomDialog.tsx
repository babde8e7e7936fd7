import { useState } from 'react';
import type { Room, RoomPage } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import SearchIcon from '@mui/icons-material/Search';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { FormDialog } from '../../../components/FormDialog';
import { PatientOriginLabel } from '../../../components/PatientOriginLabel';
import { useCohortPatients } from '../../cohorts';
import { useImagingCohorts } from '../../imaging-patients';
import { useSsms } from '../../ssm';
import { createRoom } from '../api';

interface CreateRoomDialogProps {
  open: boolean;
  deviceId: string;
  projectId: string;
  cohorts: RoomPage['cohorts'];
  onClose: () => void;
  onCreated: (room: Room) => void;
}

const statusNote: Record<string, string> = {
  in_progress: ' (being prepared)',
  failed: ' (could not be prepared)',
};

/**
 * A new room (spec §2: "created by choosing a patient or an SSM"): one of the project's cohorts, then one of its
 * patients (searchable by id, sex, age…); or one of the project's ready SSMs. Mounted while open, so every opening
 * starts afresh.
 */
export function CreateRoomDialog({ open, deviceId, projectId, cohorts, onClose, onCreated }: CreateRoomDialogProps) {
  const firstReady = cohorts.find((cohort) => cohort.status === 'ready')?.cohortId ?? '';
  const [cohortId, setCohortId] = useState(firstReady);
  const [search, setSearch] = useState('');
  const [patientId, setPatientId] = useState<string | null>(null);
  const [subject, setSubject] = useState<'patient' | 'ssm' | 'imaging'>('patient');
  const [ssmId, setSsmId] = useState<string | null>(null);
  const ssms = useSsms(open && subject === 'ssm' ? deviceId : null, projectId);
  const readySsms = ssms.data?.items.filter((ssm) => ssm.status === 'ready') ?? [];
  const [imagingPatient, setImagingPatient] = useState<{ datasetId: string; patientId: string } | null>(null);
  const imaging = useImagingCohorts(open && subject === 'imaging' ? deviceId : null, projectId);

  const ready = cohorts.some((cohort) => cohort.cohortId === cohortId && cohort.status === 'ready');
  const patients = useCohortPatients(
    open ? deviceId : null,
    cohortId,
    { search, sort: 'id', order: 'asc', page: 1, pageSize: 50 },
    ready,
  );

  const chosen =
    subject === 'ssm' ? ssmId !== null : subject === 'imaging' ? imagingPatient !== null : patientId !== null;
  const send = async () => {
    onCreated(
      await createRoom(
        deviceId,
        projectId,
        subject === 'ssm' && ssmId
          ? { ssmId }
          : subject === 'imaging' && imagingPatient
            ? { imagingDatasetId: imagingPatient.datasetId, patientId: imagingPatient.patientId }
            : { cohortId, patientId: patientId ?? '' },
      ),
    );
  };

  return (
    <FormDialog
      open={open}
      title="New room"
      submitLabel="Create room"
      canSubmit={chosen}
      send={send}
      failure="The room could not be created. Try again."
      onClose={onClose}
    >
      <ToggleButtonGroup
        exclusive
        size="small"
        value={subject}
        onChange={(_event, next: 'patient' | 'ssm' | 'imaging' | null) => {
          if (next) setSubject(next);
        }}
        aria-label="Room on"
        sx={{ mb: 2 }}
      >
        <ToggleButton value="patient">A patient</ToggleButton>
        <ToggleButton value="ssm">An SSM</ToggleButton>
        <ToggleButton value="imaging">Your imaging data</ToggleButton>
      </ToggleButtonGroup>
      {subject === 'imaging' ? (
        imaging.error ? (
          <Alert severity="error">The imaging cohorts could not be loaded. {imaging.error.message}</Alert>
        ) : !imaging.data ? (
          <Typography color="text.secondary" role="status">
            Loading imaging cohorts…
          </Typography>
        ) : imaging.data.items.length === 0 ? (
          <Alert severity="info">
            This project has no imaging cohort. Upload your own imaging data to open rooms on your patients.
          </Alert>
        ) : (
          <Stack spacing={1}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
                Patients modelled by our staff from your de-identified images.
              </Typography>
              <PatientOriginLabel origin="imaging" />
            </Stack>
            <List
              dense
              aria-label="Imaging patients"
              sx={{ maxHeight: 280, overflow: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}
            >
              {imaging.data.items.map((cohort) => (
                <li key={cohort.datasetId}>
                  <ul style={{ padding: 0 }}>
                    <ListSubheader>
                      {cohort.name}
                      {cohort.status === 'ready' ? '' : ' (patient models being made)'}
                    </ListSubheader>
                    {cohort.patients.map((patient) => (
                      <ListItemButton
                        key={patient.id}
                        selected={
                          imagingPatient?.datasetId === cohort.datasetId && imagingPatient.patientId === patient.id
                        }
                        onClick={() => setImagingPatient({ datasetId: cohort.datasetId, patientId: patient.id })}
                      >
                        <ListItemText
                          primary={patient.id}
                          secondary={`${patient.meshes.organs.join(', ').replaceAll('_', ' ')} · ${patient.meshes.phases.join(', ')}`}
                        />
                      </ListItemButton>
                    ))}
                  </ul>
                </li>
              ))}
            </List>
          </Stack>
        )
      ) : subject === 'ssm' ? (
        ssms.error ? (
          <Alert severity="error">The SSMs could not be loaded. {ssms.error.message}</Alert>
        ) : !ssms.data ? (
          <Typography color="text.secondary" role="status">
            Loading SSMs…
          </Typography>
        ) : readySsms.length === 0 ? (
          <Alert severity="info">This project has no ready statistical shape model yet.</Alert>
        ) : (
          <List
            dense
            aria-label="SSMs"
            sx={{ maxHeight: 280, overflow: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}
          >
            {readySsms.map((ssm) => (
              <ListItemButton key={ssm.id} selected={ssm.id === ssmId} onClick={() => setSsmId(ssm.id)}>
                <ListItemText
                  primary={ssm.name}
                  secondary={`${ssm.shapeCount} patients, ${ssm.modes?.length ?? 0} modes`}
                />
              </ListItemButton>
            ))}
          </List>
        )
      ) : cohorts.length === 0 ? (
        <Alert severity="info">
          This project has no patient cohort yet. Add a cohort to the project to open rooms on its patients.
        </Alert>
      ) : (
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            select
            label="Patient cohort"
            value={cohortId}
            onChange={(event) => {
              setCohortId(event.target.value);
              setPatientId(null);
            }}
          >
            {cohorts.map((cohort) => (
              <MenuItem key={cohort.cohortId} value={cohort.cohortId} disabled={cohort.status !== 'ready'}>
                {cohort.name}
                {statusNote[cohort.status] ?? ''}
              </MenuItem>
            ))}
          </TextField>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <TextField
              label="Search patients"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              size="small"
              fullWidth
              disabled={!ready}
              slotProps={{
                input: {
                  startAdornment: (
                    <InputAdornment position="start">
                      <SearchIcon fontSize="small" aria-hidden="true" />
                    </InputAdornment>
                  ),
                },
              }}
            />
            <PatientOriginLabel origin="synthetic" />
          </Stack>
          {!ready ? (
            <Typography color="text.secondary">Choose a cohort whose patients are ready.</Typography>
          ) : patients.error ? (
            <Alert severity="error">The patients could not be loaded. {patients.error.message}</Alert>
          ) : !patients.data ? (
            <Stack direction="row" spacing={1} role="status" sx={{ alignItems: 'center' }}>
              <CircularProgress size={18} aria-hidden="true" />
              <Typography color="text.secondary">Loading patients…</Typography>
            </Stack>
          ) : patients.data.items.length === 0 ? (
            <Typography color="text.secondary">No patient matches “{search}”.</Typography>
          ) : (
            <List
              dense
              aria-label="Patients"
              sx={{ maxHeight: 280, overflow: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}
            >
              {patients.data.items.map((patient) => (
                <ListItemButton
                  key={patient.id}
                  selected={patient.id === patientId}
                  onClick={() => setPatientId(patient.id)}
                >
                  <ListItemText
                    primary={patient.id}
                    secondary={`${patient.sex}, ${patient.age} years, BMI ${patient.bmi_kg_m2.toFixed(1)}${
                      patient.pathologies.length > 0 ? ` · ${patient.pathologies.join(', ').replaceAll('_', ' ')}` : ''
                    }`}
                  />
                </ListItemButton>
              ))}
            </List>
          )}
        </Stack>
      )}
    </FormDialog>
  );
}
