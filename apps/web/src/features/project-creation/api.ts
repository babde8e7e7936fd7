import useSWR from 'swr';
import {
  createdProjectSchema,
  deviceEndpoints,
  deviceSchema,
  pathOf,
  projectCreationEndpoints as endpoints,
  projectDraftSchema,
  projectEndpoints,
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
import { apiCall, apiFetch } from '../../lib/api';
import type { ApiError } from '../../lib/apiError';

/** URLs (and SWR keys) of the wizard's calls in one workspace. */
export const creationUrls = {
  /** The settings pages' key. */
  device: (deviceId: string) => pathOf(deviceEndpoints.get, { deviceId }),
  draft: (deviceId: string) => pathOf(endpoints.draft, { deviceId }),
  titleCheck: (deviceId: string, name: string) => pathOf(endpoints.titleCheck, { deviceId }, { name }),
  projects: (deviceId: string) => pathOf(projectEndpoints.list, { deviceId }),
  questions: (deviceId: string) => pathOf(endpoints.questions, { deviceId }),
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
  return apiCall(endpoints.saveDraft, { deviceId }, { body: state, schema: projectDraftSchema });
}

/** Adds an SSM to the draft once the server has checked it (issue 18); answers the draft as saved. */
export function addDraftSsm(deviceId: string, body: CreateSsm): Promise<ProjectDraft> {
  return apiCall(endpoints.addDraftSsm, { deviceId }, { body, schema: projectDraftSchema });
}

export function discardProjectDraft(deviceId: string): Promise<undefined> {
  return apiCall(endpoints.discardDraft, { deviceId });
}

/** The server's answer about a title: the spec message, the taken message, or null. */
export async function checkProjectTitle(deviceId: string, name: string): Promise<string | null> {
  return (await apiFetch(creationUrls.titleCheck(deviceId, name), { schema: projectTitleCheckSchema })).problem;
}

export function createProject(deviceId: string, body: CreateProject): Promise<CreatedProject> {
  return apiCall(endpoints.create, { deviceId }, { body, schema: createdProjectSchema }).then(
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
  return apiCall(endpoints.createQuestion, { deviceId }, { body, schema: questionSchema });
}
