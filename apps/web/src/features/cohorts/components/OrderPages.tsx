import { useNavigate } from 'react-router';
import { useSWRConfig } from 'swr';
import { Page } from '../../../components/Page';
import { cohortUrls } from '../api';
import { useCohortDraft } from '../hooks/useCohortDraft';
import { cohortPath, createPath, orderPath } from '../paths';
import { CohortOrderFlow, type CohortOrderStep } from './CohortOrderFlow';
import { CohortWorkspace } from './CohortWorkspace';
import { PatientOriginLabel } from '../../../components/PatientOriginLabel';

function OrderPage({ step }: { step: CohortOrderStep }) {
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const { draft, update, clear } = useCohortDraft();
  return (
    <Page
      section="Patient cohorts"
      title={step === 'criteria' ? 'Create a patient cohort' : 'Order patients'}
      description={
        step === 'criteria'
          ? 'Choose the virtual patients by pathology, sex, age, origin, heart-cycle phase and body dimensions.'
          : 'Choose how many patients to draw, and name the cohort.'
      }
      actions={<PatientOriginLabel origin="synthetic" size="medium" />}
    >
      <CohortWorkspace refuseGuests>
        {(deviceId) => (
          <CohortOrderFlow
            deviceId={deviceId}
            step={step}
            criteria={draft.criteria}
            onCriteriaChange={(criteria) => update({ criteria })}
            details={draft}
            onDetailsChange={update}
            onNext={() => void navigate(orderPath)}
            onBack={() => void navigate(createPath)}
            onOrdered={(cohort) => {
              clear();
              void mutate(cohortUrls.list(deviceId));
              void navigate(cohortPath(deviceId, cohort.id));
            }}
          />
        )}
      </CohortWorkspace>
    </Page>
  );
}

/** /patient-cohort/create: the criteria with the live count. */
export function CreateCohortPage() {
  return <OrderPage step="criteria" />;
}

/** /patient-cohort/order-patient: size, name and description; places the order. */
export function OrderPatientsPage() {
  return <OrderPage step="order" />;
}
