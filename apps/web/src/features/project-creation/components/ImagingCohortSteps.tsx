import { useEffect, useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  AnonymizeView,
  DicomTreeView,
  ImagingSourceButtons,
  LIMITS_TEXT,
  UploadPanel,
  canAnonymize,
  useImagingFlow,
  type UploadSource,
} from '../../uploads';
import { useWizard } from '../wizardContext';
import { withImagingDataset } from '../wizardState';
import type { WizardRoute } from '../paths';
import { StepActions } from './StepActions';
import { StepHeading } from './StepHeading';

/**
 * The wizard's way to a cohort from the user's own imaging data (spec §2 sub-routes, issue 19 item 1): choose the
 * kind of data, read a .zip or a folder (the tree), anonymize and upload. The dataset joins the draft
 * (`uploadedImagingData`) and becomes an imaging cohort of the project when it is created.
 */

const choices: { route: WizardRoute; title: string; text: string; ownData: boolean }[] = [
  {
    route: 'our-database',
    title: 'Virtual patients from our database',
    text: 'Order a cohort of virtual patients by their criteria.',
    ownData: false,
  },
  {
    route: 'upload-imaging-data',
    title: 'Your imaging data as a .zip',
    text: 'CT or MR images in DICOM, in one .zip of at most 1 GB.',
    ownData: true,
  },
  {
    route: 'upload-data-directory',
    title: 'Your imaging data as a folder',
    text: 'A folder of DICOM files on this computer.',
    ownData: true,
  },
];

/** `/projects/create/select-upload-new-cohort-data-type`: our database or the user's own images. */
export function SelectDataTypeStep() {
  const { go, saving } = useWizard();
  return (
    <div>
      <StepHeading title="New patient cohort">
        Where do the patients come from? Your own images are anonymized in this browser before anything is sent; our
        team then makes the patient models.
      </StepHeading>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        {choices.map((choice) => (
          <Card key={choice.route} variant="outlined" sx={{ flex: 1 }}>
            <CardActionArea
              disabled={saving}
              onClick={() =>
                void go(choice.route, (current) => ({
                  ...current,
                  options: { ...current.options, useUploadedImagingData: choice.ownData },
                }))
              }
            >
              <CardContent>
                <Typography variant="h3" sx={{ fontSize: 18 }}>
                  {choice.title}
                </Typography>
                <Typography color="text.secondary">{choice.text}</Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Stack>
      <Button sx={{ mt: 4 }} onClick={() => void go('patient-cohort-list')} disabled={saving}>
        Back to the cohorts
      </Button>
    </div>
  );
}

/** `upload-imaging-data` (a .zip) and `upload-data-directory` (a folder): read it, then the tree. */
export function ReadImagingDataStep({ kind }: { kind: 'zip' | 'folder' }) {
  const { go, saving } = useWizard();
  const flow = useImagingFlow();
  const [read, setRead] = useState(false);
  const scan = read ? flow.scan : null;
  return (
    <div>
      <StepHeading title={kind === 'zip' ? 'Upload imaging data' : 'Upload a data directory'}>
        {LIMITS_TEXT}
      </StepHeading>
      <ImagingSourceButtons kinds={[kind]} onRead={() => setRead(true)} />
      {scan && (
        <Stack spacing={2} sx={{ mt: 3 }}>
          <Typography color="text.secondary">
            {flow.sourceName}: {scan.dicomFiles} DICOM files
          </Typography>
          <DicomTreeView />
        </Stack>
      )}
      <StepActions
        onBack={() => void go('select-upload-new-cohort-data-type')}
        onNext={() => void go('anonymize-data')}
        nextDisabled={!scan || scan.dicomFiles === 0 || flow.busy}
        busy={saving}
      />
    </div>
  );
}

/** `anonymize-data`: the tags that change, the name, Anonymize; then the upload; the dataset joins the draft. */
export function AnonymizeDataStep() {
  const { deviceId, userId, go, saving, setPageDirty } = useWizard();
  const flow = useImagingFlow();
  const [uploading, setUploading] = useState(false);
  const output = flow.output;
  const name = flow.datasetName.trim();
  const source = useMemo<UploadSource | null>(
    () => (uploading && output ? { zip: output.zip, name, note: '', resumePath: null } : null),
    [uploading, output, name],
  );
  useEffect(() => {
    setPageDirty(uploading);
    return () => setPageDirty(false);
  }, [uploading, setPageDirty]);

  if (!flow.scan)
    return (
      <div>
        <StepHeading title="Anonymize data" />
        <Alert
          severity="info"
          action={<Button onClick={() => void go('select-upload-new-cohort-data-type')}>Choose data</Button>}
        >
          Choose a .zip or a folder of DICOM images first.
        </Alert>
      </div>
    );
  return (
    <div>
      <StepHeading title="Anonymize data">
        DICOM PS3.15 Basic Application Level Confidentiality Profile, applied in this browser. Anonymizing and uploading
        may take up to 30 minutes.
      </StepHeading>
      {source ? (
        <UploadPanel
          deviceId={deviceId}
          userId={userId}
          origin="wizard"
          source={source}
          onDataset={(dataset) => {
            setPageDirty(false);
            void go('patient-cohort-list', (current) => withImagingDataset(current, dataset.id, true));
          }}
        />
      ) : (
        <>
          <AnonymizeView />
          <StepActions
            onBack={() => void go('select-upload-new-cohort-data-type')}
            nextLabel="Anonymize and upload"
            onNext={() => void flow.anonymize().then((ok) => setUploading(ok))}
            nextDisabled={!canAnonymize(flow)}
            busy={saving || flow.busy}
          />
        </>
      )}
    </div>
  );
}
