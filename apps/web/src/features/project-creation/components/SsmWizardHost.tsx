import { Outlet, useSearchParams } from 'react-router';
import { useCohorts } from '../../cohorts';
import { emptySsmDraft, SsmFlowHostContext, type SsmFlowHost } from '../../ssm';
import { addDraftSsm } from '../api';
import { useWizard } from '../wizardContext';
import { chosenCohorts } from '../wizardState';
import { DraftSsmsComplete } from './DraftSsms';

/**
 * The new-ssm-* routes (issue 18): on a project (`?project=`) the SSM steps run on their own; in the wizard they run
 * in its draft — the SSM being typed in `newSsm`, the cohorts those chosen for the project, and the Name step adding
 * the SSM to the draft once the server has checked it.
 */
export function SsmWizardHost() {
  const [params] = useSearchParams();
  return params.get('project') ? <Outlet /> : <DraftSsmHost />;
}

function DraftSsmHost() {
  const wizard = useWizard();
  const { deviceId, draft, change, go, saving } = wizard;
  const cohorts = useCohorts(deviceId);
  const chosen = chosenCohorts(draft);
  const items = cohorts.data?.items.filter((cohort) => chosen.includes(cohort.id));
  const host: SsmFlowHost = {
    deviceId,
    draft: draft.newSsm ?? emptySsmDraft,
    setDraft: (update) => change((current) => ({ ...current, newSsm: update(current.newSsm ?? emptySsmDraft) })),
    cohorts: {
      items,
      error: cohorts.error,
      empty: 'Choose the project’s patient cohorts first: an SSM is built from them.',
    },
    go: (route) => void go(route),
    create: async (body) => {
      const answer = await addDraftSsm(deviceId, body);
      await go('new-ssm-complete', (current) => answer.state ?? current);
    },
    createLabel: 'Add the SSM',
    waitForCohorts: true,
    back: () => void go('patient-cohort-list'),
    embedded: true,
    busy: saving,
    completePage: <DraftSsmsComplete />,
  };
  return (
    <SsmFlowHostContext.Provider value={host}>
      <Outlet />
    </SsmFlowHostContext.Provider>
  );
}
