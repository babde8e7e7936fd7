import { useCallback, useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { cohortNameWarning, imagingNameMaxLength, uploadFailedMessage, type ImagingDataset } from '@insilico/contracts';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ApiError } from '../../../lib/apiError';
import { createImagingDataset } from '../api';
import { startImagingUpload, transferRate, type ImagingUploadControl } from '../imaging/imagingUpload';
import { pendingUploads, type PendingUpload } from '../imaging/pendingUpload';
import { MaskRegionsDialog, type MaskedSeries } from './MaskRegionsDialog';
import { SeriesThumbnail } from './SeriesThumbnail';
import { useImagingFlow } from './ImagingFlowContext';

/**
 * The steps of the imaging upload as views without a page around them: `/upload-images/*` wraps them in pages,
 * the project creation wizard in its steps (spec §2, issue 19 item 1).
 */

/** How a dataset's status reads in lists (the wizard's cohorts, the project's figures). */
export const imagingStatusLabels: Record<ImagingDataset['status'], string> = {
  checking: 'Being checked',
  refused: 'Refused',
  modelling: 'Modelling in progress',
  ready: 'Ready',
};

export const formatBytes = (bytes: number): string =>
  bytes >= 1024 ** 3
    ? `${(bytes / 1024 ** 3).toFixed(2)} GB`
    : bytes >= 1024 ** 2
      ? `${(bytes / 1024 ** 2).toFixed(1)} MB`
      : `${Math.max(1, Math.round(bytes / 1024))} KB`;

export function ProgressLine() {
  const { busy, progress } = useImagingFlow();
  if (!busy) return null;
  const value = progress && progress.total > 0 ? (100 * progress.done) / progress.total : undefined;
  return (
    <Box sx={{ my: 2 }} aria-live="polite">
      <LinearProgress variant={value === undefined ? 'indeterminate' : 'determinate'} value={value} />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {progress
          ? `${progress.phase === 'scan' ? 'Reading' : 'Anonymizing'} file ${progress.done} of ${progress.total}`
          : 'Starting…'}
      </Typography>
    </Box>
  );
}

/** The buttons that choose a .zip and/or a folder; `onRead` after the imaging worker has read it. */
export function ImagingSourceButtons({
  kinds,
  onRead,
}: {
  kinds: readonly ('zip' | 'folder')[];
  onRead: () => void | Promise<void>;
}) {
  const flow = useImagingFlow();
  const onZip = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file && (await flow.read({ kind: 'zip', file }, file.name))) await onRead();
  };
  const onFolder = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])].map((file) => ({ path: file.webkitRelativePath || file.name, file }));
    event.target.value = '';
    const name = files[0]?.path.split('/')[0] ?? 'folder';
    if (files.length > 0 && (await flow.read({ kind: 'folder', files }, name))) await onRead();
  };
  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {kinds.includes('zip') && (
          <Button variant="contained" component="label" disabled={flow.busy}>
            Choose a .zip
            <input
              hidden
              type="file"
              accept=".zip,application/zip"
              aria-label="Zip of DICOM images"
              onChange={(e) => void onZip(e)}
            />
          </Button>
        )}
        {kinds.includes('folder') && (
          <Button variant={kinds.length === 1 ? 'contained' : 'outlined'} component="label" disabled={flow.busy}>
            Choose a folder
            <input
              hidden
              type="file"
              aria-label="Folder of DICOM images"
              {...({ webkitdirectory: '' } as Record<string, string>)}
              multiple
              onChange={(e) => void onFolder(e)}
            />
          </Button>
        )}
      </Stack>
      <ProgressLine />
      {flow.error && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {flow.error}
        </Alert>
      )}
    </>
  );
}

