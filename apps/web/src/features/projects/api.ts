import { useState } from 'react';
import useSWR, { mutate as mutateGlobal, preload, useSWRConfig } from 'swr';
import {
  cohortEndpoints,
  cohortListSchema,
  deviceVersionEndpoints,
  pathOf,
  projectCreationEndpoints,
  projectEndpoints as endpoints,
  deviceVersionListSchema,
  projectListSchema,
  projectOverviewSchema,
  projectSchema,
  projectStatsSchema,
  projectTeamSchema,
  questionListSchema,
  type CohortList,
  type DevelopmentStage,
  type DeviceVersionList,
  type Project,
  type ProjectList,
  type ProjectOverview,
  type ProjectStats,
  type ProjectStatus,
  type ProjectTeam,
  type QuestionList,
  type UpdateProject,
} from '@insilico/contracts';
import { apiCall, apiFetch } from '../../lib/api';
import { takeEarlyOverviewUrl } from '../../lib/earlyRequests';
import type { ApiError } from '../../lib/apiError';

/**
 * What the project lists ask for: a status (or every one) and a search text; for "Show more", a stage group's page
 * (`stage`, `limit`, `offset`).
 */
export interface ProjectListFilter {
  status: ProjectStatus | 'all';
  search: string;
  stage?: DevelopmentStage;
  limit?: number;
  offset?: number;
}

/** Status (none for every status) and search, as the list and the overview take them. */
function filterQuery(filter: Pick<ProjectListFilter, 'status' | 'search'>) {
  return {
    status: filter.status === 'all' ? undefined : filter.status,
    search: filter.search.trim() || undefined,
  };
}

/** URLs of the projects API of one workspace (SWR keys; the definitions are `projectEndpoints` of the contracts). */
export const projectUrls = {
  all: (deviceId: string) => pathOf(endpoints.list, { deviceId }),
  list: (deviceId: string, filter: ProjectListFilter) =>
    pathOf(
      endpoints.list,
      { deviceId },
      { ...filterQuery(filter), stage: filter.stage, limit: filter.limit, offset: filter.offset || undefined },
    ),
  /** The overview's first screen: every stage group's count and first page. */
  overview: (deviceId: string, filter: Pick<ProjectListFilter, 'status' | 'search'>) =>
    pathOf(endpoints.overview, { deviceId }, filterQuery(filter)),
  one: (deviceId: string, projectId: string) => pathOf(endpoints.get, { deviceId, projectId }),
  team: (deviceId: string, projectId: string) => pathOf(endpoints.team, { deviceId, projectId }),
  stats: (deviceId: string, projectId: string) => pathOf(endpoints.stats, { deviceId, projectId }),
};

/** What a project's edit dialog offers: the workspace's questions, its ready cohorts and ready device versions. */
const workspaceUrls = {
  questions: (deviceId: string) => pathOf(projectCreationEndpoints.questions, { deviceId }),
  cohorts: (deviceId: string) => pathOf(cohortEndpoints.list, { deviceId }),
  versions: (deviceId: string) => pathOf(deviceVersionEndpoints.list, { deviceId }),
  readyVersions: (deviceId: string) =>
    pathOf(deviceVersionEndpoints.list, { deviceId }, { status: 'ready', page: 1, pageSize: 100 }),
};

// The same URLs are read by the wizard and the cohort and versions pages: the cache holds the answer as the API
// gives it (SWR shares one entry per key), and callers take `.items`.
export function useWorkspaceQuestions(deviceId: string | null) {
  return useSWR<QuestionList, ApiError>(deviceId ? workspaceUrls.questions(deviceId) : null, (url: string) =>
    apiFetch(url, { schema: questionListSchema }),
  );
}

/** The workspace's cohorts (the edit dialog offers the ready ones). */
export function useWorkspaceCohorts(deviceId: string | null) {
  return useSWR<CohortList, ApiError>(deviceId ? workspaceUrls.cohorts(deviceId) : null, (url: string) =>
    apiFetch(url, { schema: cohortListSchema }),
  );
}

