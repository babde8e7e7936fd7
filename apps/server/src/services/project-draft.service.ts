import { projectDraftStateSchema, type ProjectDraft, type ProjectDraftState } from '@insilico/contracts';
import { grantOf } from '../policies/workspace.policy';
import type { DeviceRepository } from '../repositories/device.repository';
import type { ProjectDraftRepository } from '../repositories/project-draft.repository';
import { authorize } from './authorize';

/**
 * The project creation state (spec §3) of one user in one workspace, saved after each wizard step so a reload
 * continues. Only those who may create projects have one.
 */
export class ProjectDraftService {
  constructor(
    private readonly repository: ProjectDraftRepository,
    private readonly devices: DeviceRepository,
  ) {}

  async get(userId: string, deviceId: string): Promise<ProjectDraft> {
    await this.authorize(userId, deviceId);
    const row = await this.repository.find(userId, deviceId);
    if (!row) return { state: null, updatedAt: null };
    // A draft saved by an older version of the wizard may no longer fit: it is dropped rather than half-read.
    const parsed = projectDraftStateSchema.safeParse(row.state);
    return parsed.success
      ? { state: parsed.data, updatedAt: row.updatedAt.toISOString() }
      : { state: null, updatedAt: null };
  }

  async save(userId: string, deviceId: string, state: ProjectDraftState): Promise<ProjectDraft> {
    await this.authorize(userId, deviceId);
    const row = await this.repository.save(userId, deviceId, state.step, state);
    return { state, updatedAt: row.updatedAt.toISOString() };
  }

  async discard(userId: string, deviceId: string): Promise<void> {
    await this.authorize(userId, deviceId);
    await this.repository.delete(userId, deviceId);
  }

  private async authorize(userId: string, deviceId: string): Promise<void> {
    authorize('project.create', grantOf(await this.devices.findMembership(deviceId, userId)));
  }
}
