import { mentionToken, type CommentPage, type ProjectComment } from '@insilico/contracts';
import { expect } from 'vitest';
import type { TestBrowser } from '../../../test/helpers/browser';
import { json, send } from '../devices/workspace.fixtures';

/** Fixtures of the comment suites (projects and earlier comments come from test/factories/project.factory.ts). */

export async function userIdOf(browser: TestBrowser): Promise<string> {
  return (await json<{ id: string }>(await browser.get('/api/auth/me'))).id;
}

export const commentsPath = (deviceId: string, projectId: string) =>
  `/api/devices/${deviceId}/projects/${projectId}/comments`;

/** Posts a comment (or reply) and expects it to be saved. */
export async function postComment(
  browser: TestBrowser,
  deviceId: string,
  projectId: string,
  body: string,
  parentId?: string,
): Promise<ProjectComment> {
  const response = await browser.postJson(commentsPath(deviceId, projectId), { body, parentId });
  expect(response.status).toBe(201);
  return json<ProjectComment>(response);
}

export function editComment(browser: TestBrowser, deviceId: string, projectId: string, id: string, body: string) {
  return send(browser, 'PATCH', `${commentsPath(deviceId, projectId)}/${id}`, { body });
}

export function deleteComment(browser: TestBrowser, deviceId: string, projectId: string, id: string) {
  return send(browser, 'DELETE', `${commentsPath(deviceId, projectId)}/${id}`);
}

export async function listComments(
  browser: TestBrowser,
  deviceId: string,
  projectId: string,
  query = '',
): Promise<CommentPage> {
  const response = await browser.get(`${commentsPath(deviceId, projectId)}${query}`);
  expect(response.status).toBe(200);
  return json<CommentPage>(response);
}

/** The mention token of a person as the web composer writes it. */
export const mention = (userId: string, fullName: string) => mentionToken({ userId, fullName });
