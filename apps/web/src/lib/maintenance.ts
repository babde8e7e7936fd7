import { errorCodes, healthEndpoints, healthSchema, pathOf } from '@insilico/contracts';
import { assignLocation } from './browserLocation';

/** The server's static notice; it stays up during maintenance. */
export const maintenancePage = '/maintenance.html';

/** Sends the whole page to the maintenance notice. */
export function showMaintenanceNotice(): void {
  assignLocation(maintenancePage);
}

/** Whether an API answer is the maintenance gate's (503 with the `maintenance` code). */
export function isMaintenanceAnswer(status: number, code: string | undefined): boolean {
  return status === 503 && code === errorCodes.maintenance;
}

/**
 * A chunk of the app (a lazy page, panel or its CSS) that failed to load. Browsers word it differently; Vite adds
 * "Unable to preload CSS". During maintenance the server answers 503 for the file, and the import fails this way.
 */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS|Loading chunk/i.test(
    message,
  );
}

/**
 * Asks the health endpoint (open during maintenance) whether the workspace is down for maintenance. A failed or strange
 * answer counts as "no": the caller then shows its own error.
 */
export async function isInMaintenance(): Promise<boolean> {
  try {
    const response = await fetch(pathOf(healthEndpoints.check, {}), {
      headers: { Accept: 'application/json' },
      cache: 'no-store',
    });
    const health = healthSchema.safeParse(await response.json());
    return health.success && health.data.maintenance;
  } catch {
    return false;
  }
}

/**
 * After a chunk failed to load: the maintenance notice when the workspace is down for maintenance. Answers whether
 * it went there.
 */
export async function showNoticeIfInMaintenance(): Promise<boolean> {
  if (!(await isInMaintenance())) return false;
  showMaintenanceNotice();
  return true;
}

/**
 * For `fetch` calls outside `apiFetch` (model and mesh files): a maintenance answer sends the page to the notice,
 * so that the user never sees "could not be loaded (status 503)" for a planned pause.
 */
export async function checkMaintenanceAnswer(response: Response): Promise<void> {
  if (response.status !== 503) return;
  try {
    const body = (await response.clone().json()) as { error?: { code?: string } };
    if (isMaintenanceAnswer(response.status, body.error?.code)) showMaintenanceNotice();
  } catch {
    // Not the gate's JSON: a static file's bare 503 or another server's; ask the health route.
    await showNoticeIfInMaintenance();
  }
}
