import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { PatientOriginLabel } from '../../../components/PatientOriginLabel';
import { usePreviousProjects } from '../api';
import { useWizard } from '../wizardContext';
import { chosenCohorts, toggleId } from '../wizardState';
import { CohortCheckList } from './CohortCheckList';
import { StepActions } from './StepActions';
import { StepHeading } from './StepHeading';

/** `/projects/create/previous-patient-cohort-list`: reuse the cohorts of earlier projects, project by project. */
export function PreviousCohortListStep() {
  const { deviceId, draft, change, go, saving } = useWizard();
  const projects = usePreviousProjects(deviceId);
  const chosen = chosenCohorts(draft);
  const withCohorts = projects.data?.items.filter((project) => project.cohorts.length > 0) ?? [];

  let body;
  if (projects.error && !projects.data)
    body = <LoadFailure what="The projects" error={projects.error} retry={() => void projects.mutate()} />;
  else if (!projects.data) body = <Loading what="the projects" />;
  else if (withCohorts.length === 0)
    body = <Alert severity="info">No previous project of this device workspace has a patient cohort yet.</Alert>;
  else
    body = withCohorts.map((project) => (
      <Box key={project.id} sx={{ mb: 2 }}>
        <Typography variant="subtitle1" component="h3">
          {project.name}
        </Typography>
        <CohortCheckList
          label={`Cohorts of ${project.name}`}
          cohorts={project.cohorts}
          checked={chosen}
          onToggle={(cohortId, on) =>
            change((current) => ({
              ...current,
              existingCohortSelected: toggleId(current.existingCohortSelected, cohortId, on),
            }))
          }
        />
      </Box>
    ));

  return (
    <div>
      <StepHeading title="Cohorts of previous projects">
        Reuse a cohort an earlier project of this workspace was tested on.
      </StepHeading>
      <Box sx={{ mb: 2 }}>
        <PatientOriginLabel origin="synthetic" />
      </Box>
      {body}
      <StepActions
        onBack={() => void go('patient-cohort-list')}
        backLabel="All cohorts"
        onNext={() => void go('question-of-interest')}
        nextDisabled={chosen.length === 0}
        busy={saving}
      />
    </div>
  );
}
