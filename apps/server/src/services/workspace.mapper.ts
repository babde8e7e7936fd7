import type { DeviceSummary } from '@insilico/contracts';
import type { WorkspaceGrant } from '../policies/workspace.policy';
import type { DeviceRow } from '../repositories/device.repository';
import { pictureUrls } from './picture-urls';

/** The signed-in user acting on workspaces. */
export interface Actor {
  id: string;
  email: string;
  fullName: string;
}

export function toSummary(row: DeviceRow, grant: WorkspaceGrant): DeviceSummary {
  return {
    deviceId: row.id,
    deviceName: row.name,
    devicePicture: row.pictureFileId ? pictureUrls.device(row.id, row.pictureFileId) : null,
    datetimeCreation: row.createdAt.toISOString(),
    role: grant.role,
    userStatus: grant.status,
    isAdmin: grant.role === 'admin' && grant.status === 'ok',
  };
}
