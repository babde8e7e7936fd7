import { useState } from 'react';
import { reasonMaxLength, reasonRequiredMessage, type MeasurementOrder } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ApiError } from '../../../lib/apiError';
import { correctPatient, patientLandmarks } from '../api';
import { movedPlane } from '../correction';
import { PLANE_LANDMARKS } from '../measurementDraft';

/**
 * Corrects one patient's plane landmark by hand (e.g. the annular plane): raised along its normal and tilted about
 * its major axis; the patient's measurements at that phase are taken again, the automatic values stay.
 */
export function CorrectionDialog({
  deviceId,
  order,
  patientId,
  onClose,
  onCorrected,
}: {
  deviceId: string;
  /** A cohort's order (an SSM's shapes are not corrected by hand). */
  order: MeasurementOrder & { cohortId: string };
  patientId: string;
  onClose: () => void;
  onCorrected: (order: MeasurementOrder) => void;
}) {
  const phases = [...new Set(order.measurements.map((m) => m.phase))];
  const [phase, setPhase] = useState(phases[0] ?? 'end-systole');
  const [landmark, setLandmark] = useState<string>('aortic_annulus');
  const [raise, setRaise] = useState('0');
  const [tilt, setTilt] = useState('0');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    if (!reason.trim()) {
      setError(reasonRequiredMessage);
      return;
    }
    const r = Number(raise);
    const t = Number(tilt);
    if (!Number.isFinite(r) || !Number.isFinite(t) || Math.abs(r) > 20 || Math.abs(t) > 45) {
      setError('Raise the plane by at most 20 mm and tilt it by at most 45°.');
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const { landmarks } = await patientLandmarks(deviceId, order.cohortId, patientId, phase);
      const found = landmarks.find((l) => l.name === landmark);
      const moved = found ? movedPlane(found, r, t) : null;
      if (!moved) throw new ApiError(400, 'invalid', 'This landmark has no plane to move.');
      onCorrected(
        await correctPatient(deviceId, order.id, patientId, { phase, landmarks: { [landmark]: moved }, reason }),
      );
    } catch (cause) {
      setError(cause instanceof ApiError ? cause.message : 'The correction could not be saved.');
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby="correction-title">
      <DialogTitle id="correction-title">Correct {patientId}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1, minWidth: { sm: 380 } }}>
          <Typography variant="body2" color="text.secondary">
            The measurements at this phase are taken again with the corrected plane; the automatic values are kept.
          </Typography>
          <TextField select label="Phase" value={phase} onChange={(e) => setPhase(e.target.value as typeof phase)}>
            {phases.map((p) => (
              <MenuItem key={p} value={p}>
                {p}
              </MenuItem>
            ))}
          </TextField>
          <TextField select label="Plane" value={landmark} onChange={(e) => setLandmark(e.target.value)}>
            {PLANE_LANDMARKS.map((l) => (
              <MenuItem key={l} value={l}>
                {l.replaceAll('_', ' ')}
              </MenuItem>
            ))}
          </TextField>
          <TextField label="Raise (mm)" type="number" value={raise} onChange={(e) => setRaise(e.target.value)} />
          <TextField label="Tilt (°)" type="number" value={tilt} onChange={(e) => setTilt(e.target.value)} />
          <TextField
            label="Reason for change"
            required
            multiline
            minRows={2}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            helperText="Kept with the correction in the audit trail."
            slotProps={{ htmlInput: { maxLength: reasonMaxLength } }}
          />
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving}>
          Save correction
        </Button>
      </DialogActions>
    </Dialog>
  );
}
