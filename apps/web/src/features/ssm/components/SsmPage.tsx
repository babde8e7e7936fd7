import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { ssmOrganLabels, ssmPhaseLabels, type Ssm } from '@insilico/contracts';
import { lazy, Suspense, useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import PersonRemoveOutlinedIcon from '@mui/icons-material/PersonRemoveOutlined';
import { phaseTitle } from '../../cohorts';
import { createSsm, createSsmRoom, rebuildSsm, retrySsm, ssmUrls, useSsm, useSsms } from '../api';
import { roomPagePath, ssmPagePath, ssmStepPath } from '../paths';
import { SsmStatus } from './SsmCreateSteps';
import { shapeLabel, SLIDER_MODES, SsmModeSliders } from './SsmModeSliders';
import { ChartCard } from '../../analysis';
import { qualityChartOption } from '../qualityChart';
import { measureShapesPath, MeasurementsGate } from '../../measurements';
import { SsmModeMeasurementsSection } from './SsmModeMeasurementsSection';

const SsmShapeViewer = lazy(async () => ({ default: (await import('./SsmShapeViewer')).SsmShapeViewer }));

/** `/projects/ssm?ssm=&project=&device=`: one SSM, or without `ssm` the project's SSMs. */
export function SsmPage() {
  const [params] = useSearchParams();
  const projectId = params.get('project');
  const deviceId = params.get('device');
  const ssmId = params.get('ssm');
  if (!projectId || !deviceId) return <Alert severity="warning">The address names no project.</Alert>;
  return (
    <Box sx={{ maxWidth: 1100, mx: 'auto', p: 3 }}>
      {ssmId ? (
        <SsmDetails deviceId={deviceId} projectId={projectId} ssmId={ssmId} />
      ) : (
        <SsmListView deviceId={deviceId} projectId={projectId} />
      )}
    </Box>
  );
}

/** An SSM's state in a word or two: waiting for its cohorts (issue 18's chaining), in progress, ready or failed. */
function statusLabel(ssm: Ssm): string {
  if (ssm.status === 'ready') return 'Ready';
  if (ssm.status === 'failed') return 'Failed';
  if (ssm.waitingFor.length > 0) return `Waiting for ${ssm.waitingFor.map((cohort) => cohort.name).join(', ')}`;
  return `In progress (${Math.round(ssm.progress * 100)} %)`;
}

function SsmListView({ deviceId, projectId }: { deviceId: string; projectId: string }) {
  const list = useSsms(deviceId, projectId);
  return (
    <>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 2 }}>
        <Typography variant="h1" sx={{ fontSize: 28 }}>
          Statistical shape models
        </Typography>
        {list.data?.canEdit && (
          <Button
            variant="contained"
            component={RouterLink}
            to={ssmStepPath('new-ssm-select-patient-cohorts', deviceId, projectId)}
          >
            New SSM
          </Button>
        )}
      </Stack>
      {list.error && <Alert severity="error">{list.error.message}</Alert>}
      {!list.data && !list.error && <CircularProgress aria-label="Loading the SSMs" />}
      {list.data?.items.length === 0 && <Typography color="text.secondary">No SSM in this project yet.</Typography>}
      <Stack spacing={1}>
        {list.data?.items.map((ssm) => (
          <Box key={ssm.id} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2 }}>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <RouterLink to={ssmPagePath(deviceId, projectId, ssm.id)}>{ssm.name}</RouterLink>
              {(ssm.version > 1 || ssm.rebuiltAs) && <Chip size="small" variant="outlined" label={`v${ssm.version}`} />}
              <Chip size="small" label={statusLabel(ssm)} />
            </Stack>
          </Box>
        ))}
      </Stack>
    </>
  );
}

function SsmDetails({ deviceId, projectId, ssmId }: { deviceId: string; projectId: string; ssmId: string }) {
  const ssm = useSsm(deviceId, projectId, ssmId);
  if (ssm.error) return <Alert severity="error">{ssm.error.message}</Alert>;
  if (!ssm.data) return <CircularProgress aria-label="Loading the SSM" />;
  return (
    <>
      <Typography variant="h1" sx={{ fontSize: 28, mb: 1 }}>
        {ssm.data.name}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {ssm.data.configuration.organs.map((organ) => ssmOrganLabels[organ]).join(' + ')},{' '}
        {ssmPhaseLabels[ssm.data.configuration.phase].toLowerCase()}, {ssm.data.shapeCount} patients
        {ssm.data.version > 1 || ssm.data.rebuiltAs ? `, version ${ssm.data.version}` : ''}
      </Typography>
      <SsmVersionNotice deviceId={deviceId} projectId={projectId} ssm={ssm.data} />
      {ssm.data.status === 'failed' ? (
        <FailedSsm
          deviceId={deviceId}
          projectId={projectId}
          ssm={ssm.data}
          onRetried={(next) => void ssm.mutate(next, { revalidate: false })}
        />
      ) : ssm.data.status !== 'ready' ? (
        <SsmStatus ssm={ssm.data} />
      ) : (
        <ReadySsm deviceId={deviceId} projectId={projectId} ssm={ssm.data} />
      )}
    </>
  );
}

