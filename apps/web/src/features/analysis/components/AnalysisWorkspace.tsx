import { useMemo, useState } from 'react';
import {
  analysisMinPatients,
  analysisMinPatientsMessage,
  type Analysis,
  type AnalysisSettings,
  type CohortParameterTable,
  type Project,
  type TrialOutcomeColumns,
} from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import PeopleOutlineIcon from '@mui/icons-material/PeopleOutline';
import { Loading } from '../../../components/LoadState';
import { PatientOriginLabel } from '../../../components/PatientOriginLabel';
import { useAnalysisSession } from '../hooks/useAnalysisSession';
import type { WorkerPort } from '../worker/analysisProtocol';
import { patientAt, type BlockProps } from './blockProps';
import { AnalysisErrorDialog } from './AnalysisErrorDialog';
import { AnalysisSection } from './AnalysisSection';
import { CorrelationBlock } from './CorrelationBlock';
import { DeviceFitBlock } from './DeviceFitBlock';
import { DroppedParametersNote } from './DroppedParametersNote';
import { ExclusionReasonDialog, type ExclusionChange } from './ExclusionReasonDialog';
import { ExtremeCasesBlock } from './ExtremeCasesBlock';
import { OutlierBlock } from './OutlierBlock';
import { ParameterFilterBlock } from './ParameterFilterBlock';
import { PatientsDrawer } from './PatientsDrawer';
import { PdfGraphBlock } from './PdfGraphBlock';
import { SummaryBlock } from './SummaryBlock';
import { describedExportName } from '../exports';
import { ExportNameContext } from './exportName';
import { keysInUse, rowsWithoutValues, trialRunsOf } from '../trialOutcomes';
import { lackingWhat } from '../measurementColumns';
import { RepresentativenessBlock } from './RepresentativenessBlock';
import { AnalysisReportButton } from './AnalysisReportButton';

interface AnalysisWorkspaceProps {
  deviceId: string;
  project: Project;
  analysis: Analysis;
  table: CohortParameterTable;
  /** Loads the stored analysis again (after a conflict). */
  reload: () => void;
  /** Starts the analysis worker (tests pass a fake). */
  startWorker?: () => WorkerPort;
  /** The outcome columns of the project's trials on the cohort: their runs open from the extreme cases. */
  trials?: readonly TrialOutcomeColumns[];
}

const noTrials: readonly TrialOutcomeColumns[] = [];

