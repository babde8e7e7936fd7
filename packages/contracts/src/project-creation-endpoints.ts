import { deviceParamsSchema } from './devices';
import { endpoint } from './endpoint';
import {
  createdProjectSchema,
  createProjectSchema,
  projectTitleCheckQuerySchema,
  projectTitleCheckSchema,
} from './project-creation';
import { projectDraftSchema, projectDraftStateSchema } from './project-drafts';
import { createQuestionSchema, questionListSchema, questionSchema } from './questions';
import { createSsmSchema } from './ssm';

const devicePath = '/api/devices/:deviceId';
const draftPath = `${devicePath}/project-draft` as const;
const questionsPath = `${devicePath}/questions-of-interest` as const;

/**
 * The project creation wizard's API (docs/decisions/endpoints-in-contracts.md): create a project, the caller's
 * server-side draft, the title check and the workspace's questions of interest. In a file of its own because the
 * draft's schemas (`project-drafts.ts`) import `project-creation.ts`.
 */
export const projectCreationEndpoints = {
  create: endpoint({
    method: 'POST',
    path: `${devicePath}/projects`,
    params: deviceParamsSchema,
    body: createProjectSchema,
    response: { 201: createdProjectSchema },
  }),
  titleCheck: endpoint({
    method: 'GET',
    path: `${devicePath}/project-title-check`,
    params: deviceParamsSchema,
    query: projectTitleCheckQuerySchema,
    response: { 200: projectTitleCheckSchema },
  }),
  draft: endpoint({
    method: 'GET',
    path: draftPath,
    params: deviceParamsSchema,
    response: { 200: projectDraftSchema },
  }),
  saveDraft: endpoint({
    method: 'PUT',
    path: draftPath,
    params: deviceParamsSchema,
    body: projectDraftStateSchema,
    response: { 200: projectDraftSchema },
  }),
  /** An SSM joins the draft checked (issue 18): 409 duplicate, 422 too few patients. */
  addDraftSsm: endpoint({
    method: 'POST',
    path: `${draftPath}/ssms`,
    params: deviceParamsSchema,
    body: createSsmSchema,
    response: { 200: projectDraftSchema },
  }),
  discardDraft: endpoint({ method: 'DELETE', path: draftPath, params: deviceParamsSchema }),
  questions: endpoint({
    method: 'GET',
    path: questionsPath,
    params: deviceParamsSchema,
    response: { 200: questionListSchema },
  }),
  createQuestion: endpoint({
    method: 'POST',
    path: questionsPath,
    params: deviceParamsSchema,
    body: createQuestionSchema,
    response: { 201: questionSchema },
  }),
};