/** A request sent from a button: sending while it runs (the button disabled), its refusal in the server's words. */
function useSending(fallback: string) {
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const send = async (request: () => Promise<void>) => {
    setSending(true);
    setError(null);
    try {
      await request();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : fallback);
    } finally {
      setSending(false);
    }
  };
  return { error, sending, send };
}

/**
 * A model whose build failed: the reason, and for who may create models a retry of the same model (the server
 * checks its configuration again and answers in words when it no longer holds).
 */
function FailedSsm({
  deviceId,
  projectId,
  ssm,
  onRetried,
}: {
  deviceId: string;
  projectId: string;
  ssm: Ssm;
  onRetried: (next: Ssm) => void;
}) {
  const canEdit = useSsms(deviceId, projectId).data?.canEdit ?? false;
  const { error, sending, send } = useSending('The model could not be built again.');
  const retry = () => send(async () => onRetried(await retrySsm(deviceId, projectId, ssm.id)));
  return (
    <Alert
      severity="error"
      action={
        canEdit ? (
          <Button color="inherit" size="small" disabled={sending} onClick={() => void retry()}>
            Retry
          </Button>
        ) : undefined
      }
    >
      {ssm.error ?? 'The SSM could not be built.'}{' '}
      {canEdit
        ? 'Retry builds it again from the same configuration.'
        : 'Someone who may create shape models in this project can retry it.'}
      {error && <Box sx={{ mt: 1, fontWeight: 600 }}>{error}</Box>}
    </Alert>
  );
}

/**
 * Where a model stands among its versions: rebuilt already (a link to the new version), built before its landmarks
 * moved with its modes (why it matters, and a rebuild for who may create models), or a rebuild of an older one.
 */
export function SsmVersionNotice({ deviceId, projectId, ssm }: { deviceId: string; projectId: string; ssm: Ssm }) {
  const navigate = useNavigate();
  const canEdit = useSsms(deviceId, projectId).data?.canEdit ?? false;
  const { error, sending, send } = useSending('The model could not be rebuilt.');
  const next = ssm.version + 1;
  if (ssm.rebuiltAs)
    return (
      <Alert
        severity="info"
        sx={{ mb: 2 }}
        action={
          <Button
            component={RouterLink}
            to={ssmPagePath(deviceId, projectId, ssm.rebuiltAs.id)}
            color="inherit"
            size="small"
          >
            Open version {ssm.rebuiltAs.version}
          </Button>
        }
      >
        This model was rebuilt as version {ssm.rebuiltAs.version}
        {ssm.rebuiltAs.status === 'in_progress'
          ? ' (being built)'
          : ssm.rebuiltAs.status === 'failed'
            ? ' (failed)'
            : ''}
        . This version, its rooms and the results made on it stay as they are.
      </Alert>
    );
  if (ssm.status === 'ready' && ssm.landmarksFollowModes === false) {
    const rebuild = () =>
      send(async () => {
        const rebuilt = await rebuildSsm(deviceId, projectId, ssm.id);
        await navigate(ssmPagePath(deviceId, projectId, rebuilt.id));
      });
    return (
      <Alert
        severity="warning"
        sx={{ mb: 2 }}
        action={
          canEdit ? (
            <Button color="inherit" size="small" disabled={sending} onClick={() => void rebuild()}>
              Rebuild as version {next}
            </Button>
          ) : undefined
        }
      >
        Built with an older model builder ({ssm.modelCard?.codeVersion ?? 'unknown'}): its landmarks do not move with
        its modes, so its shapes cannot be measured and rooms on it place landmarks at the nearest point of the mean
        shape.{' '}
        {canEdit
          ? `Rebuilding makes version ${next} from the same configuration; this version, its rooms and the results made on it stay as they are.`
          : 'Someone who may create shape models in this project can rebuild it.'}
        {error && <Box sx={{ mt: 1, fontWeight: 600 }}>{error}</Box>}
      </Alert>
    );
  }
  if (ssm.rebuiltFrom)
    return (
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Rebuilt from{' '}
        <RouterLink to={ssmPagePath(deviceId, projectId, ssm.rebuiltFrom.id)}>
          version {ssm.rebuiltFrom.version}
        </RouterLink>
        , which stays as it was.
      </Typography>
    );
  return null;
}

