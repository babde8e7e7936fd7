import {
  normalizeSsmConfiguration,
  projectCreationLimits,
  projectDraftStateSchema,
  ssmDuplicateMessage,
  type CreateSsm,
  type DraftSsm,
  type ProjectDraft,
  type ProjectDraftState,
  type SsmConfiguration,
} from '@insilico/contracts';
import type { DeviceRepository } from '../repositories/device.repository';
import type { ProjectDraftRepository } from '../repositories/project-draft.repository';
import { authorize } from './authorize';
import { ServiceError } from './errors';
import type { SsmService } from './ssm.service';
import { callerGrant } from './caller-grant';

/** The refusal of an SSM in a saved draft that the server did not check (it joins through `addSsm`). */
export const draftSsmUncheckedMessage =
  'An SSM joins the project draft from its Name step, where it is checked. Add it there again.';

/**
 * The project creation state (spec §3) of one user in one workspace, saved after each wizard step so a reload
 * continues. Only those who may create projects have one. Its SSMs (issue 18) are checked when they are added,
 * with the rules of an SSM made on a project's page; a save may remove them but not add or change one.
 */
export class ProjectDraftService {
  constructor(
    private readonly repository: ProjectDraftRepository,
    private readonly devices: DeviceRepository,
    private readonly ssms: SsmService,
  ) {}

  async get(userId: string, deviceId: string): Promise<ProjectDraft> {
    await this.authorize(userId, deviceId);
    const row = await this.repository.find(userId, deviceId);
    if (!row) return { state: null, updatedAt: null };
    return { state: storedState(row.state), updatedAt: row.updatedAt.toISOString() };
  }

  async save(userId: string, deviceId: string, state: ProjectDraftState): Promise<ProjectDraft> {
    await this.authorize(userId, deviceId);
    const stored = storedState((await this.repository.find(userId, deviceId))?.state);
    const checked = new Map((stored?.ssms ?? []).map((ssm) => [ssmKey(ssm), ssm]));
    const ssms = state.ssms.map((ssm) => checked.get(ssmKey(ssm)));
    if (ssms.some((ssm) => ssm === undefined))
      throw new ServiceError(422, 'draft_ssm_unchecked', draftSsmUncheckedMessage);
    const next = { ...state, ssms: ssms as DraftSsm[] };
    const row = await this.repository.save(userId, deviceId, next.step, next);
    return { state: next, updatedAt: row.updatedAt.toISOString() };
  }

  /**
   * Adds an SSM to the draft: its cohorts among the draft's, ready, its patients enough and with the phase, not the
   * same configuration as one already in the draft (spec §5's message), named or given the default name. The SSM
   * being typed (`newSsm`) is cleared. 4xx with the message otherwise, and the draft unchanged.
   */
  async addSsm(userId: string, deviceId: string, input: CreateSsm): Promise<ProjectDraft> {
    await this.authorize(userId, deviceId);
    const row = await this.repository.find(userId, deviceId);
    const state = storedState(row?.state);
    if (!state)
      throw new ServiceError(409, 'no_draft', 'Start a project first: an SSM is added to the project being created.');
    const cohortIds = [...new Set([...state.existingCohortSelected, ...state.newPatientCohortOrders])];
    const [prepared] = await this.ssms.prepareForNewProject(deviceId, cohortIds, [input]);
    const ssm = { ...prepared!.configuration, name: prepared!.name, shapeCount: prepared!.shapeCount };
    if (state.ssms.some((other) => configurationKey(other) === prepared!.configurationKey))
      throw new ServiceError(409, 'ssm_exists', ssmDuplicateMessage);
    if (state.ssms.length >= projectCreationLimits.ssms)
      throw new ServiceError(
        422,
        'too_many_ssms',
        `A project can be created with at most ${projectCreationLimits.ssms} SSMs.`,
      );
    const next: ProjectDraftState = { ...state, newSsm: null, ssms: [...state.ssms, ssm] };
    const saved = await this.repository.save(userId, deviceId, next.step, next);
    return { state: next, updatedAt: saved.updatedAt.toISOString() };
  }

  async discard(userId: string, deviceId: string): Promise<void> {
    await this.authorize(userId, deviceId);
    await this.repository.delete(userId, deviceId);
  }

  private async authorize(userId: string, deviceId: string): Promise<void> {
    authorize(
      'project.create',
      await callerGrant(userId, deviceId, (device, user) => this.devices.findMembership(device, user)),
    );
  }
}

/** A draft as stored; one saved by an older version of the wizard that no longer fits is dropped rather than half-read. */
function storedState(state: unknown): ProjectDraftState | null {
  if (state === undefined || state === null) return null;
  const parsed = projectDraftStateSchema.safeParse(state);
  return parsed.success ? parsed.data : null;
}

/** The duplicate key of a configuration (as SsmService keys it): the configuration in canonical order. */
function configurationKey(ssm: SsmConfiguration): string {
  return JSON.stringify(normalizeSsmConfiguration(ssm));
}

/** What a saved SSM is matched on against the checked ones: its configuration and its name. */
function ssmKey(ssm: SsmConfiguration & { name: string }): string {
  return JSON.stringify([configurationKey(ssm), ssm.name]);
}
