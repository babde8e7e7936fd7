import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { AnalysisSummary } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import AddIcon from '@mui/icons-material/Add';
import { Loading, LoadFailure } from '../../../components/LoadState';
import { Page } from '../../../components/Page';
import { formatDate } from '../../../lib/formatDate';
import { useSelectedDevice } from '../../devices';
import {
  useAnalysis,
  useAnalysisProjects,
  useParameterTable,
  useProjectAnalyses,
  useTrialOutcomeColumns,
  useMeasurementOrdersOn,
} from '../api';
import { withTrialOutcomes } from '../trialOutcomes';
import { withMeasurements } from '../measurementColumns';
import { AnalysisWorkspace } from './AnalysisWorkspace';
import { NewAnalysisForm } from './NewAnalysisForm';

const analysisTitle = (item: AnalysisSummary) => item.name || `${item.cohort.name}, ${formatDate(item.createdAt)}`;

/** /population-analysis/overview: choose a project and one of its analyses (or start one), then analyse. */
export function PopulationAnalysisPage() {
  const [params, setParams] = useSearchParams();
  const projectId = params.get('project');
  const analysisId = params.get('analysis');
  const [creating, setCreating] = useState(false);
  const device = useSelectedDevice();
  const deviceId = device.data?.device?.deviceId ?? null;
  const projects = useAnalysisProjects(deviceId);
  const analyses = useProjectAnalyses(deviceId, projectId);
  const project = projects.data?.items.find((item) => item.id === projectId) ?? null;
  const analysis = useAnalysis(deviceId, project ? projectId : null, analysisId);
  const table = useParameterTable(deviceId, project ? projectId : null, analysis.data?.cohort ?? null);
  // The outcomes of the project's trials on the cohort join the anatomical parameters (issue 17).
  const outcomes = useTrialOutcomeColumns(deviceId, project ? projectId : null, analysis.data?.cohort.id ?? null);
  // So do the measurements of the workspace's ready orders on it (issue 23).
  const measured = useMeasurementOrdersOn(deviceId, analysis.data?.cohort.id ?? null);
  const merged = useMemo(
    () =>
      table.data && outcomes.data && measured.data
        ? withMeasurements(withTrialOutcomes(table.data, outcomes.data), measured.data)
        : null,
    [table.data, outcomes.data, measured.data],
  );

  const choose = (next: { project?: string | null; analysis?: string | null }) => {
    const search = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) {
      if (value) search.set(key, value);
      else search.delete(key);
    }
    setParams(search);
    setCreating(false);
  };

  let body;
  if (device.error)
    body = <LoadFailure what="Your workspace" error={device.error} retry={() => void device.mutate()} />;
  else if (!device.data) body = <Loading what="your workspace" />;
  else if (!deviceId)
    body = <Alert severity="info">Population analyses belong to a device workspace. Set one up first.</Alert>;
  else if (projects.error)
    body = <LoadFailure what="The projects" error={projects.error} retry={() => void projects.mutate()} />;
  else if (!projects.data) body = <Loading what="the projects" />;
  else if (projects.data.items.length === 0)
    body = (
      <Alert severity="info">
        There is no project in this workspace yet. An analysis belongs to a project and uses its patient cohorts.
      </Alert>
    );
  else
    body = (
      <Stack spacing={3}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
          <TextField
            select
            label="Project"
            value={project?.id ?? ''}
            onChange={(event) => choose({ project: event.target.value, analysis: null })}
            sx={{ minWidth: 280 }}
          >
            {projects.data.items.map((item) => (
              <MenuItem key={item.id} value={item.id}>
                {item.name}
              </MenuItem>
            ))}
          </TextField>
          {project && analyses.data && analyses.data.items.length > 0 && (
            <TextField
              select
              label="Analysis"
              value={analysisId ?? ''}
              onChange={(event) => choose({ analysis: event.target.value })}
              sx={{ minWidth: 320 }}
            >
              {analyses.data.items.map((item) => (
                <MenuItem key={item.id} value={item.id}>
                  {analysisTitle(item)}
                </MenuItem>
              ))}
            </TextField>
          )}
          {project && analyses.data?.canEdit && analyses.data.items.length > 0 && !creating && (
            <Button startIcon={<AddIcon />} onClick={() => setCreating(true)}>
              New analysis
            </Button>
          )}
        </Stack>
        {!project ? (
          projectId ? (
            <Alert severity="warning">
              This project does not exist in this workspace, or you may not see it. Choose another.
            </Alert>
          ) : (
            <Alert severity="info">Choose a project to analyse one of its patient cohorts.</Alert>
          )
        ) : analyses.error ? (
          <LoadFailure what="The analyses" error={analyses.error} retry={() => void analyses.mutate()} />
        ) : !analyses.data ? (
          <Loading what="the analyses" />
        ) : creating || (analyses.data.items.length === 0 && analyses.data.canEdit) ? (
          <NewAnalysisForm
            deviceId={deviceId}
            project={project}
            onCancel={analyses.data.items.length > 0 ? () => setCreating(false) : undefined}
            onCreated={(created) => {
              void analyses.mutate();
              choose({ analysis: created.id });
            }}
          />
        ) : analyses.data.items.length === 0 ? (
          <Alert severity="info">This project has no analysis yet. Members of the project team can start one.</Alert>
        ) : !analysisId ? (
          <Alert severity="info">Choose an analysis, or start a new one.</Alert>
        ) : analysis.error ? (
          <LoadFailure what="The analysis" error={analysis.error} retry={() => void analysis.mutate()} />
        ) : table.error ? (
          <LoadFailure what="The patients of the cohort" error={table.error} retry={() => void table.mutate()} />
        ) : outcomes.error ? (
          <LoadFailure what="The trial outcomes" error={outcomes.error} retry={() => void outcomes.mutate()} />
        ) : measured.error ? (
          <LoadFailure what="The measurements" error={measured.error} retry={() => void measured.mutate()} />
        ) : !analysis.data || !merged ? (
          <Loading what="the analysis" />
        ) : (
          <AnalysisWorkspace
            key={analysis.data.id}
            deviceId={deviceId}
            project={project}
            analysis={analysis.data}
            table={merged}
            reload={() => void analysis.mutate()}
            trials={outcomes.data ?? []}
          />
        )}
      </Stack>
    );

  return (
    <Page
      section="Population analysis"
      title="Population analysis"
      description="Statistics of a patient cohort (virtual patients or your own imaging data): outliers, probability densities, correlations, extreme cases and how well your device fits the population."
    >
      {body}
    </Page>
  );
}