/** The workspace's ready device versions, newest first (at most 100). */
export function useReadyDeviceVersions(deviceId: string | null) {
  return useSWR<DeviceVersionList, ApiError>(deviceId ? workspaceUrls.readyVersions(deviceId) : null, (url: string) =>
    apiFetch(url, { schema: deviceVersionListSchema }),
  );
}

export function useProjects(deviceId: string | null, filter: ProjectListFilter) {
  return useSWR<ProjectList, ApiError>(
    deviceId ? projectUrls.list(deviceId, filter) : null,
    (url: string) => apiFetch(url, { schema: projectListSchema }),
    // A new filter keeps the cards of the last one until its answer arrives (no flash of "loading").
    { keepPreviousData: true },
  );
}

const fetchOverview = (url: string) => apiFetch(url, { schema: projectOverviewSchema });

/** When `primeEarlyOverview` put each overview answer into SWR's cache (ms since the epoch). */
const primedAt = new Map<string, number>();

/** How long the overview's first render waits for the early answer before it shows its loading state instead. */
const primeWaitMs = 400;

/**
 * On a cold start on the overview: takes the answer index.html's inline script asked for (lib/earlyRequests.ts) and
 * puts it into SWR's cache before the page is first drawn, so the first render shows the cards rather than a loading
 * state followed by a second render and layout. Waits at most `primeWaitMs` (the shell should not stay blank behind a
 * slow answer): a later answer is handed to the page's own hook through SWR's preload, a failed one is left to the
 * page, which asks again.
 */
export async function primeEarlyOverview(): Promise<void> {
  const late = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), primeWaitMs));
  const url = await Promise.race([takeEarlyOverviewUrl(), late]);
  // Late or none: the early answer, if any, stays for the page's first request of its URL (lib/api.ts).
  if (url === null || url === 'late') return;
  const request = fetchOverview(url);
  const overview = await Promise.race([request.catch(() => null), late]);
  if (overview === 'late') {
    void preload(url, () => request).catch(() => undefined);
    return;
  }
  if (overview === null) return;
  primedAt.set(url, Date.now());
  await mutateGlobal(url, overview, { revalidate: false });
}

export function useProjectOverview(deviceId: string | null, filter: Pick<ProjectListFilter, 'status' | 'search'>) {
  const key = deviceId ? projectUrls.overview(deviceId, filter) : null;
  // A primed answer counts as SWR's own request would: not asked for again within the deduping interval.
  const { dedupingInterval } = useSWRConfig();
  const [primed] = useState(() => key !== null && Date.now() - (primedAt.get(key) ?? -Infinity) < dedupingInterval);
  return useSWR<ProjectOverview, ApiError>(key, fetchOverview, {
    keepPreviousData: true,
    ...(primed ? { revalidateOnMount: false } : {}),
  });
}

/**
 * Asks for the overview while the page is first being drawn: SWR's hooks ask only once the first render is on
 * screen, which on a cold load of the whole app is a few hundred ms later. Only during the page's first render and
 * only when nothing is cached for the key: SWR hands the preloaded request to the first hook that asks for it (the
 * page's own, in the same commit), so no request is made twice and none is left unused.
 */
export function useEarlyProjectOverview(
  deviceId: string | null,
  filter: Pick<ProjectListFilter, 'status' | 'search'>,
): void {
  const { cache } = useSWRConfig();
  useState(() => {
    const key = deviceId ? projectUrls.overview(deviceId, filter) : null;
    if (key && cache.get(key) === undefined) void preload(key, fetchOverview);
  });
}

export function useProject(deviceId: string | null, projectId: string | null) {
  return useSWR<Project, ApiError>(deviceId && projectId ? projectUrls.one(deviceId, projectId) : null, (url: string) =>
    apiFetch(url, { schema: projectSchema }),
  );
}