/** Patients → studies → series with thumbnails; the series and additional files that go. */
export function DicomTreeView() {
  const flow = useImagingFlow();
  const [masking, setMasking] = useState<MaskedSeries | null>(null);
  const scan = flow.scan;
  if (!scan) return null;
  return (
    <Stack spacing={3}>
      {scan.dicomFiles === 0 && (
        <Alert severity="error">No DICOM file was found. Only DICOM images can be anonymized and uploaded.</Alert>
      )}
      {scan.patients.map((patient) => (
        <Paper key={patient.id} variant="outlined" sx={{ p: 2 }} data-testid="imaging-patient">
          <Typography variant="h3">{patient.name || patient.id}</Typography>
          <Typography variant="body2" color="text.secondary">
            Patient ID {patient.id} · shown here only: it is replaced before upload
          </Typography>
          {patient.studies.map((study) => (
            <Box key={study.id} sx={{ mt: 2 }}>
              <Typography variant="subtitle1">{study.description || 'Study without description'}</Typography>
              {study.series.map((series) => (
                <Stack key={series.id} direction="row" spacing={1} sx={{ alignItems: 'center', ml: 2, my: 0.5 }}>
                  <SeriesThumbnail thumbnail={scan.thumbnails?.[series.id] ?? null} label={series.description} />
                  <FormControlLabel
                    control={
                      <Checkbox
                        checked={!flow.excludedSeries.has(series.id)}
                        onChange={(e) => flow.toggleSeries(series.id, e.target.checked)}
                      />
                    }
                    label={`${series.description || 'Series without description'} · ${series.modality} · ${series.images} ${series.images === 1 ? 'image' : 'images'}`}
                  />
                  {series.burnedIn.length > 0 && (
                    <Chip
                      color="warning"
                      size="small"
                      label="May show text in the images"
                      title={series.burnedIn.join('; ')}
                    />
                  )}
                  {series.burnedIn.length > 0 && (
                    <MaskButton
                      series={series}
                      regions={flow.maskedRegions.get(series.id)?.length ?? 0}
                      onMask={() => setMasking({ id: series.id, description: series.description })}
                    />
                  )}
                </Stack>
              ))}
            </Box>
          ))}
        </Paper>
      ))}
      {masking && <MaskRegionsDialog series={masking} onClose={() => setMasking(null)} />}
      {scan.additionalFiles.length > 0 && (
        <Box>
          <Typography variant="h3">Additional files</Typography>
          <Typography variant="body2" color="text.secondary">
            Not DICOM: left out unless you keep them. They are not anonymized.
          </Typography>
          {scan.additionalFiles.map((file) => (
            <FormControlLabel
              key={file.path}
              sx={{ display: 'flex' }}
              control={
                <Checkbox
                  checked={flow.keptAdditionalFiles.has(file.path)}
                  onChange={(e) => flow.toggleAdditionalFile(file.path, e.target.checked)}
                />
              }
              label={`${file.path} (${formatBytes(file.size)})`}
            />
          ))}
        </Box>
      )}
      {scan.refused.length > 0 && (
        <Box>
          <Typography variant="h3">Files that cannot be used</Typography>
          <List dense>
            {scan.refused.map((file) => (
              <ListItem key={file.path}>
                <ListItemText primary={file.path} secondary={file.reason} />
              </ListItem>
            ))}
          </List>
        </Box>
      )}
    </Stack>
  );
}

/** Masking a series' burned-in text, or why its pixels cannot be masked (compressed). */
function MaskButton({
  series,
  regions,
  onMask,
}: {
  series: { id: string; description: string; maskProblem: string | null };
  regions: number;
  onMask: () => void;
}) {
  if (series.maskProblem)
    return (
      <Typography variant="caption" color="text.secondary" sx={{ maxWidth: 320 }}>
        {series.maskProblem}
      </Typography>
    );
  return (
    <>
      {regions > 0 && (
        <Chip size="small" color="info" label={`${regions} ${regions === 1 ? 'region' : 'regions'} masked`} />
      )}
      <Button size="small" onClick={onMask} aria-label={`Mask text in ${series.description || 'the series'}`}>
        {regions > 0 ? 'Change mask' : 'Mask text'}
      </Button>
    </>
  );
}

const actionLabels: Record<string, string> = {
  X: 'Removed',
  Z: 'Emptied',
  D: 'Replaced by a dummy value',
  U: 'Replaced by a new UID',
  C: 'Date shifted',
  S: 'References renewed',
  K: 'Kept',
};

