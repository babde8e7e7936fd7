import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  designHistoryEntryKindLabels,
  designHistoryEntryKinds,
  entryTitleMaxLength,
  uploadTooLargeMessage,
  type DesignHistoryEntryKind,
  type DesignHistoryItem,
} from '@insilico/contracts';
import { ApiError } from '../../../lib/apiError';
import { formatBytes } from '../../device-versions';
import { addDesignHistoryEntry } from '../api';
import { attachFiles, tooBig } from './EntryAttachments';

/** The entry being written (spec §3 newDesignHistoryEntry). */
export interface NewEntryDraft {
  projectId: string;
  kind: DesignHistoryEntryKind;
  title: string;
  body: string;
  /** Trace links: the events of the project this entry cites. */
  evidenceEventIds: number[];
  /** Files to attach once the entry is added (uploaded one by one, each kept by its SHA-256). */
  files: File[];
  /** The entry this one replaces, when superseding. */
  supersedes?: { id: string; title: string };
}

export const emptyEntry = (projectId: string): NewEntryDraft => ({
  projectId,
  kind: 'design_input',
  title: '',
  body: '',
  evidenceEventIds: [],
  files: [],
});

/** Whether `now` holds input that `start` (the entry as it was started) did not: leaving would lose it. */
export function entryChanged(start: NewEntryDraft, now: NewEntryDraft): boolean {
  return (
    now.projectId !== start.projectId ||
    now.kind !== start.kind ||
    now.title !== start.title ||
    now.body !== start.body ||
    now.files.length > 0 ||
    now.evidenceEventIds.join() !== start.evidenceEventIds.join()
  );
}

interface NewEntryFormProps {
  deviceId: string;
  projects: { id: string; name: string }[];
  /** The loaded inputs, outputs and evidence an entry may cite (those of its project are offered). */
  evidence: DesignHistoryItem[];
  entry: NewEntryDraft;
  onChange: (entry: NewEntryDraft) => void;
  onCancel: () => void;
  /** The entry was added; `problem` says which file could not be attached, if one could not. */
  onAdded: (problem: string | null) => void;
}

/** A manual design history entry: project, kind, title and text; the server validates and records it. */
export function NewEntryForm({ deviceId, projects, evidence, entry, onChange, onCancel, onAdded }: NewEntryFormProps) {
  const citable = evidence.filter((item) => item.project.id === entry.projectId);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<string | null>(null);
  const filePicker = useRef<HTMLInputElement>(null);

  const addFiles = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = [...(event.target.files ?? [])];
    event.target.value = '';
    const big = picked.find(tooBig);
    setError(big ? `“${big.name}”: ${uploadTooLargeMessage}` : null);
    const known = new Set(entry.files.map((file) => `${file.name}\n${file.size}`));
    const added = picked.filter((file) => !tooBig(file) && !known.has(`${file.name}\n${file.size}`));
    onChange({ ...entry, files: [...entry.files, ...added] });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { supersedes, files, ...fields } = entry;
      const added = await addDesignHistoryEntry(deviceId, {
        ...fields,
        ...(supersedes ? { supersedesId: supersedes.id } : {}),
      });
      const failure = await attachFiles(deviceId, added.id, files, setProgress);
      onAdded(failure?.message ?? null);
    } catch (cause) {
      setError(cause instanceof ApiError ? cause.message : 'The entry could not be saved. Try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper
      variant="outlined"
      component="form"
      aria-label="New design history entry"
      onSubmit={(event: FormEvent) => void submit(event)}
      noValidate
      sx={{ p: 2, mb: 3, borderRadius: 3 }}
    >
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        {entry.supersedes ? 'New entry superseding another' : 'New entry'}
      </Typography>
      {entry.supersedes && (
        <Alert severity="info" sx={{ mb: 2 }}>
          This entry supersedes “{entry.supersedes.title}”, which stays in the history as it was.
        </Alert>
      )}
      <Stack spacing={2}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          <TextField
            select
            label="Project"
            value={entry.projectId}
            onChange={(event) => onChange({ ...entry, projectId: event.target.value, evidenceEventIds: [] })}
            disabled={entry.supersedes !== undefined}
            required
            sx={{ minWidth: 220 }}
          >
            {projects.map((project) => (
              <MenuItem key={project.id} value={project.id}>
                {project.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label="Entry kind"
            value={entry.kind}
            onChange={(event) => onChange({ ...entry, kind: event.target.value as DesignHistoryEntryKind })}
            sx={{ minWidth: 200 }}
          >
            {designHistoryEntryKinds.map((kind) => (
              <MenuItem key={kind} value={kind}>
                {designHistoryEntryKindLabels[kind]}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
        <TextField
          label="Title"
          value={entry.title}
          onChange={(event) => onChange({ ...entry, title: event.target.value })}
          required
          slotProps={{ htmlInput: { maxLength: entryTitleMaxLength } }}
        />
        <TextField
          label="Text"
          value={entry.body}
          onChange={(event) => onChange({ ...entry, body: event.target.value })}
          multiline
          minRows={3}
        />
        {citable.length > 0 && (
          <TextField
            select
            label="Evidence"
            value={entry.evidenceEventIds.map(String)}
            onChange={(event) => {
              const value = event.target.value as unknown as string[];
              onChange({ ...entry, evidenceEventIds: value.map(Number) });
            }}
            slotProps={{ select: { multiple: true } }}
            helperText="The inputs, outputs and evidence this entry traces to."
          >
            {citable.map((item) => (
              <MenuItem key={item.id} value={String(item.id)}>
                {item.summary}
              </MenuItem>
            ))}
          </TextField>
        )}
        <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
          <input ref={filePicker} type="file" multiple hidden aria-label="Choose files to attach" onChange={addFiles} />
          <Button onClick={() => filePicker.current?.click()} disabled={busy}>
            Attach files
          </Button>
          {entry.files.length > 0 && (
            <Box component="ul" aria-label="Files to attach" sx={{ pl: 2, m: 0 }}>
              {entry.files.map((file, index) => (
                <Typography component="li" variant="body2" key={`${file.name}-${file.size}-${index}`}>
                  {file.name} ({formatBytes(file.size)}){' '}
                  <Button
                    size="small"
                    disabled={busy}
                    aria-label={`Remove ${file.name}`}
                    onClick={() => onChange({ ...entry, files: entry.files.filter((_, at) => at !== index) })}
                  >
                    Remove
                  </Button>
                </Typography>
              ))}
            </Box>
          )}
          <Typography variant="caption" color="text.secondary">
            Each file (up to 1 GB; above 100 MB sent in pieces that resume after a dropped connection) is kept unchanged
            with its SHA-256; once the entry is signed, no file can be added.
          </Typography>
          {progress && (
            <Typography variant="body2" role="status">
              {progress}
            </Typography>
          )}
        </Stack>
        {error && (
          <Alert severity="error" role="alert">
            {error}
          </Alert>
        )}
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={busy || !entry.projectId}
            startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
          >
            Add entry
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
