import {
  bodyPartProblem,
  companyProblem,
  developmentStagesProblem,
  deviceInfoProblem,
  proposedDataRegion,
  type BodyPart,
  type Company,
  type DataRegion,
  type DevelopmentStage,
  type Device,
  type DeviceInfo,
  type DeviceList,
  type Invitation,
  type MemberRole,
  type SelectedDevice,
  type UpdateDevice,
} from '@insilico/contracts';
import { grantOf, mayCreateWorkspace, type WorkspaceGrant } from '../policies/workspace.policy';
import type { DeviceChanges, DeviceRow } from '../repositories/device.repository';
import type { UnitOfWork } from '../repositories/unit-of-work';
import { workspaceEvent } from '../events/kinds';
import { ServiceError } from './errors';
import type { TeamService } from './team.service';
import { toSummary, type Actor } from './workspace.mapper';
import { authorize } from './authorize';
import { callerGrant } from './caller-grant';

/** A new workspace, already parsed by its contract schema. */
export interface NewWorkspace {
  bodyParts: BodyPart[];
  developmentStages: DevelopmentStage[];
  deviceInfo: DeviceInfo;
  company: Company;
  dataRegion?: DataRegion | undefined;
  team: { email: string; role: MemberRole }[];
}

/** Answers 400 with the first problem found, before anything is changed. */
export function refuseProblems(problems: (string | null)[]): void {
  const problem = problems.find((found) => found !== null);
  if (problem) throw new ServiceError(400, 'invalid', problem);
}

