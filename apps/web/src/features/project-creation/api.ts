import useSWR from 'swr';
import {
  createdProjectSchema,
  deviceSchema,
  projectDraftSchema,
  projectListSchema,
  projectTitleCheckSchema,
  questionListSchema,
  questionSchema,
  type CreatedProject,
  type CreateProject,
  type CreateSsm,
  type CreateQuestion,
  type Device,
  type ProjectDraft,
  type ProjectDraftState,
  type ProjectList,
  type Question,
  type QuestionList,
} from '@insilico/contracts';
import { trackAfter } from '../../lib/analytics';
import { apiFetch } from '../../lib/api';
import type { ApiError } from '../../lib/apiError';

/** URLs (and SWR keys) of the wizard's calls in one workspace. */
export const creationUrls = {
  device: (deviceId: string) => `/api/devices/${deviceId}`,
  draft: (deviceId: string) => `/api/devices/${deviceId}/project-draft`,
  draftSsms: (deviceId: string) => `/api/devices/${deviceId}/project-draft/ssms`,
  titleCheck: (deviceId: string, name: string) =>
    `/api/devices/${deviceId}/project-title-check?${new URLSearchParams({ name }).toString()}`,
  projects: (deviceId: string) => `/api/devices/${deviceId}/projects`,
  questions: (deviceId: string) => `/api/devices/${deviceId}/questions-of-interest`,
};

/** The workspace's details (its development stages). The settings pages use the same key. */
export function useWorkspaceDetails(deviceId: string) {
  return useSWR<Device, ApiError>(creationUrls.device(deviceId), (url: string) =>
    apiFetch(url, { schema: deviceSchema }),
  );
}

/** The caller's draft in this workspace (`state` null: none yet). Loaded once; the wizard holds it after that. */
export function useProjectDraft(deviceId: string) {
  return useSWR<ProjectDraft, ApiError>(
    creationUrls.draft(deviceId),
    (url: string) => apiFetch(url, { schema: projectDraftSchema }),
    { revalidateIfStale: false },
  );
}

export function saveProjectDraft(deviceId: string, state: ProjectDraftState): Promise<ProjectDraft> {
  return apiFetch(creationUrls.draft(deviceId), { method: 'PUT', body: state, schema: projectDraftSchema });
}

/** Adds an SSM to the draft once the server has checked it (issue 18); answers the draft as saved. */
export function addDraftSsm(deviceId: string, body: CreateSsm): Promise<ProjectDraft> {
  return apiFetch(creationUrls.draftSsms(deviceId), { method: 'POST', body, schema: projectDraftSchema });
}

export function discardProjectDraft(deviceId: string): Promise<undefined> {
  return apiFetch(creationUrls.draft(deviceId), { method: 'DELETE' });
}

/** The server's answer about a title: the spec message, the taken message, or null. */
export async function checkProjectTitle(deviceId: string, name: string): Promise<string | null> {
  return (await apiFetch(creationUrls.titleCheck(deviceId, name), { schema: projectTitleCheckSchema })).problem;
}

export function createProject(deviceId: string, body: CreateProject): Promise<CreatedProject> {
  return apiFetch(creationUrls.projects(deviceId), { method: 'POST', body, schema: createdProjectSchema }).then(
    trackAfter('project created', (project) => ({ deviceId, projectId: project.id })),
  );
}

/** The workspace's projects (every status), for "from a previous project". */
export function usePreviousProjects(deviceId: string) {
  return useSWR<ProjectList, ApiError>(creationUrls.projects(deviceId), (url: string) =>
    apiFetch(url, { schema: projectListSchema }),
  );
}

export function useQuestions(deviceId: string) {
  return useSWR<QuestionList, ApiError>(creationUrls.questions(deviceId), (url: string) =>
    apiFetch(url, { schema: questionListSchema }),
  );
}

export function createQuestion(deviceId: string, body: CreateQuestion): Promise<Question> {
  return apiFetch(creationUrls.questions(deviceId), { method: 'POST', body, schema: questionSchema });
}
