import { lazy, Suspense, useMemo } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useSignedInUser } from '../../../app/user/userContext';
import { Page } from '../../../components/Page';
import { useSelectedDevice } from '../../devices';
import { PatientOriginLabel } from '../../../components/PatientOriginLabel';
import { imagingPatientPath } from '../../imaging-patients';
import { imagingUrls, useImagingDataset } from '../api';
import { LIMITS_TEXT } from '../imaging/limits';
import { useImagingFlow } from './ImagingFlowContext';
import { uploadImagesBase } from './UploadImagesLayout';
import {
  AnonymizeView,
  DicomTreeView,
  ImagingSourceButtons,
  InterruptedUpload,
  UploadPanel,
  canAnonymize,
  usePendingUpload,
  type UploadSource,
} from './ImagingViews';

const SliceViewer = lazy(async () => ({ default: (await import('../viewer/SliceViewer')).SliceViewer }));

const section = 'Image upload';
const base = uploadImagesBase;

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

/** An upload interrupted before (closed tab, lost connection): offered on the first page of the flow. */
function InterruptedUploadOffer() {
  const user = useSignedInUser();
  const deviceId = useSelectedDevice().data?.device?.deviceId ?? null;
  const navigate = useNavigate();
  const { found, reload } = usePendingUpload(user.id, deviceId, 'upload-images');
  if (!found) return null;
  return (
    <InterruptedUpload
      pending={found.pending}
      onResume={() => void navigate(`${base}/upload-anonymized-data?resume=1`)}
      onDiscarded={reload}
    />
  );
}

/** /upload-images: what the upload is and what it needs. */
export function UploadImagesIntroPage() {
  return (
    <Page section={section} title="Upload images" description="Build a patient cohort from your own imaging data.">
      <Stack spacing={2} sx={{ maxWidth: 720 }}>
        <InterruptedUploadOffer />
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
  const navigate = useNavigate();
  return (
    <Page section={section} title="Upload" description={LIMITS_TEXT}>
      <ImagingSourceButtons kinds={['zip', 'folder']} onRead={() => navigate(`${base}/upload-dicom-images`)} />
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
          <DicomTreeView />
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
  const onAnonymize = async () => {
    if (await flow.anonymize()) await navigate(`${base}/upload-anonymized-data`);
  };
  return (
    <Page
      section={section}
      title="Anonymize data"
      description="DICOM PS3.15 Basic Application Level Confidentiality Profile, applied in this browser."
    >
      {!flow.scan ? (
        <NeedsDataset />
      ) : (
        <Stack spacing={3}>
          <AnonymizeView />
          <Box>
            <Button variant="contained" disabled={!canAnonymize(flow)} onClick={() => void onAnonymize()}>
              Anonymize
            </Button>
          </Box>
        </Stack>
      )}
    </Page>
  );
}

/**
 * /upload-images/upload-anonymized-data: the anonymized zip sent resumably, then the dataset made. With `?resume=1`
 * it continues the upload interrupted before (the zip kept in this browser, the rest sent from the server's offset).
 */
export function UploadAnonymizedDataPage() {
  const flow = useImagingFlow();
  const navigate = useNavigate();
  const user = useSignedInUser();
  const deviceId = useSelectedDevice().data?.device?.deviceId ?? null;
  const [params] = useSearchParams();
  const resuming = params.get('resume') === '1';
  const { found, loaded } = usePendingUpload(resuming ? user.id : null, deviceId, 'upload-images');
  const output = flow.output;
  const name = flow.datasetName.trim();
  const source = useMemo<UploadSource | null>(() => {
    if (output) return { zip: output.zip, name, note: '', resumePath: null };
    if (found)
      return {
        zip: found.zip,
        name: found.pending.name,
        note: found.pending.note,
        resumePath: found.pending.uploadUrl,
      };
    return null;
  }, [output, name, found]);

  return (
    <Page
      section={section}
      title="Upload anonymized data"
      description="Anonymizing and uploading may take up to 30 minutes."
    >
      {!deviceId || !source ? (
        resuming && !loaded ? (
          <LinearProgress />
        ) : (
          <NeedsDataset />
        )
      ) : (
        <UploadPanel
          deviceId={deviceId}
          userId={user.id}
          origin="upload-images"
          source={source}
          onDataset={(dataset) => void navigate(`${base}/success?dataset=${dataset.id}`)}
        />
      )}
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
          {dataset.status === 'modelling' && (
            <Alert severity="success">
              Every file is anonymized. {dataset.counts?.patients} patients, {dataset.counts?.series} series,{' '}
              {dataset.counts?.files} files. The patient models are being made; the cohort is ready when they are.
            </Alert>
          )}
          {dataset.status === 'ready' && dataset.models && (
            <Alert severity="success" data-testid="imaging-cohort-ready">
              The imaging cohort is ready: patient models of {dataset.models.patients.length}{' '}
              {dataset.models.patients.length === 1 ? 'patient' : 'patients'} (
              {[...new Set(dataset.models.patients.flatMap((p) => p.models.map((m) => `${m.organ} ${m.phase}`)))].join(
                ', ',
              )}
              ).
            </Alert>
          )}
          {deviceId && dataset.status === 'ready' && dataset.projectId && dataset.models && (
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
              <Typography variant="body2">Patients:</Typography>
              {dataset.models.patients.map((patient) => (
                <Link
                  key={patient.patient}
                  component={RouterLink}
                  to={imagingPatientPath(deviceId, dataset.projectId!, dataset.id, patient.patient)}
                >
                  {patient.patient}
                </Link>
              ))}
              <PatientOriginLabel origin="imaging" />
            </Stack>
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
          {deviceId && (dataset.status === 'modelling' || dataset.status === 'ready') && (
            <Box>
              <Typography variant="h3" sx={{ mb: 1 }}>
                Images
              </Typography>
              <Suspense fallback={<LinearProgress />}>
                <SliceViewer url={imagingUrls.file(deviceId, dataset.id)} />
              </Suspense>
            </Box>
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
