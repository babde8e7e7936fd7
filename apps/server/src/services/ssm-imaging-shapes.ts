import { LANDMARKS } from '@insilico/anatomy';
import { ssmOrganLabels, ssmPhaseLabels, type SsmConfiguration, type SsmOrgan } from '@insilico/contracts';
import type { ImagingDatasetRow } from '../repositories/imaging.repository';
import {
  cardiacPhaseOf,
  deliveredLandmarks,
  deliveredOrganName,
  deliveredPhaseName,
  type DeliveredLandmark,
} from './imaging-anatomy';
import { ServiceError } from './errors';

/**
 * The patients of a project's imaging cohorts as shapes of a statistical shape model (issue 18 with 19,
 * docs/decisions/imaging-patients.md): each delivered patient with the delivered phase matching the model's phase
 * (`cardiacPhaseOf`) and a surface of every chosen organ there, and its landmarks, from the delivery's record (no
 * zip read). Pure: SsmService reads the rows and the build task reads the surfaces.
 */

/** An imaging patient as a shape of a model. */
export interface ImagingShape {
  patientId: string;
  /** The dataset (imaging cohort). */
  cohortId: string;
  /** The delivered phase (as the zip names it) at the model's phase. */
  phase: string;
  landmarks: DeliveredLandmark[];
}

/** Why a dataset is not (yet) an imaging cohort a model can use. */
export function assertImagingCohortReady(row: ImagingDatasetRow): void {
  if (row.status !== 'ready')
    throw new ServiceError(
      409,
      'imaging_cohort_not_ready',
      `The patient models of the imaging cohort ${row.name} are still being made. You get a notification when they are ready.`,
    );
}

/** The delivered phase of a patient matching the model's phase that has every organ, or why there is none. */
type PhaseMatch = { phase: string } | { lacks: 'phase' | 'organ' };

function matchPhase(
  models: readonly { organ: string; phase: string; triangles: number }[],
  configuration: Pick<SsmConfiguration, 'organs' | 'phase'>,
): PhaseMatch {
  const wanted = configuration.phase === 'end-diastole' ? 'diastole' : 'systole';
  const atPhase = models.filter((m) => cardiacPhaseOf(deliveredPhaseName(m.phase)) === wanted);
  if (atPhase.length === 0) return { lacks: 'phase' };
  const phases = [...new Set(atPhase.map((m) => deliveredPhaseName(m.phase)))].sort();
  for (const phase of phases) {
    const surfaces = configuration.organs.map((organ) =>
      atPhase.find((m) => deliveredPhaseName(m.phase) === phase && deliveredOrganName(m.organ) === organ),
    );
    if (surfaces.every((s) => s !== undefined)) return { phase };
  }
  return { lacks: 'organ' };
}

/**
 * The shapes of ready imaging cohorts for a configuration, in the cohorts' order; 422 naming the patients that lack
 * the phase (`phase_missing`) or an organ at it (`organ_missing`). Left-out patients are not checked.
 */
export function imagingShapesOf(
  rows: readonly ImagingDatasetRow[],
  configuration: Pick<SsmConfiguration, 'organs' | 'phase' | 'excludedPatients'>,
): ImagingShape[] {
  const excluded = new Set(configuration.excludedPatients);
  const shapes: ImagingShape[] = [];
  const lacking: Record<'phase' | 'organ', string[]> = { phase: [], organ: [] };
  for (const row of rows)
    for (const delivered of row.models?.patients ?? []) {
      if (excluded.has(delivered.patient)) continue;
      const match = matchPhase(delivered.models, configuration);
      if ('lacks' in match) lacking[match.lacks].push(delivered.patient);
      else
        shapes.push({
          patientId: delivered.patient,
          cohortId: row.id,
          phase: match.phase,
          landmarks: deliveredLandmarks(delivered),
        });
    }
  const phase = ssmPhaseLabels[configuration.phase].toLowerCase();
  if (lacking.phase.length > 0)
    throw new ServiceError(
      422,
      'phase_missing',
      `${lacking.phase.length} of the chosen patients have no ${phase} surfaces (${listed(lacking.phase)}). Leave them out or choose another phase.`,
      { patients: lacking.phase },
    );
  if (lacking.organ.length > 0) {
    const organs = configuration.organs.map((organ: SsmOrgan) => ssmOrganLabels[organ].toLowerCase()).join(', ');
    throw new ServiceError(
      422,
      'organ_missing',
      `${lacking.organ.length} of the chosen patients have no delivered surface of every chosen organ (${organs}) at ${phase} (${listed(lacking.organ)}). Leave them out or choose other organs.`,
      { patients: lacking.organ },
    );
  }
  return shapes;
}

/**
 * The check of a model with imaging shapes that needs every shape: the landmark names they share (422
 * `landmarks_missing` when none: the mean would have none). A reference finer than registration takes is decimated
 * by the build, not refused.
 */
export function assertRegistrable(shapes: readonly ImagingShape[], withVirtual: boolean): void {
  const names = new Set<string>(withVirtual ? LANDMARKS : (shapes[0]?.landmarks.map((l) => l.name) ?? []));
  for (const shape of shapes) {
    const own = new Set(shape.landmarks.map((l) => l.name));
    for (const name of names) if (!own.has(name)) names.delete(name);
  }
  if (shapes.length > 0 && names.size === 0)
    throw new ServiceError(
      422,
      'landmarks_missing',
      'The chosen patients share no named landmark, so the model’s shapes would have none (rooms and measurements need them). Leave out the patients whose landmarks are named differently, or ask support staff to name them alike.',
    );
}

function listed(ids: readonly string[]): string {
  return `${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ' …' : ''}`;
}
