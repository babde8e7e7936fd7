import { writeBinaryStl } from '@insilico/mesh';
import { ringDeviceMesh } from '@insilico/scenarios';
import type { Page } from '@playwright/test';
import { orderReadyCohort } from './cohort-helpers';
import { expect } from './csp';
import { allowTestResolution } from './simulation-helpers';
import { readyVersion } from './stl-helpers';
import { createProject, createWorkspace, signUp } from './workspace-helpers';

/** What a trial journey runs in: a new member's own workspace, a ready cohort and a project on it. */
export interface TrialWorld {
  deviceId: string;
  cohortId: string;
  cohortName: string;
  projectId: string;
  /** The project's trials in the API. */
  trialsPath: string;
}

/**
 * Signs `person` up with a workspace of their own (the operator's test resolution on for it: runs of seconds), orders
 * a ready cohort of `size` virtual patients and makes a project on it, named after `label` and the time.
 */
export async function startTrialWorld(
  page: Page,
  options: { person: string; label: string; size: 5 | 20 },
): Promise<TrialWorld> {
  const { label } = options;
  await signUp(page, '/', options.person);
  // "Loading your workspace…" outlasts the default 5 s on a loaded machine.
  await expect(page).toHaveURL(/\/onboarding\/body-part$/, { timeout: 60_000 });
  const deviceId = await createWorkspace(page, `Valve ${label} ${Date.now()}`);
  await allowTestResolution(deviceId);
  const cohortName = `${label} ${Date.now() % 1e6}`;
  const cohortId = await orderReadyCohort(page, deviceId, { name: cohortName, size: options.size });
  const projectId = await createProject(page, deviceId, `${label} ${Date.now() % 1e6}`, { cohortIds: [cohortId] });
  const trialsPath = `/api/devices/${deviceId}/projects/${projectId}/trials`;
  return { deviceId, cohortId, cohortName, projectId, trialsPath };
}

/** A ready version of the world's project: a closed ring (torus) of the radii given (mm); answers its id. */
export function ringVersion(
  page: Page,
  world: TrialWorld,
  name: string,
  ring: { majorRadius: number; minorRadius: number },
): Promise<string> {
  const stl = Buffer.from(writeBinaryStl(ringDeviceMesh(ring.majorRadius, ring.minorRadius)));
  return readyVersion(page, world.deviceId, world.projectId, name, stl);
}
