import { useEffect, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import CheckIcon from '@mui/icons-material/Check';
import {
  deviceVersionDescriptionMaxLength,
  deviceVersionMaxFiles,
  deviceVersionNameMaxLength,
  deviceVersionNameTakenMessage,
} from '@insilico/contracts';
import { ApiError } from '../../../lib/apiError';
import { createDeviceVersion } from '../api';
import { useStlUploads } from '../hooks/useStlUploads';
import { useVersionNameCheck } from '../hooks/useVersionNameCheck';
import type { NewDeviceVersionFormProps } from '../props';
import { StlFileField } from './StlFileField';

/**
 * Name (checked live, spec §5 message), description and the .stl files (uploaded with tus while the user types);
 * Create hands the new version (processing) to the caller. See props.ts for the contract with the wizard.
 */
export function NewDeviceVersionForm({
  deviceId,
  initialDraft,
  onDraftChange,
  targetProjectId,
  onCreated,
  onCancel,
  submitLabel = 'Create device version',
  onDirtyChange,
}: NewDeviceVersionFormProps) {
  const [name, setName] = useState(initialDraft?.name ?? '');
  const [description, setDescription] = useState(initialDraft?.description ?? '');
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [takenOnSubmit, setTakenOnSubmit] = useState<string | null>(null);
  const uploads = useStlUploads(deviceId);
  const nameCheck = useVersionNameCheck(deviceId, name);

  const dirty = uploads.items.length > 0;
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);

  const usable = uploads.items.filter((item) => item.status !== 'refused');
  const allUploaded = usable.length > 0 && usable.every((item) => item.status === 'done');
  const nameProblem =
    name.trim() === ''
      ? submitted
        ? 'Give the device version a name.'
        : null
      : name.trim().length > deviceVersionNameMaxLength
        ? `The name can have at most ${deviceVersionNameMaxLength} characters.`
        : nameCheck.state === 'taken'
          ? nameCheck.message || deviceVersionNameTakenMessage
          : takenOnSubmit === name.trim()
            ? deviceVersionNameTakenMessage
            : null;
  const filesProblem =
    submitted && usable.length === 0
      ? 'Add at least one .stl file.'
      : usable.length > deviceVersionMaxFiles
        ? `A device version can have at most ${deviceVersionMaxFiles} files.`
        : null;

  const change = (next: { name?: string; description?: string }) => {
    const draft = { name: next.name ?? name, description: next.description ?? description };
    if (next.name !== undefined) setName(next.name);
    if (next.description !== undefined) setDescription(next.description);
    onDraftChange?.(draft);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setFailure(null);
    if (name.trim() === '' || nameProblem || usable.length === 0 || filesProblem || !allUploaded) return;
    setSaving(true);
    try {
      const version = await createDeviceVersion(deviceId, {
        name: name.trim(),
        description: description.trim(),
        uploadIds: usable.map((item) => item.uploadId!),
        ...(targetProjectId ? { targetProjectId } : {}),
      });
      onDirtyChange?.(false);
      onCreated(version);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'device_version_name_taken') setTakenOnSubmit(name.trim());
      else setFailure(error instanceof ApiError ? error.message : 'The device version could not be created.');
    } finally {
      setSaving(false);
    }
  };

  const waiting = usable.some((item) => item.status !== 'done' && item.status !== 'failed');
  const anyFailed = usable.some((item) => item.status === 'failed');

  return (
    <Stack component="form" spacing={3} onSubmit={(event) => void submit(event)} noValidate sx={{ maxWidth: 720 }}>
      <TextField
        label="Device version name"
        value={name}
        onChange={(event) => change({ name: event.target.value })}
        required
        error={nameProblem !== null}
        helperText={
          nameProblem ??
          (nameCheck.state === 'available' ? 'This name is free.' : 'A unique name, e.g. "Valve Gen 2 – 26 mm".')
        }
        slotProps={{
          htmlInput: { maxLength: deviceVersionNameMaxLength + 20 },
          input: {
            endAdornment:
              nameCheck.state === 'checking' ? (
                <InputAdornment position="end">
                  <CircularProgress size={18} aria-label="Checking the name" />
                </InputAdornment>
              ) : nameCheck.state === 'available' ? (
                <InputAdornment position="end">
                  <CheckIcon color="success" aria-hidden="true" />
                </InputAdornment>
              ) : null,
          },
        }}
      />
      <TextField
        label="Description"
        value={description}
        onChange={(event) => change({ description: event.target.value })}
        multiline
        minRows={3}
        helperText={`Optional. What changed in this version. ${description.length}/${deviceVersionDescriptionMaxLength}`}
        error={description.length > deviceVersionDescriptionMaxLength}
        slotProps={{ htmlInput: { maxLength: deviceVersionDescriptionMaxLength } }}
      />
      <StlFileField
        items={uploads.items}
        onAdd={uploads.add}
        onPause={uploads.pause}
        onResume={uploads.resume}
        onRetry={uploads.retry}
        onRemove={uploads.remove}
        disabled={saving}
        error={filesProblem}
      />
      {submitted && waiting && (
        <Alert severity="info">Wait until every file has finished uploading, then create the version.</Alert>
      )}
      {submitted && anyFailed && (
        <Alert severity="warning">Try the failed upload again, or remove the file, to create the version.</Alert>
      )}
      {failure && <Alert severity="error">{failure}</Alert>}
      <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end' }}>
        {onCancel && (
          <Button onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
        )}
        <Button
          type="submit"
          variant="contained"
          disabled={saving}
          startIcon={saving ? <CircularProgress size={18} color="inherit" aria-hidden="true" /> : undefined}
        >
          {submitLabel}
        </Button>
      </Stack>
    </Stack>
  );
}
