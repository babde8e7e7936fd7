import { createHash } from 'node:crypto';
import type { MeasurementOrder } from '@insilico/contracts';
import type { MeasurementOrderRow } from '../repositories/measurement.repository';
import type { SimulationRow } from '../repositories/simulation.repository';
import type { SsmRow } from '../repositories/ssm.repository';
import type { TrialPatientWithRun, TrialRow } from '../repositories/trial.repository';
import { trialOutcomesOf } from './trial-custom-outcomes';

/**
 * What each kind of evidence keeps as its results snapshot (issue 20 item 7; services/result-snapshots.ts keeps and
 * hashes them): the object's settings as run and the results its pages show, as plain data. Binary outputs (frames,
 * model files) are kept by their SHA-256 and size: the snapshot binds them without copying them.
 */

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/** A simulation's stored output files the snapshot names by hash; the checkpoint is the engine's, not a result. */
const notResults = new Set(['checkpoint.bin']);

/**
 * A finished simulation's results: its set-up (kind, parameters, resolution, phase, device version, scenario version,
 * estimate), the manifest of stored timesteps, each object's frame summaries, the monitors as stored (CSV), and every
 * output file's size and SHA-256. `read` answers a stored output's bytes (`out/<name>`), or null when missing.
 */
export async function simulationResults(
  row: SimulationRow,
  read: (name: string) => Promise<Uint8Array | null>,
): Promise<Record<string, unknown>> {
  const files: { name: string; bytes: number; sha256: string }[] = [];
  const summaries: Record<string, unknown> = {};
  let manifest: unknown = null;
  let monitors: string | null = null;
  for (const name of [...row.storedFiles].sort()) {
    if (notResults.has(name)) continue;
    const bytes = await read(name);
    if (!bytes) continue;
    files.push({ name, bytes: bytes.byteLength, sha256: sha256(bytes) });
    if (name === 'manifest.json') manifest = JSON.parse(new TextDecoder().decode(bytes));
    else if (name === 'monitors.csv') monitors = new TextDecoder().decode(bytes);
    else if (name.endsWith('/summary.json'))
      summaries[name.slice(0, -'/summary.json'.length)] = JSON.parse(new TextDecoder().decode(bytes));
  }
  return {
    kind: 'simulation-results',
    simulation: {
      id: row.id,
      name: row.name,
      roomId: row.roomId,
      kind: row.kind,
      parameters: row.parameters,
      resolution: row.resolution,
      phase: row.phase,
      endTime: row.endTime,
      deviceVersionId: row.deviceVersionId,
      deviceVersionName: row.deviceVersionName,
      scenarioVersion: row.scenarioVersion,
      estimate: row.estimate,
      finishedAt: row.finishedAt,
    },
    manifest,
    summaries,
    monitors,
    files,
  };
}

/**
 * A finished trial's results: its set-up (kind, resolution, cohort, device version, parameters, placement rule,
 * acceptance criteria, user-defined outcomes), the outcomes' definitions, and the per-patient outcomes table (status,
 * outcomes with their notes, the stage and message of a refusal), in the cohort's order.
 */
export function trialResults(
  trial: TrialRow,
  patients: readonly TrialPatientWithRun[],
  statusOf: (patient: TrialPatientWithRun) => string,
): Record<string, unknown> {
  return {
    kind: 'trial-results',
    trial: {
      id: trial.id,
      name: trial.name,
      kind: trial.kind,
      resolution: trial.resolution,
      cohortId: trial.cohortId,
      ssmId: trial.ssmId,
      deviceVersionId: trial.deviceVersionId,
      deviceVersionName: trial.deviceVersionName,
      parameters: trial.parameters,
      placement: trial.placement,
      acceptance: trial.acceptance,
      customOutcomes: trial.customOutcomes,
      basedOnTrialId: trial.basedOnTrialId,
    },
    outcomes: trialOutcomesOf(trial),
    patients: [...patients]
      .sort((a, b) => a.patient.patientIndex - b.patient.patientIndex)
      .map(({ patient, run }) => ({
        patientId: patient.patientId,
        status: statusOf({ patient, run }),
        simulationId: patient.simulationId,
        outcomes: patient.outcomes,
        notes: patient.outcomeNotes,
        stage: patient.stage,
        error: patient.error ?? run?.error ?? null,
      })),
  };
}

/**
 * A measurement order's results as they stand (when ready, and after each hand correction): the measurements as
 * ordered (definition versions), and per patient the automatic, corrected and used value or the failure of each, with
 * who corrected which landmarks.
 */
export function measurementResults(
  order: MeasurementOrderRow,
  cohortName: string,
  patients: MeasurementOrder['patients'],
): Record<string, unknown> {
  return {
    kind: 'measurement-results',
    order: {
      id: order.id,
      cohortId: order.cohortId,
      cohortName,
      // An order on a shape model's shapes names the model and the shapes (absent for a cohort's: unchanged bytes).
      ...(order.ssmId === null ? {} : { ssmId: order.ssmId, shapes: order.shapes }),
      measurements: order.measurements,
    },
    patients,
  };
}

/**
 * A built shape model's results: its configuration and, from its summary, the modes (variance explained), the quality
 * metrics (compactness, generalisation, specificity), the shapes and the model card; the model file by its SHA-256.
 */
export function ssmResults(row: SsmRow, summary: unknown, model: Uint8Array): Record<string, unknown> {
  return {
    kind: 'ssm-results',
    ssm: { id: row.id, name: row.name, configuration: row.configuration, shapeCount: row.shapeCount },
    summary,
    model: { bytes: model.byteLength, sha256: sha256(model) },
  };
}
