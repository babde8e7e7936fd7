import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';

// Helpers of the workspace journeys (team, add device): accounts, workspaces made through the API
// where the journey is about something else, and the operator's outbox.

export function uniqueEmail(prefix: string): string {
  return `${prefix}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
}

/**
 * Opens `path`, which sends the visitor to sign-in, and creates an account there: the form, then the
 * confirmation link mailed to `email` (read from the outbox), opened in the same page, which lands signed in.
 */
export async function signUp(page: Page, path: string, name: string, email = uniqueEmail('journey')): Promise<string> {
  await page.goto(path);
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Full name').fill(name);
  await page.getByLabel('Password').fill('Valve-Sizing-2026');
  await page.getByRole('button', { name: 'Create account' }).click();
  await confirmMailedSignUp(page, email);
  return email;
}

/** After "Check your e-mail to continue": opens the mailed confirmation link and confirms. */
export async function confirmMailedSignUp(page: Page, email: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Check your e-mail to continue' })).toBeVisible();
  await page.goto(await mailedLinkPath(email, /https?:\/\/\S+\/confirm\?token=[\w%-]+/));
  await page.getByRole('button', { name: 'Confirm and continue' }).click();
}

/** A state-changing API call from the page's session (the server's same-origin rule wants the Origin). */
export async function api(page: Page, method: 'POST' | 'PUT' | 'PATCH', path: string, data: unknown) {
  const origin = new URL(page.url()).origin;
  const response = await page.request.fetch(path, { method, data, headers: { Origin: origin } });
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as Record<string, unknown>;
}

/** A whole file uploaded with tus from the page's session (one PATCH), with its metadata; answers the upload id. */
export async function tusUpload(
  page: Page,
  deviceId: string,
  bytes: Buffer,
  metadata: Record<string, string>,
): Promise<string> {
  const origin = new URL(page.url()).origin;
  const created = await page.request.post(`/api/devices/${deviceId}/uploads`, {
    headers: {
      Origin: origin,
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(bytes.length),
      'Upload-Metadata': Object.entries(metadata)
        .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
        .join(','),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const location = created.headers()['location']!;
  const patched = await page.request.patch(location, {
    headers: {
      Origin: origin,
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': '0',
      'Content-Type': 'application/offset+octet-stream',
    },
    data: bytes,
  });
  expect(patched.status(), await patched.text()).toBe(204);
  return location.split('/').pop()!;
}

/**
 * Creates a workspace for the signed-in user (they become its admin; it becomes their selected one), with one
 * development stage unless others are named.
 */
export async function createWorkspace(
  page: Page,
  deviceName: string,
  developmentStages: readonly string[] = ['concept_and_design_feasibility'],
): Promise<string> {
  const created = await api(page, 'POST', '/api/devices', {
    bodyParts: ['heart_and_thorax'],
    developmentStages,
    deviceInfo: { deviceName, deviceType: 'valve_replacement' },
    company: {
      companyName: 'Cardio GmbH',
      country: 'DE',
      streetAddress: 'Hauptstraße 1',
      city: 'Berlin',
      zipCode: '10115',
    },
  });
  return (created.device as { deviceId: string }).deviceId;
}

/**
 * Creates a project the way the wizard's last step does, at the workspace's first development stage, with the signed-in
 * user as its creator (on its team) and the cohorts and teammates named; answers its id.
 */
export async function createProject(
  page: Page,
  deviceId: string,
  name: string,
  links: { cohortIds?: readonly string[]; teamUserIds?: readonly string[] } = {},
): Promise<string> {
  const project = await api(page, 'POST', `/api/devices/${deviceId}/projects`, {
    name,
    developmentStage: 'concept_and_design_feasibility',
    cohortIds: links.cohortIds ?? [],
    versionIds: [],
    teamUserIds: links.teamUserIds ?? [],
  });
  return project.id as string;
}

/** The accept link of the newest invitation mailed to `email`. */
export function mailedInvitationPath(email: string): Promise<string> {
  return mailedLinkPath(email, /https?:\/\/\S+\/accept-invitation\?token=[\w-]+/);
}

/**
 * A call to the running server's operator routes with the token it wrote into E2E_DATA_DIR (as `npm run outbox`
 * does): loopback only, never a browser session.
 */
export async function operatorRequest(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: the journey calls the operator routes with their token.');
  const server = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as {
    port: number;
    operatorToken: string | null;
  };
  if (!server.operatorToken) throw new Error('The server runs without the embedded database: no operator routes.');
  return fetch(`http://127.0.0.1:${server.port}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${server.operatorToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** The path of the link matching `pattern` in the newest mail to `email`, read from the operator's outbox. */
async function mailedLinkPath(email: string, pattern: RegExp): Promise<string> {
  const response = await operatorRequest('GET', `/api/operator/outbox?to=${encodeURIComponent(email)}&limit=1`);
  expect(response.status).toBe(200);
  const { items } = (await response.json()) as { items: { text: string }[] };
  const link = items[0]?.text.match(pattern)?.[0];
  if (!link) throw new Error(`No mail with a ${pattern} link to ${email} in the outbox.`);
  const url = new URL(link);
  return url.pathname + url.search;
}