export function useProjectStats(deviceId: string | null, projectId: string | null) {
  return useSWR<ProjectStats, ApiError>(
    deviceId && projectId ? projectUrls.stats(deviceId, projectId) : null,
    (url: string) => apiFetch(url, { schema: projectStatsSchema }),
  );
}

export function useProjectTeam(deviceId: string | null, projectId: string | null) {
  return useSWR<ProjectTeam, ApiError>(
    deviceId && projectId ? projectUrls.team(deviceId, projectId) : null,
    (url: string) => apiFetch(url, { schema: projectTeamSchema }),
  );
}

/** After a change of one project: every list of the workspace, the project, its team and its stats reload. */
async function refreshProject(deviceId: string, projectId: string): Promise<void> {
  const prefix = projectUrls.all(deviceId);
  const own = projectUrls.one(deviceId, projectId);
  const overview = pathOf(endpoints.overview, { deviceId });
  await mutateGlobal(
    (key) =>
      typeof key === 'string' &&
      (key === prefix || key.startsWith(`${prefix}?`) || key.startsWith(overview) || key.startsWith(own)),
  );
}

/**
 * After a project's cohorts or versions changed: the project's own answers and lists (as `refreshProject`), and the
 * device versions' lists, whose cards name the projects using each version.
 */
async function refreshProjectAndVersions(deviceId: string, projectId: string): Promise<void> {
  const versions = workspaceUrls.versions(deviceId);
  await Promise.all([
    refreshProject(deviceId, projectId),
    mutateGlobal((key) => typeof key === 'string' && key.startsWith(versions)),
  ]);
}

/** `PATCH .../projects/:projectId`: the title and/or the question of interest. */
export async function updateProject(deviceId: string, projectId: string, change: UpdateProject) {
  const project = await apiCall(endpoints.update, { deviceId, projectId }, { body: change, schema: projectSchema });
  await refreshProject(deviceId, projectId);
  return project;
}

export async function addProjectCohort(deviceId: string, projectId: string, cohortId: string) {
  await apiCall(endpoints.addCohort, { deviceId, projectId }, { body: { cohortId }, schema: projectSchema });
  await refreshProject(deviceId, projectId);
}

export async function removeProjectCohort(deviceId: string, projectId: string, cohortId: string) {
  await apiCall(endpoints.removeCohort, { deviceId, projectId, cohortId }, { schema: projectSchema });
  await refreshProject(deviceId, projectId);
}

export async function addProjectVersion(deviceId: string, projectId: string, versionId: string) {
  await apiCall(deviceVersionEndpoints.addToProject, { deviceId, projectId }, { body: { versionId } });
  await refreshProjectAndVersions(deviceId, projectId);
}

export async function removeProjectVersion(deviceId: string, projectId: string, versionId: string) {
  await apiCall(deviceVersionEndpoints.removeFromProject, { deviceId, projectId, versionId });
  await refreshProjectAndVersions(deviceId, projectId);
}

/** `POST .../status`: one of the allowed moves, with the reason for change the server asks for. */
export async function changeProjectStatus(deviceId: string, projectId: string, status: ProjectStatus, reason: string) {
  const project = await apiCall(
    endpoints.changeStatus,
    { deviceId, projectId },
    { body: { status, reason }, schema: projectSchema },
  );
  await refreshProject(deviceId, projectId);
  return project;
}

export async function addProjectMember(deviceId: string, projectId: string, userId: string) {
  const team = await apiCall(
    endpoints.addMember,
    { deviceId, projectId },
    { body: { userId }, schema: projectTeamSchema },
  );
  await refreshProject(deviceId, projectId);
  return team;
}

export async function removeProjectMember(deviceId: string, projectId: string, userId: string) {
  const team = await apiCall(endpoints.removeMember, { deviceId, projectId, userId }, { schema: projectTeamSchema });
  await refreshProject(deviceId, projectId);
  return team;
}
