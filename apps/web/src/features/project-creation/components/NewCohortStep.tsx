import { useMemo } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { createDefaultCriteria, validateCriteria, type CohortCriteria } from '@insilico/anatomy';
import type { CohortOrderDraft } from '@insilico/contracts';
import { PatientOriginLabel } from '../../../components/PatientOriginLabel';
import { CohortOrderFlow, useCohorts, type OrderDetails } from '../../cohorts';
import { useWizard } from '../wizardContext';
import { StepHeading } from './StepHeading';

const emptyOrder: CohortOrderDraft = { step: 'criteria', criteria: null, name: '', description: '', size: null };

/** The saved criteria if they still fit the criteria rules, else a fresh default (e.g. after an upgrade). */
function criteriaOf(order: CohortOrderDraft): CohortCriteria {
  const saved = order.criteria as unknown as CohortCriteria | null;
  return saved && validateCriteria(saved).length === 0 ? saved : createDefaultCriteria();
}

/**
 * `/projects/create/new-patient-cohort`: the cohort ordering flow of /patient-cohort/*, inline. The order being
 * typed lives in the draft (`firstPatientCohort`), so a reload keeps it; the ordered cohort joins the project.
 */
export function NewCohortStep() {
  const { deviceId, draft, change, save, go, saving } = useWizard();
  const cohorts = useCohorts(deviceId);
  const order = draft.firstPatientCohort ?? emptyOrder;
  const criteria = useMemo(() => criteriaOf(order), [order]);
  const update = (next: Partial<CohortOrderDraft>) =>
    change((current) => ({
      ...current,
      firstPatientCohort: { ...(current.firstPatientCohort ?? emptyOrder), ...next },
    }));

  return (
    <div>
      <StepHeading title="Order a new patient cohort">
        Choose the virtual patients by their criteria, then the size and name of the cohort. It is prepared in the
        background and joins this project.
      </StepHeading>
      <Box sx={{ mb: 2 }}>
        <PatientOriginLabel origin="synthetic" />
      </Box>
      <CohortOrderFlow
        deviceId={deviceId}
        step={order.step}
        criteria={criteria}
        onCriteriaChange={(next) => update({ criteria: next })}
        details={{ name: order.name, description: order.description, size: order.size }}
        onDetailsChange={(details: Partial<OrderDetails>) => update(details)}
        onNext={() => void save((current) => ({ ...current, firstPatientCohort: { ...order, step: 'order' } }))}
        onBack={() => void save((current) => ({ ...current, firstPatientCohort: { ...order, step: 'criteria' } }))}
        onOrdered={(cohort) => {
          void cohorts.mutate();
          void go('patient-cohort-list', (current) => ({
            ...current,
            firstPatientCohort: null,
            newPatientCohortOrders: [...current.newPatientCohortOrders, cohort.id],
          }));
        }}
      />
      {order.step === 'criteria' && (
        <Button sx={{ mt: 2 }} onClick={() => void go('patient-cohort-list')} disabled={saving}>
          Back to the cohorts
        </Button>
      )}
    </div>
  );
}