/** The series included: the dates option, the dataset name, and per series the tags that change. */
export function AnonymizeView() {
  const flow = useImagingFlow();
  const scan = flow.scan;
  if (!scan) return null;
  const included = scan.patients.flatMap((p) =>
    p.studies.flatMap((s) => s.series.filter((x) => !flow.excludedSeries.has(x.id))),
  );
  return (
    <Stack spacing={3}>
      <FormControlLabel
        control={
          <Switch
            checked={flow.modifiedDates}
            disabled={flow.busy}
            onChange={(e) => void flow.setModifiedDates(e.target.checked)}
          />
        }
        label="Keep the time between studies: shift every date of a patient by the same hidden offset instead of removing dates"
      />
      <TextField
        label="Dataset name"
        required
        value={flow.datasetName}
        onChange={(e) => flow.setDatasetName(e.target.value)}
        // The dataset becomes a patient cohort, whose name cannot change (spec §5 "Cohort name").
        helperText={cohortNameWarning}
        slotProps={{ htmlInput: { maxLength: imagingNameMaxLength } }}
        sx={{ maxWidth: 480 }}
      />
      {included.map((series) => (
        <Paper key={series.id} variant="outlined" sx={{ p: 2 }} data-testid="tags-to-anonymize">
          <Typography variant="subtitle1">
            {series.description || 'Series without description'} · {series.modality} · {series.images} images
          </Typography>
          <Table size="small" aria-label={`Tags to anonymize: ${series.description}`}>
            <TableHead>
              <TableRow>
                <TableCell>Tag</TableCell>
                <TableCell>Attribute</TableCell>
                <TableCell>Change</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {series.tagsToAnonymize.map((tag) => (
                <TableRow key={`${tag.tag}-${tag.action}`}>
                  <TableCell>{tag.tag}</TableCell>
                  <TableCell>{tag.name}</TableCell>
                  <TableCell>{actionLabels[tag.action]}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      ))}
      <ProgressLine />
      {flow.error && <Alert severity="error">{flow.error}</Alert>}
    </Stack>
  );
}

/** Whether the anonymize step can go on: something included and a name. */
export function canAnonymize(flow: ReturnType<typeof useImagingFlow>): boolean {
  const included = (flow.scan?.patients ?? []).some((p) =>
    p.studies.some((s) => s.series.some((x) => !flow.excludedSeries.has(x.id))),
  );
  return !flow.busy && included && flow.datasetName.trim() !== '';
}

/** What to upload: a zip just made, or one kept from an upload interrupted before (with the server's path). */
export interface UploadSource {
  zip: Blob;
  name: string;
  note: string;
  /** the tus upload to continue (an upload that was interrupted), or null for a new one */
  resumePath: string | null;
}

interface UploadPanelProps {
  deviceId: string;
  userId: string;
  origin: PendingUpload['origin'];
  source: UploadSource;
  onDataset: (dataset: ImagingDataset) => void;
}

/**
 * Sends the zip (tus), shows progress, speed and time left, "Upload failed" with Try again, then makes the dataset.
 * Until the dataset exists the zip and the upload's path are kept in the browser, so closing the tab loses nothing.
 * A name another patient cohort of the workspace has (spec §3, §5) is asked again on a name field, with the server's
 * message; the zip is not sent again.
 */
export function UploadPanel({ deviceId, userId, origin, source, onDataset }: UploadPanelProps) {
  const [sent, setSent] = useState(0);
  const [failed, setFailed] = useState<string | null>(null);
  const [rate, setRate] = useState<{ bytesPerSecond: number; secondsLeft: number | null } | null>(null);
  const [renaming, setRenaming] = useState<{ uploadId: string; name: string; error: string | null } | null>(null);
  const [creating, setCreating] = useState(false);
  const control = useRef<ImagingUploadControl | null>(null);
  const onDatasetRef = useRef(onDataset);
  useEffect(() => {
    onDatasetRef.current = onDataset;
  }, [onDataset]);

  /** Makes the dataset of the sent zip; `shown` says whether this panel is still there to answer. */
  const makeDataset = useCallback(
    async (uploadId: string, name: string, shown: () => boolean) => {
      try {
        const dataset = await createImagingDataset(deviceId, {
          uploadId,
          name: name || 'Imaging dataset',
          note: source.note,
        });
        await pendingUploads.clear(userId, deviceId);
        if (shown()) onDatasetRef.current(dataset);
      } catch (caught) {
        if (caught instanceof ApiError && caught.code === 'cohort_name_taken')
          setRenaming({ uploadId, name, error: caught.message });
        else setFailed(uploadFailedMessage);
      }
    },
    [deviceId, userId, source.note],
  );
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const rename = async (event: FormEvent) => {
    event.preventDefault();
    if (!renaming || !renaming.name.trim()) return;
    setCreating(true);
    await makeDataset(renaming.uploadId, renaming.name.trim(), () => mounted.current);
    if (mounted.current) setCreating(false);
  };

  useEffect(() => {
    let stopped = false;
    let started: { at: number; sent: number } | null = null;
    let savedAt = 0;
    const begin = async () => {
      if (source.resumePath === null) {
        await pendingUploads.save(
          {
            deviceId,
            userId,
            name: source.name,
            note: source.note,
            bytes: source.zip.size,
            uploadUrl: null,
            sent: 0,
            origin,
            savedAt: new Date().toISOString(),
          },
          source.zip,
        );
      }
      if (stopped) return;
      control.current = startImagingUpload(
        deviceId,
        source.zip,
        {
          onProgress: (bytes, total) => {
            const now = { at: Date.now(), sent: bytes };
            started ??= now;
            setSent(bytes);
            setRate(transferRate(started, now, total));
            if (now.at - savedAt > 1000) {
              savedAt = now.at;
              pendingUploads.update(userId, deviceId, { sent: bytes });
            }
          },
          onUploadPath: (path) => pendingUploads.update(userId, deviceId, { uploadUrl: path }),
          onDone: (uploadId) => void makeDataset(uploadId, source.name, () => !stopped),
          onFailed: () => setFailed(uploadFailedMessage),
        },
        source.resumePath,
      );
    };
    void begin();
    return () => {
      stopped = true;
      control.current?.pause();
    };
  }, [deviceId, userId, origin, source, makeDataset]);

  const percent = source.zip.size > 0 ? (100 * sent) / source.zip.size : 100;
  return (
    <Stack spacing={2} sx={{ maxWidth: 720 }}>
      <LinearProgress variant="determinate" value={percent} aria-label="Upload progress" />
      <Typography variant="body2" data-testid="upload-progress">
        {formatBytes(sent)} of {formatBytes(source.zip.size)}
        {rate && rate.bytesPerSecond > 0 ? ` · ${formatBytes(rate.bytesPerSecond)}/s` : ''}
        {rate?.secondsLeft != null ? ` · about ${Math.max(1, Math.round(rate.secondsLeft / 60))} min left` : ''}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        You can close this tab: the upload continues from where it stopped when you come back.
      </Typography>
      {renaming && (
        <Stack
          component="form"
          aria-label="Name the dataset"
          noValidate
          spacing={1.5}
          onSubmit={(event: FormEvent) => void rename(event)}
          sx={{ alignItems: 'flex-start' }}
        >
          <Typography variant="body2">The images are uploaded; the dataset needs another name.</Typography>
          <TextField
            label="Dataset name"
            required
            value={renaming.name}
            onChange={(event) => setRenaming({ ...renaming, name: event.target.value, error: null })}
            error={renaming.error !== null}
            helperText={renaming.error ?? cohortNameWarning}
            slotProps={{ htmlInput: { maxLength: imagingNameMaxLength } }}
            sx={{ width: '100%', maxWidth: 480 }}
          />
          <Button type="submit" variant="contained" disabled={creating || !renaming.name.trim()}>
            Create the dataset
          </Button>
        </Stack>
      )}
      {failed && (
        <Alert
          severity="error"
          action={
            <Button
              color="inherit"
              onClick={() => {
                setFailed(null);
                control.current?.resume();
              }}
            >
              Try again
            </Button>
          }
        >
          {failed}
        </Alert>
      )}
    </Stack>
  );
}

/** The interrupted upload of this user in this workspace (started where `origin` says), once looked up. */
export function usePendingUpload(userId: string | null, deviceId: string | null, origin: PendingUpload['origin']) {
  // undefined until looked up
  const [state, setState] = useState<{ pending: PendingUpload; zip: Blob } | null | undefined>(undefined);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (!userId || !deviceId) return;
    let live = true;
    void pendingUploads.load(userId, deviceId).then((found) => {
      if (live) setState(found?.pending.origin === origin ? found : null);
    });
    return () => {
      live = false;
    };
  }, [userId, deviceId, origin, version]);
  return { found: state ?? null, loaded: state !== undefined, reload: () => setVersion((v) => v + 1) };
}

/**
 * "An upload was interrupted": resume it (the server keeps what it received) or discard it (after a confirmation:
 * the kept zip and the bytes on the server are removed).
 */
export function InterruptedUpload({
  pending,
  onResume,
  onDiscarded,
}: {
  pending: PendingUpload;
  onResume: () => void;
  onDiscarded: () => void;
}) {
  const [asking, setAsking] = useState<'ask' | 'busy' | null>(null);
  const discard = async () => {
    setAsking('busy');
    if (pending.uploadUrl)
      await fetch(pending.uploadUrl, { method: 'DELETE', headers: { 'Tus-Resumable': '1.0.0' } }).catch(
        () => undefined,
      );
    await pendingUploads.clear(pending.userId, pending.deviceId);
    setAsking(null);
    onDiscarded();
  };
  return (
    <>
      <Alert
        severity="warning"
        data-testid="interrupted-upload"
        action={
          <Stack direction="row" spacing={1}>
            <Button color="inherit" onClick={() => setAsking('ask')}>
              Discard
            </Button>
            <Button color="inherit" variant="outlined" onClick={onResume}>
              Resume upload
            </Button>
          </Stack>
        }
      >
        The upload of “{pending.name}” was interrupted ({formatBytes(pending.sent)} of {formatBytes(pending.bytes)}{' '}
        sent). The anonymized data is kept in this browser: resume to send the rest.
      </Alert>
      <ConfirmDialog
        open={asking !== null}
        title="Discard the interrupted upload?"
        message="The anonymized data kept in this browser and what was sent are removed. To upload the dataset later, you choose and anonymize it again."
        confirmLabel="Discard upload"
        busy={asking === 'busy'}
        onConfirm={() => void discard()}
        onCancel={() => setAsking(null)}
      />
    </>
  );
}