/** An open analysis: its inputs, the recalculation on every change (spec §4) and the blocks of spec §2. */
export function AnalysisWorkspace({
  deviceId,
  project,
  analysis,
  table,
  reload,
  startWorker,
  trials = noTrials,
}: AnalysisWorkspaceProps) {
  const { state, dispatch, broken } = useAnalysisSession(
    deviceId,
    project.id,
    analysis,
    table,
    startWorker ? { startWorker } : {},
  );
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [errorDismissed, setErrorDismissed] = useState(false);
  const { draft, outcome, failure, conflict } = state;
  // A change waiting for its save counts as saving: the page never says Saved before the server has it.
  const loading = { ...state.loading, patients: state.loading.patients || (state.dirty && !conflict) };
  const canEdit = analysis.canEdit;
  const parameterOf = useMemo(() => new Map(table.parameters.map((p) => [p.key, p])), [table]);
  const trialRuns = useMemo(() => trialRunsOf(trials, draft.parameters), [trials, draft.parameters]);
  const setSettings = (settings: AnalysisSettings) => dispatch({ type: 'change', change: { settings } });
  // Each exclusion or inclusion asks its reason first (issue 20); the change is made once it is given.
  const [asking, setAsking] = useState<ExclusionChange | null>(null);
  const [lastReason, setLastReason] = useState('');
  const exclude = (ids: string[]) => {
    const added = ids.filter((id) => !draft.excluded.includes(id));
    if (added.length > 0) setAsking({ kind: 'exclude', ids: added });
  };
  const include = (ids: readonly string[]) => {
    const removed = ids.filter((id) => draft.excluded.includes(id));
    if (removed.length > 0) setAsking({ kind: 'include', ids: removed });
  };
  const toggle = (id: string) => (draft.excluded.includes(id) ? include([id]) : exclude([id]));

  const outliers = useMemo(() => {
    if (!outcome) return new Set<string>();
    const rows = new Set<number>(outcome.analysis.mahalanobis?.indices ?? []);
    for (const parameter of outcome.analysis.parameters) for (const row of parameter.outliers.indices) rows.add(row);
    return new Set([...rows].map((row) => patientAt(outcome, table, row)));
  }, [outcome, table]);

  const included = table.patients.length - draft.excluded.length;
  // Patients left out for want of a trial outcome in use (not excluded by anyone: they come back with the value).
  const excludedIds = new Set(draft.excluded);
  const inUse = keysInUse(draft.parameters, draft.settings);
  const withoutOutcome = rowsWithoutValues(table, inUse).filter((row) => !excludedIds.has(table.patients[row]!)).length;
  const lacking = lackingWhat(table, inUse);
  // The patients the calculation counts: included, with a value of every parameter in use.
  const counted = included - withoutOutcome;
  const tooFew = table.patients.length < analysisMinPatients || failure?.code === 'insufficient_patients';
  const block: BlockProps | null = outcome ? { outcome, table, draft, parameterOf, canEdit, exclude } : null;

  return (
    // Every CSV of this analysis is named after its cohort and the analysis (`HF50-annulus-summary-2026-11-25.csv`).
    <ExportNameContext value={describedExportName([analysis.cohort.name, analysis.name])}>
      <Stack spacing={3}>
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          sx={{ alignItems: { md: 'center' }, justifyContent: 'space-between' }}
        >
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography>
              Cohort <strong>{analysis.cohort.name}</strong>: {included} of {table.patients.length} patients included
              {withoutOutcome > 0 &&
                ` (${withoutOutcome} without a value of a ${lacking} in use are left out of the calculation)`}
            </Typography>
            <PatientOriginLabel origin={analysis.cohort.source === 'imaging' ? 'imaging' : 'synthetic'} />
            {loading.patients && <Chip size="small" label="Saving…" />}
            {loading.alpha > 0 && (
              <Chip
                size="small"
                icon={<CircularProgress size={14} aria-hidden="true" />}
                label={`Recalculating (${loading.alpha})`}
                role="status"
              />
            )}
            {!canEdit && <Chip size="small" label="Read only" variant="outlined" />}
          </Stack>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
            <AnalysisReportButton
              deviceId={deviceId}
              projectId={project.id}
              analysisId={analysis.id}
              disabledReason={
                tooFew
                  ? analysisMinPatientsMessage
                  : canEdit && loading.patients
                    ? 'The report shows the saved analysis: wait until the change is saved.'
                    : null
              }
            />
            <Button variant="outlined" startIcon={<PeopleOutlineIcon />} onClick={() => setDrawerOpen(true)}>
              Patients{draft.excluded.length > 0 ? ` (${draft.excluded.length} excluded)` : ''}
            </Button>
          </Stack>
        </Stack>
        <DroppedParametersNote dropped={state.dropped} onClose={() => dispatch({ type: 'dropped-seen' })} />
        {conflict && (
          <Alert
            severity="warning"
            action={
              <Button color="inherit" size="small" onClick={reload}>
                Reload
              </Button>
            }
          >
            This analysis was changed in another tab or by someone else since you opened it. Reload it to see the latest
            version; your last change was not saved.
          </Alert>
        )}
        <AnalysisSection title="Parameter filter">
          <ParameterFilterBlock
            parameters={table.parameters}
            chosen={draft.parameters}
            settings={draft.settings}
            canEdit={canEdit}
            onParameters={(parameters) =>
              dispatch({
                type: 'change',
                change: {
                  parameters,
                  // The sizing proposal must stay on an analysed parameter (the server checks it too).
                  ...(draft.settings.sizingParameter && !parameters.includes(draft.settings.sizingParameter)
                    ? { settings: { ...draft.settings, sizingParameter: null } }
                    : {}),
                },
              })
            }
            onSettings={setSettings}
          />
        </AnalysisSection>
        {tooFew ? (
          <Alert severity="info">
            {analysisMinPatientsMessage} This analysis has {counted} {counted === 1 ? 'patient' : 'patients'}
            {draft.excluded.length > 0 ? ` (${draft.excluded.length} excluded — include some again in Patients)` : ''}
            {withoutOutcome > 0 ? ` (${withoutOutcome} without a value of a ${lacking} in use)` : ''}. Choose a cohort
            of at least {analysisMinPatients} patients to see the statistics.
          </Alert>
        ) : !block ? (
          <Loading what="the results" />
        ) : (
          <>
            <AnalysisSection title="Summary">
              <SummaryBlock outcome={block.outcome} parameterOf={parameterOf} />
            </AnalysisSection>
            <AnalysisSection title="Outliers">
              <OutlierBlock {...block} />
            </AnalysisSection>
            <AnalysisSection title="PDF graph">
              <PdfGraphBlock {...block} setBandwidth={(bandwidth) => setSettings({ ...draft.settings, bandwidth })} />
            </AnalysisSection>
            <AnalysisSection title="Correlations">
              <CorrelationBlock {...block} recalculating={loading.correlation} />
            </AnalysisSection>
            <AnalysisSection title="Extreme cases">
              <ExtremeCasesBlock
                outcome={block.outcome}
                table={table}
                deviceId={deviceId}
                projectId={project.id}
                cohortId={analysis.cohort.id}
                cohortSource={analysis.cohort.source}
                canOpenRooms={canEdit}
                runsOf={(patientId) => trialRuns.get(patientId) ?? []}
              />
            </AnalysisSection>
            <AnalysisSection title="Device fit">
              <DeviceFitBlock
                {...block}
                versions={project.deviceVersions.filter((v) => v.status === 'ready')}
                setSettings={setSettings}
              />
            </AnalysisSection>
            <AnalysisSection title="Representativeness">
              <RepresentativenessBlock
                deviceId={deviceId}
                projectId={project.id}
                analysisId={analysis.id}
                cohortName={analysis.cohort.name}
                cohortSource={analysis.cohort.source}
                table={table}
                parameters={draft.parameters}
              />
            </AnalysisSection>
          </>
        )}
        <PatientsDrawer
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          table={table}
          excluded={draft.excluded}
          outliers={outliers}
          loading={loading}
          canEdit={canEdit}
          onToggle={toggle}
          onExclude={exclude}
          onInclude={include}
        />
        <ExclusionReasonDialog
          change={asking}
          lastReason={lastReason}
          onConfirm={(reason) => {
            if (asking) dispatch({ type: asking.kind, ids: asking.ids, reason });
            setLastReason(reason);
            setAsking(null);
          }}
          onCancel={() => setAsking(null)}
        />
        <AnalysisErrorDialog
          open={(broken || failure?.code === 'failed' || failure?.code === 'invalid_input') && !errorDismissed}
          onCancel={() => setErrorDismissed(true)}
        />
      </Stack>
    </ExportNameContext>
  );
}
