import type { WorkspaceGrant } from './workspace.policy';

/**
 * Who may see which picture (docs/decisions/pictures.md). Refusals answer 404, as if there were no
 * picture: a picture URL says nothing about people or workspaces one does not work with.
 */

/** The viewer's and the picture owner's standing in one workspace they both belong to. */
export interface SharedWorkspace {
  viewer: WorkspaceGrant | null;
  owner: WorkspaceGrant | null;
}

/**
 * A profile picture: its owner, and anyone with working access (status ok) to a workspace the owner
 * has joined (pending approval or ok) — the people who see the owner in a team list.
 */
export function maySeeProfilePicture(viewerId: string, ownerId: string, shared: readonly SharedWorkspace[]): boolean {
  if (viewerId === ownerId) return true;
  return shared.some(({ viewer, owner }) => viewer?.status === 'ok' && owner !== null && owner.status !== 'invited');
}

/** A device picture: everyone the workspace is listed for (any membership: the switcher shows it). */
export function maySeeDevicePicture(grant: WorkspaceGrant | null): grant is WorkspaceGrant {
  return grant !== null;
}
