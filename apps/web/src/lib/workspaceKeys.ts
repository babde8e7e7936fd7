import {
  deviceEndpoints,
  isPathOf,
  pathOf,
  projectEndpoints,
  subscriptionEndpoints,
  teamEndpoints,
} from '@insilico/contracts';

/**
 * SWR keys (and URLs) of the signed-in user's workspaces and the selected one. Here rather than in
 * features/devices so that the onboarding can revalidate them after creating a workspace without
 * importing devices, which shows the onboarding's steps (Add device).
 */
export const devicesKey = pathOf(deviceEndpoints.list, {});
export const selectedDeviceKey = pathOf(deviceEndpoints.selected, {});

/** `GET /api/devices/:id/subscription`: the plan and its seats, which members and open invitations take. */
export const subscriptionKey = (deviceId: string) => pathOf(subscriptionEndpoints.get, { deviceId });

/**
 * Every project list and project of a workspace (their teams and avatars): what taking a member out of the
 * workspace changes, since it takes them off every project's team too.
 */
export const isWorkspaceProjectsKey = (deviceId: string) => (key: unknown) =>
  typeof key === 'string' && key.startsWith(pathOf(projectEndpoints.list, { deviceId }));

/**
 * Team and membership data of every workspace: the workspaces, the selected one, each team and its seats. A team
 * notification (someone waits for approval, one was accepted) says these changed on the server; on arrival they
 * are asked for again, or the team page would show the cached team for up to a minute (issue 14).
 */
export const isMembershipKey = (key: unknown) =>
  typeof key === 'string' &&
  (key === devicesKey ||
    key === selectedDeviceKey ||
    isPathOf(teamEndpoints.list, key) ||
    isPathOf(subscriptionEndpoints.get, key));

/**
 * Everything a workspace's members see of each other: teams, project teams, comments, rooms' and simulations'
 * "created by", avatars. A change of one's own name or picture makes all of it stale; a profile change is rare, so
 * every workspace-scoped key is asked for again (mounted ones now, the others when they next mount).
 */
export const isPeopleKey = (key: unknown) =>
  typeof key === 'string' && isPathOf(deviceEndpoints.get, key, { within: true });
