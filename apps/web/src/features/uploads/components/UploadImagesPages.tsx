import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
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
import { imagingNameMaxLength, uploadFailedMessage } from '@insilico/contracts';
import { Page } from '../../../components/Page';
import { useSelectedDevice } from '../../devices';
import { createImagingDataset, useImagingDataset } from '../api';
import { LIMITS_TEXT } from '../imaging/limits';
import { startImagingUpload, transferRate, type ImagingUploadControl } from '../imaging/imagingUpload';
import { useImagingFlow } from './ImagingFlowContext';

const section = 'Image upload';
const base = '/upload-images';

const formatBytes = (bytes: number): string =>
  bytes >= 1024 ** 3
    ? `${(bytes / 1024 ** 3).toFixed(2)} GB`
    : bytes >= 1024 ** 2
      ? `${(bytes / 1024 ** 2).toFixed(1)} MB`
      : `${Math.max(1, Math.round(bytes / 1024))} KB`;

function ProgressLine() {
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

function NeedsDataset() {
  return (
    <Alert
      severity="info"
      action={
        <Button component={RouterLink} to={`${base}/upload`}>
          Choose data
        </Button>
      }
    >
      Choose a .zip or a folder of DICOM images first.
    </Alert>
  );
}

/** /upload-images: what the upload is and what it needs. */
export function UploadImagesIntroPage() {
  return (
    <Page section={section} title="Upload images" description="Build a patient cohort from your own imaging data.">
      <Stack spacing={2} sx={{ maxWidth: 720 }}>
        <Typography>
          Your images are read and anonymized in this browser: names, dates, identifiers and private tags are removed
          before anything is sent. You see which tags change before you confirm.
        </Typography>
        <Alert severity="info">{LIMITS_TEXT}</Alert>
        <Box>
          <Button variant="contained" component={RouterLink} to={`${base}/upload`}>
            Choose imaging data
          </Button>
        </Box>
      </Stack>
    </Page>
  );
}

/** /upload-images/upload: a .zip or a folder, read in the imaging worker. */
export function ChooseImagingDataPage() {
  const flow = useImagingFlow();
  const navigate = useNavigate();
  const onZip = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file && (await flow.read({ kind: 'zip', file }, file.name))) await navigate(`${base}/upload-dicom-images`);
  };
  const onFolder = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])].map((file) => ({ path: file.webkitRelativePath || file.name, file }));
    event.target.value = '';
    const name = files[0]?.path.split('/')[0] ?? 'folder';
    if (files.length > 0 && (await flow.read({ kind: 'folder', files }, name)))
      await navigate(`${base}/upload-dicom-images`);
  };
  return (
    <Page section={section} title="Upload" description={LIMITS_TEXT}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
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
        <Button variant="outlined" component="label" disabled={flow.busy}>
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
      </Stack>
      <ProgressLine />
      {flow.error && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {flow.error}
        </Alert>
      )}
    </Page>
  );
}

/** /upload-images/upload-dicom-images: patients → studies → series; what goes and what stays. */
export function DicomTreePage() {
  const flow = useImagingFlow();
  const navigate = useNavigate();
  const scan = flow.scan;
  return (
    <Page
      section={section}
      title="Upload DICOM images"
      description={scan ? `${flow.sourceName}: ${scan.dicomFiles} DICOM files` : undefined}
    >
      {!scan ? (
        <NeedsDataset />
      ) : (
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
                    <Stack key={series.id} direction="row" spacing={1} sx={{ alignItems: 'center', ml: 2 }}>
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
                    </Stack>
                  ))}
                </Box>
              ))}
            </Paper>
          ))}
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
          <Box>
            <Button
              variant="contained"
              disabled={scan.dicomFiles === 0}
              onClick={() => void navigate(`${base}/anonymize-data`)}
            >
              Continue
            </Button>
          </Box>
        </Stack>
      )}
    </Page>
  );
}