function ReadySsm({ deviceId, projectId, ssm }: { deviceId: string; projectId: string; ssm: Ssm }) {
  const navigate = useNavigate();
  const modes = ssm.modes ?? [];
  const [deviations, setDeviations] = useState<number[]>(() => modes.slice(0, SLIDER_MODES).map(() => 0));
  const label = shapeLabel(deviations);
  const [roomError, setRoomError] = useState<string | null>(null);
  const [rebuildError, setRebuildError] = useState<string | null>(null);
  const canEdit = useSsms(deviceId, projectId).data?.canEdit ?? false;
  // One click leaves a patient out: a new SSM of the same configuration without it (the old one stays).
  const leaveOut = async (patientId: string) => {
    setRebuildError(null);
    try {
      const rebuilt = await createSsm(deviceId, projectId, {
        ...ssm.configuration,
        excludedPatients: [...ssm.configuration.excludedPatients, patientId],
      });
      await navigate(ssmPagePath(deviceId, projectId, rebuilt.id));
    } catch (caught) {
      setRebuildError(caught instanceof Error ? caught.message : 'The model could not be rebuilt.');
    }
  };
  const quality = ssm.quality;
  return (
    <Stack spacing={4}>
      <SsmStatus ssm={ssm} />
      <Box sx={{ display: 'grid', gridTemplateColumns: { md: '2fr 1fr' }, gap: 3 }}>
        <Suspense fallback={<CircularProgress aria-label="Loading the 3D view" />}>
          <SsmShapeViewer
            meanUrl={ssmUrls.shape(deviceId, projectId, ssm.id, 'mean')}
            modelUrl={ssmUrls.model(deviceId, projectId, ssm.id)}
            parts={ssm.modelCard?.parts ?? []}
            deviations={deviations}
            label={label}
          />
        </Suspense>
        <Box>
          <Typography variant="h2" sx={{ fontSize: 18, mb: 1 }}>
            Modes
          </Typography>
          <SsmModeSliders modes={modes} deviations={deviations} onChange={setDeviations} idPrefix="ssm-mode" />
          <Stack direction="row" spacing={1}>
            <Button onClick={() => setDeviations((current) => current.map(() => 0))}>Mean shape</Button>
            <Button
              variant="contained"
              onClick={() => {
                setRoomError(null);
                createSsmRoom(deviceId, projectId, ssm.id, {
                  label,
                  ...(label === 'mean' ? {} : { name: `${ssm.name}: ${phaseTitle(label)}`.slice(0, 100) }),
                })
                  .then((room) => navigate(roomPagePath(deviceId, projectId, room.id)))
                  .catch((caught: unknown) =>
                    setRoomError(caught instanceof Error ? caught.message : 'No room was created.'),
                  );
              }}
            >
              {label === 'mean' ? 'Create a room on this SSM' : 'Create a room on this shape'}
            </Button>
          </Stack>
          {roomError && (
            <Alert severity="error" sx={{ mt: 1 }}>
              {roomError}
            </Alert>
          )}
        </Box>
      </Box>
      {quality && (
        <Box>
          <Typography variant="h2" sx={{ fontSize: 18, mb: 1 }}>
            Quality ({quality.modesKept} modes kept, 95 % of the variance)
          </Typography>
          <ChartCard
            title="Quality curves"
            fileName="ssm-quality"
            option={qualityChartOption(quality)}
            empty={quality.compactness.length === 0}
          />
          <Table size="small" aria-label="Quality by number of modes">
            <TableHead>
              <TableRow>
                <TableCell>Modes</TableCell>
                <TableCell>Variance (mm²)</TableCell>
                <TableCell>Compactness</TableCell>
                <TableCell>Generalisation (mm)</TableCell>
                <TableCell>Specificity (mm)</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {quality.compactness.map((c, k) => (
                <TableRow key={k} selected={k + 1 === quality.modesKept}>
                  <TableCell>{k + 1}</TableCell>
                  <TableCell>{modes[k]?.variance.toFixed(2) ?? ''}</TableCell>
                  <TableCell>{(c * 100).toFixed(1)} %</TableCell>
                  <TableCell>{quality.generalisation[k]?.toFixed(3) ?? '–'}</TableCell>
                  <TableCell>{quality.specificity[k]?.toFixed(3) ?? '–'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
      <MeasurementsGate deviceId={deviceId}>
        <SsmModeMeasurementsSection deviceId={deviceId} projectId={projectId} ssmId={ssm.id} />
        {ssm.landmarksFollowModes !== false && (
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mt: 2 }}>
            <Button variant="outlined" component={RouterLink} to={measureShapesPath(deviceId, projectId, ssm.id)}>
              Order measurements on its shapes
            </Button>
            <Typography variant="body2" color="text.secondary">
              The mean shape and each named instance (the rooms saved on its shapes), as a table with CSV.
            </Typography>
          </Stack>
        )}
      </MeasurementsGate>
      {ssm.shapes && (
        <Box>
          <Typography variant="h2" sx={{ fontSize: 18, mb: 1 }}>
            Patients
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            Each patient's leave-one-out error (how far the other patients' model misses its surface)
            {ssm.modelCard?.registration
              ? ' and registration residual (how far the registered points lie from its own surface)'
              : ''}
            ; outliers are flagged.{canEdit ? ' Leaving one out builds a new model without it.' : ''}
          </Typography>
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
            {ssm.shapes.map((shape) => (
              <Chip
                key={`${shape.cohortId}/${shape.patientId}`}
                color={shape.outlier ? 'warning' : 'default'}
                label={`${shape.patientId}: ${shape.residual.toFixed(2)} mm${shape.registration_mm === undefined ? '' : `, registration ${shape.registration_mm.toFixed(2)} mm`}${shape.outlier ? ' (outlier)' : ''}`}
                {...(canEdit
                  ? {
                      onDelete: () => void leaveOut(shape.patientId),
                      deleteIcon: <PersonRemoveOutlinedIcon aria-label={`Leave out ${shape.patientId} and rebuild`} />,
                    }
                  : {})}
              />
            ))}
          </Stack>
          {rebuildError && (
            <Alert severity="error" sx={{ mt: 1 }}>
              {rebuildError}
            </Alert>
          )}
        </Box>
      )}
      <Box>
        <Typography variant="h2" sx={{ fontSize: 18, mb: 1 }}>
          Downloads
        </Typography>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
          <Button href={ssmUrls.shapeFile(deviceId, projectId, ssm.id, 'mean', 'stl')} download>
            Mean shape (STL)
          </Button>
          <Button href={ssmUrls.shapeFile(deviceId, projectId, ssm.id, 'mean', 'vtp')} download>
            Mean shape (VTP)
          </Button>
          {label !== 'mean' && (
            <>
              <Button href={ssmUrls.shapeFile(deviceId, projectId, ssm.id, label, 'stl')} download>
                This shape (STL)
              </Button>
              <Button href={ssmUrls.shapeFile(deviceId, projectId, ssm.id, label, 'vtp')} download>
                This shape (VTP)
              </Button>
            </>
          )}
          <Button href={ssmUrls.csv(deviceId, projectId, ssm.id, 'modes')} download>
            Mode matrix (CSV)
          </Button>
          <Button href={ssmUrls.csv(deviceId, projectId, ssm.id, 'quality')} download>
            Quality curves (CSV)
          </Button>
        </Stack>
      </Box>
      {ssm.modelCard && (
        <Box>
          <Typography variant="h2" sx={{ fontSize: 18, mb: 1 }}>
            Model card
          </Typography>
          <Table size="small" aria-label="Model card">
            <TableBody>
              {[
                ['Cohorts', ssm.modelCard.cohorts.map((c) => c.name).join(', ')],
                ['Patients', String(ssm.modelCard.shapes)],
                ['Left out', ssm.configuration.excludedPatients.join(', ') || 'none'],
                ['Organs', ssm.modelCard.organs.map((o) => ssmOrganLabels[o]).join(', ')],
                ['Phase', ssmPhaseLabels[ssm.modelCard.phase]],
                ['Correspondence', ssm.modelCard.correspondence],
                ...(ssm.modelCard.registration
                  ? [['Registration', registrationWords(ssm.modelCard.registration)]]
                  : []),
                ['Alignment', ssm.modelCard.alignment],
                ['Reference shape', ssm.modelCard.referenceShape],
                ['Seed', String(ssm.modelCard.seed)],
                ['Vertices', `${ssm.modelCard.vertices} (${ssm.modelCard.triangles} triangles)`],
                ['Modes', String(modes.length)],
                ['Code', `${ssm.modelCard.codeVersion}, meshes ${ssm.modelCard.meshModelVersion}`],
              ].map(([name, value]) => (
                <TableRow key={name}>
                  <TableCell component="th">{name}</TableCell>
                  <TableCell>{value}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Stack>
  );
}

/** A registered model's registration parameters in words (the model card's row). */
function registrationWords(registration: NonNullable<NonNullable<Ssm['modelCard']>['registration']>): string {
  const r = registration;
  return `${r.method}; ${r.affineFirst ? 'affine then ' : ''}non-rigid, β = ${r.beta}, λ = ${r.lambda}, outlier weight ${r.outlierWeight}, kernel rank ${r.kernelRank}, at most ${r.maxIterations} iterations, tolerance ${r.tolerance}, at most ${r.maxTargetPoints} target points; reference: ${r.reference}`;
}
