import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { PatientOriginLabel } from '../../../components/PatientOriginLabel';
import { useCohorts } from '../../cohorts';
import { useWizard } from '../wizardContext';
import { chosenCohorts, toggleId } from '../wizardState';
import { CohortCheckList } from './CohortCheckList';
import { DraftSsmSection } from './DraftSsms';
import { UploadedImagingData } from './UploadedImagingData';
import { StepActions } from './StepActions';
import { StepHeading } from './StepHeading';

/** `/projects/create/patient-cohort-list`: the virtual patient cohorts of the project. */
export function CohortListStep() {
  const { deviceId, draft, change, go, saving } = useWizard();
  const cohorts = useCohorts(deviceId);
  const chosen = chosenCohorts(draft);

  const toggle = (cohortId: string, on: boolean) =>
    change((current) => ({
      ...current,
      existingCohortSelected: toggleId(current.existingCohortSelected, cohortId, on),
      // Unticking a cohort ordered here removes it from the project, not from the workspace.
      newPatientCohortOrders: on
        ? current.newPatientCohortOrders
        : toggleId(current.newPatientCohortOrders, cohortId, false),
    }));

  let body;
  if (cohorts.error && !cohorts.data)
    body = <LoadFailure what="The patient cohorts" error={cohorts.error} retry={() => void cohorts.mutate()} />;
  else if (!cohorts.data) body = <Loading what="the patient cohorts" />;
  else if (cohorts.data.items.length === 0)
    body = <Alert severity="info">This device workspace has no patient cohorts yet. Order the first one.</Alert>;
  else
    body = (
      <CohortCheckList
        label="Patient cohorts of the workspace"
        cohorts={cohorts.data.items.map((cohort) => ({
          id: cohort.id,
          name: cohort.name,
          size: cohort.size,
          status: cohort.status,
          detail: cohort.criteriaSummary,
        }))}
        checked={chosen}
        onToggle={toggle}
      />
    );

  return (
    <div>
      <StepHeading title="Virtual patient cohort">
        Choose the cohorts of virtual patients the device is tested on, or order a new one. A cohort still being
        prepared can be chosen; it is ready for the project once its order completes.
      </StepHeading>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { sm: 'center' } }}>
        <Button variant="outlined" onClick={() => void go('new-patient-cohort')} disabled={saving}>
          Order a new cohort
        </Button>
        <Button onClick={() => void go('previous-patient-cohort-list')} disabled={saving}>
          Cohorts of previous projects
        </Button>
        <Button onClick={() => void go('select-upload-new-cohort-data-type')} disabled={saving}>
          Use your own imaging data
        </Button>
        <PatientOriginLabel origin="synthetic" />
      </Stack>
      {body}
      <UploadedImagingData />
      <DraftSsmSection />
      <StepActions
        onBack={() => void go(draft.options.isCreatingFromScratch ? 'title' : 'previous-project-list')}
        onNext={() => void go('question-of-interest')}
        nextDisabled={chosen.length === 0 && draft.uploadedImagingData.data.length === 0}
        busy={saving}
      >
        {chosen.length === 0 && draft.uploadedImagingData.data.length === 0 && <span>Choose at least one cohort.</span>}
      </StepActions>
    </div>
  );
}
