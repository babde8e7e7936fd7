import type { Trial, TrialPatient, TrialPatientStatus } from '@insilico/contracts';

export const patientStatusLabels: Record<TrialPatientStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** Where a patient failed. */
export const stageLabels: Record<NonNullable<TrialPatient['stage']>, string> = {
  placement: 'Placement',
  setup: 'Set-up',
  run: 'Run',
  outcomes: 'Outcomes',
};

export const trialStatusLabels: Record<Trial['status'], string> = {
  running: 'Running',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

/** "about 3 min left", "about 40 s left"; null without an estimate. */
export function etaText(seconds: number | null): string | null {
  if (seconds === null || !Number.isFinite(seconds)) return null;
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds))} s left`;
  if (seconds < 3600) return `about ${Math.round(seconds / 60)} min left`;
  return `about ${(seconds / 3600).toFixed(1)} h left`;
}

/** An outcome value with three significant digits (no unit), or an em dash when there is none. */
export function outcomeText(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  if (value === 0) return '0';
  return Math.abs(value) >= 1000 ? value.toFixed(0) : value.toPrecision(3);
}

/** "3 of 5 patients done · 1 failed". */
export function countsText(trial: Pick<Trial, 'counts'>): string {
  const { counts } = trial;
  const parts = [`${counts.done} of ${counts.total} patients done`];
  if (counts.running) parts.push(`${counts.running} running`);
  if (counts.queued) parts.push(`${counts.queued} queued`);
  if (counts.failed) parts.push(`${counts.failed} failed`);
  if (counts.cancelled) parts.push(`${counts.cancelled} cancelled`);
  return parts.join(' · ');
}