/** /upload-images/anonymize-data: the tags that change per series, the dates option, the name; then anonymize. */
export function AnonymizeDataPage() {
  const flow = useImagingFlow();
  const navigate = useNavigate();
  const scan = flow.scan;
  const included = (scan?.patients ?? []).flatMap((p) =>
    p.studies.flatMap((s) => s.series.filter((x) => !flow.excludedSeries.has(x.id))),
  );
  const onAnonymize = async () => {
    if (await flow.anonymize()) await navigate(`${base}/upload-anonymized-data`);
  };
  return (
    <Page
      section={section}
      title="Anonymize data"
      description="DICOM PS3.15 Basic Application Level Confidentiality Profile, applied in this browser."
    >
      {!scan ? (
        <NeedsDataset />
      ) : (
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
          <Box>
            <Button
              variant="contained"
              disabled={flow.busy || included.length === 0 || flow.datasetName.trim() === ''}
              onClick={() => void onAnonymize()}
            >
              Anonymize
            </Button>
          </Box>
        </Stack>
      )}
    </Page>
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

/** /upload-images/upload-anonymized-data: the anonymized zip sent resumably, then the dataset made. */
export function UploadAnonymizedDataPage() {
  const flow = useImagingFlow();
  const navigate = useNavigate();
  const deviceId = useSelectedDevice().data?.device?.deviceId ?? null;
  const [sent, setSent] = useState(0);
  const [failed, setFailed] = useState<string | null>(null);
  const [rate, setRate] = useState<{ bytesPerSecond: number; secondsLeft: number | null } | null>(null);
  const control = useRef<ImagingUploadControl | null>(null);
  const zip = flow.output?.zip ?? null;
  const name = flow.datasetName.trim();

  useEffect(() => {
    if (!zip || !deviceId) return;
    let started: { at: number; sent: number } | null = null;
    control.current = startImagingUpload(deviceId, zip, {
      onProgress: (bytes, total) => {
        const now = { at: Date.now(), sent: bytes };
        started ??= now;
        setSent(bytes);
        setRate(transferRate(started, now, total));
      },
      onDone: (uploadId) => {
        createImagingDataset(deviceId, { uploadId, name: name || 'Imaging dataset' }).then(
          (dataset) => void navigate(`${base}/success?dataset=${dataset.id}`),
          () => setFailed(uploadFailedMessage),
        );
      },
      onFailed: () => setFailed(uploadFailedMessage),
    });
    return () => control.current?.pause();
  }, [zip, deviceId, name, navigate]);

  if (!zip) {
    return (
      <Page section={section} title="Upload anonymized data">
        <NeedsDataset />
      </Page>
    );
  }
  const percent = zip.size > 0 ? (100 * sent) / zip.size : 100;
  return (
    <Page
      section={section}
      title="Upload anonymized data"
      description="Anonymizing and uploading may take up to 30 minutes."
    >
      <Stack spacing={2} sx={{ maxWidth: 720 }}>
        <LinearProgress variant="determinate" value={percent} aria-label="Upload progress" />
        <Typography variant="body2" data-testid="upload-progress">
          {formatBytes(sent)} of {formatBytes(zip.size)}
          {rate && rate.bytesPerSecond > 0 ? ` · ${formatBytes(rate.bytesPerSecond)}/s` : ''}
          {rate?.secondsLeft != null ? ` · about ${Math.max(1, Math.round(rate.secondsLeft / 60))} min left` : ''}
        </Typography>
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
    </Page>
  );
}

/** /upload-images/success: the dataset arrived; the server's check and what happens next. */
export function UploadSuccessPage() {
  const [params] = useSearchParams();
  const deviceId = useSelectedDevice().data?.device?.deviceId ?? null;
  const { data: dataset, error } = useImagingDataset(deviceId, params.get('dataset'));
  return (
    <Page section={section} title="Upload complete">
      {error && <Alert severity="error">{error.message}</Alert>}
      {!dataset && !error && <LinearProgress />}
      {dataset && (
        <Stack spacing={2} sx={{ maxWidth: 720 }}>
          <Typography variant="h3">{dataset.name}</Typography>
          {dataset.status === 'checking' && <Alert severity="info">Checking every file on the server…</Alert>}
          {(dataset.status === 'modelling' || dataset.status === 'ready') && (
            <Alert severity="success">
              Every file is anonymized. {dataset.counts?.patients} patients, {dataset.counts?.series} series,{' '}
              {dataset.counts?.files} files. The patient models are being made; the cohort is ready when they are.
            </Alert>
          )}
          {dataset.status === 'refused' && (
            <>
              <Alert severity="error">
                The dataset was refused: these files still identify someone or are not DICOM.
              </Alert>
              <List dense>
                {dataset.findings.map((finding, i) => (
                  <ListItem key={i}>
                    <ListItemText
                      primary={finding.file}
                      secondary={`${finding.tag ? `${finding.tag} ` : ''}${finding.problem}`}
                    />
                  </ListItem>
                ))}
              </List>
            </>
          )}
          <Box>
            <Button component={RouterLink} to={`${base}/upload`}>
              Upload another dataset
            </Button>
          </Box>
        </Stack>
      )}
    </Page>
  );
}