/** Device workspaces: create, list, read, update, and the workspace each user has selected. */
export class DeviceService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly team: TeamService,
    /** Moves the device picture to the workspace's data region (picture.service). */
    private readonly movePictureToRegion: (deviceId: string) => Promise<void>,
  ) {}

  /** The caller's standing in a workspace (null: not a member, or removed). */
  async grant(userId: string, deviceId: string): Promise<WorkspaceGrant | null> {
    return callerGrant(userId, deviceId, (device, user) =>
      this.unitOfWork.repositories.devices.findMembership(device, user),
    );
  }

  async list(userId: string): Promise<DeviceList> {
    const rows = await this.unitOfWork.repositories.devices.listForUser(userId);
    return {
      items: rows.flatMap(({ device, membership }) => {
        const grant = grantOf(membership);
        return grant ? [toSummary(device, grant)] : [];
      }),
    };
  }

  /**
   * Creates a workspace: the creator becomes its admin (status ok) and it becomes their selected
   * workspace; the team is invited by mail. With `clearOnboarding` the creator's onboarding state
   * is removed in the same transaction.
   */
  async create(
    actor: Actor,
    input: NewWorkspace,
    options: { clearOnboarding?: boolean } = {},
  ): Promise<{ device: Device; invitations: Invitation[] }> {
    if (!mayCreateWorkspace(actor))
      throw new ServiceError(403, 'forbidden', 'You may not create a device workspace. Ask for an invitation.');
    refuseProblems([
      ...input.bodyParts.map(bodyPartProblem),
      developmentStagesProblem(input.developmentStages),
      deviceInfoProblem(input.deviceInfo),
      companyProblem(input.company),
    ]);
    const team = this.team.checkInvitees(actor, input.team);
    const result = await this.unitOfWork.run(async (repositories) => {
      const device = await repositories.devices.insert({
        name: input.deviceInfo.deviceName,
        ...deviceColumns(input),
        dataRegion: input.dataRegion ?? proposedDataRegion(input.company.country),
        createdBy: actor.id,
      });
      await repositories.devices.insertMembership({
        deviceId: device.id,
        userId: actor.id,
        role: 'admin',
        status: 'ok',
      });
      await repositories.devices.setSelected(actor.id, device.id);
      const invitations: Invitation[] = [];
      for (const invitee of team)
        invitations.push(await this.team.issue(repositories, device, actor, invitee.email, invitee.role));
      if (options.clearOnboarding) await repositories.onboarding.delete(actor.id);
      repositories.events.record({
        ...workspaceEvent(actor.id, device.id, 'device.created', { type: 'device', id: device.id }),
        after: {
          name: device.name,
          deviceType: device.deviceType,
          bodyParts: device.bodyParts,
          developmentStages: device.developmentStages,
          dataRegion: device.dataRegion,
          invited: invitations.map((invitation) => ({ email: invitation.email, role: invitation.role })),
        },
      });
      return { device, invitations };
    });
    return {
      device: await this.toDevice(result.device, { role: 'admin', status: 'ok' }),
      invitations: result.invitations,
    };
  }

  async get(userId: string, deviceId: string): Promise<Device> {
    const grant = await this.grant(userId, deviceId);
    authorize('device.read', grant);
    const device = await this.unitOfWork.repositories.devices.findById(deviceId);
    if (!device) throw new ServiceError(404, 'not_found', 'No such device workspace.');
    return this.toDevice(device, grant);
  }

  async update(userId: string, deviceId: string, patch: UpdateDevice): Promise<Device> {
    const grant = await this.grant(userId, deviceId);
    authorize('device.update', grant);
    refuseProblems([
      ...(patch.bodyParts ?? []).map(bodyPartProblem),
      patch.developmentStages ? developmentStagesProblem(patch.developmentStages) : null,
      patch.deviceInfo ? deviceInfoProblem(patch.deviceInfo) : null,
      patch.company ? companyProblem(patch.company) : null,
    ]);
    const devices = this.unitOfWork.repositories.devices;
    const current = await devices.findById(deviceId);
    if (!current) throw new ServiceError(404, 'not_found', 'No such device workspace.');
    if (patch.dataRegion && patch.dataRegion !== current.dataRegion && (await this.holdsData(deviceId)))
      throw new ServiceError(
        409,
        'data_region_fixed',
        'The data region cannot change any more: this device workspace already holds data.',
      );
    const changes: DeviceChanges = {
      ...(patch.bodyParts ? { bodyParts: patch.bodyParts } : {}),
      ...(patch.developmentStages ? { developmentStages: patch.developmentStages } : {}),
      ...(patch.deviceInfo
        ? {
            name: patch.deviceInfo.deviceName,
            deviceType: patch.deviceInfo.deviceType,
            deviceTypeOther:
              patch.deviceInfo.deviceType === 'other' ? (patch.deviceInfo.deviceTypeOther ?? null) : null,
          }
        : {}),
      ...(patch.company ? companyColumns(patch.company) : {}),
      ...(patch.dataRegion ? { dataRegion: patch.dataRegion } : {}),
    };
    const updated = await this.unitOfWork.run(async (tx) => {
      const row = await tx.devices.update(deviceId, changes);
      if (!row) throw new ServiceError(404, 'not_found', 'No such device workspace.');
      const keys = Object.keys(changes) as (keyof DeviceChanges)[];
      tx.events.record({
        ...workspaceEvent(userId, deviceId, 'device.updated', { type: 'device', id: deviceId }),
        before: Object.fromEntries(keys.map((key) => [key, current[key]])),
        after: changes,
      });
      return row;
    });
    // Also when the region is sent unchanged: saving again completes a move that failed before.
    if (patch.dataRegion) await this.movePictureToRegion(deviceId);
    return this.toDevice(updated, grant);
  }

  /** The selected workspace; if it is gone (or the user was removed), the first one still open to them. */
  async selected(userId: string): Promise<SelectedDevice> {
    const chosen = await this.selectedRow(userId);
    const grant = chosen ? grantOf(chosen.membership) : null;
    return { device: chosen && grant ? toSummary(chosen.device, grant) : null };
  }

  /**
   * The company a further workspace of this user belongs to unless they say otherwise: that of their
   * selected workspace (add device has no company step). Null for a user without a workspace.
   */
  async companyOfSelected(userId: string): Promise<Company | null> {
    const device = (await this.selectedRow(userId))?.device;
    if (!device) return null;
    return {
      companyName: device.companyName,
      country: device.country,
      state: device.countryState,
      streetAddress: device.streetAddress,
      city: device.city,
      zipCode: device.zipCode,
    };
  }

  private async selectedRow(userId: string) {
    const devices = this.unitOfWork.repositories.devices;
    const selectedId = await devices.selectedDeviceId(userId);
    const usable = (await devices.listForUser(userId)).filter(({ membership }) => membership.status === 'ok');
    return usable.find(({ device }) => device.id === selectedId) ?? usable[0] ?? null;
  }

  async select(userId: string, deviceId: string): Promise<SelectedDevice> {
    const grant = await this.grant(userId, deviceId);
    authorize('workspace.view', grant);
    const devices = this.unitOfWork.repositories.devices;
    const device = await devices.findById(deviceId);
    if (!device) throw new ServiceError(404, 'not_found', 'No such device workspace.');
    await devices.setSelected(userId, deviceId);
    return { device: toSummary(device, grant) };
  }

  /** Whether the workspace holds data, which fixes its data region (docs/decisions/workspaces-data-region.md). */
  private async holdsData(deviceId: string): Promise<boolean> {
    return this.unitOfWork.repositories.devices.holdsData(deviceId);
  }

  private async toDevice(row: DeviceRow, grant: WorkspaceGrant): Promise<Device> {
    return {
      ...toSummary(row, grant),
      deviceType: row.deviceType,
      deviceTypeOther: row.deviceTypeOther,
      bodyParts: row.bodyParts,
      deviceDevPhase: row.developmentStages,
      companyName: row.companyName,
      country: row.country,
      countryState: row.countryState,
      streetAddress: row.streetAddress,
      city: row.city,
      zipCode: row.zipCode,
      dataRegion: row.dataRegion,
      dataRegionChangeable: !(await this.holdsData(row.id)),
      deviceUsers: await this.unitOfWork.repositories.devices.countMembers(row.id, 'ok'),
    };
  }
}

function companyColumns(company: Company) {
  return {
    companyName: company.companyName,
    country: company.country,
    countryState: company.state ?? null,
    streetAddress: company.streetAddress,
    city: company.city,
    zipCode: company.zipCode,
  };
}

function deviceColumns(input: NewWorkspace) {
  return {
    deviceType: input.deviceInfo.deviceType,
    deviceTypeOther: input.deviceInfo.deviceType === 'other' ? (input.deviceInfo.deviceTypeOther ?? null) : null,
    bodyParts: [...new Set(input.bodyParts)],
    developmentStages: [...new Set(input.developmentStages)],
    ...companyColumns(input.company),
  };
}
