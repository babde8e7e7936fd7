import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TrialDetail, TrialPatient } from '@insilico/contracts';
import { ApiError } from '../../../lib/apiError';
import type * as TrialApi from '../api';
import { RetryTrialDialog } from './RetryTrialDialog';

// The calls are recorded apart from the answer: a rejection a spy returns is reported as unhandled by vitest.
const retryTrial = vi.fn<(...args: Parameters<typeof TrialApi.retryTrial>) => void>();
let answer: () => Promise<TrialDetail> = () => Promise.resolve(trial);
vi.mock('../api', async (importOriginal) => ({
  ...(await importOriginal<typeof TrialApi>()),
  retryTrial: (...args: Parameters<typeof TrialApi.retryTrial>) => {
    retryTrial(...args);
    return answer();
  },
}));

const rule = { landmark: 'aortic_annulus', depth_mm: 2, annulusRange_mm: { min: 23, max: 29 } } as const;
const patient = (patientId: string, over: Partial<TrialPatient>): TrialPatient => ({
  patientId,
  instance: null,
  status: 'done',
  error: null,
  stage: null,
  placement: rule,
  roomId: null,
  simulationId: null,
  simulationStatus: null,
  progress: 0,
  etaSeconds: null,
  outcomes: null,
  outcomeNotes: {},
  outcomeVersions: {},
  earlierOutcomes: [],
  ...over,
});
const trial = {
  id: '00000000-0000-4000-8000-000000000001',
  projectId: '00000000-0000-4000-8000-000000000002',
  ssm: null,
  placement: rule,
  patients: [
    patient('SYN-1', {
      roomId: '00000000-0000-4000-8000-00000000000a',
      simulationId: '00000000-0000-4000-8000-00000000000b',
    }),
    patient('SYN-2', {
      status: 'failed',
      stage: 'placement',
      error: 'The aortic annulus measures 21.4 mm, outside the device’s size range 23–29 mm.',
    }),
    // A run that failed after the patient was placed: it runs again as placed, whatever the rule.
    patient('SYN-3', {
      status: 'failed',
      stage: 'run',
      error: 'The simulation failed.',
      roomId: '00000000-0000-4000-8000-00000000000c',
      simulationId: '00000000-0000-4000-8000-00000000000d',
    }),
  ],
} as unknown as TrialDetail;

const open = (onRetried = vi.fn(), shown: TrialDetail = trial) => {
  render(<RetryTrialDialog deviceId="d" trial={shown} onClose={() => undefined} onRetried={onRetried} />);
  return { dialog: within(screen.getByRole('dialog', { name: 'Retry failed and cancelled patients' })), onRetried };
};

beforeEach(() => {
  retryTrial.mockReset();
  answer = () => Promise.resolve(trial);
});

describe('the retry dialog', () => {
  it('lists the failed patients with their reasons and whether each is placed again, the rule prefilled', () => {
    const { dialog } = open();
    const list = within(dialog.getByRole('list', { name: 'Patients to retry' }));
    expect(list.getAllByRole('listitem')).toHaveLength(2);
    expect(list.getByText('SYN-2: Failed')).toBeTruthy();
    expect(
      list.getByText(
        'Placement: The aortic annulus measures 21.4 mm, outside the device’s size range 23–29 mm. Placed again by the rule below.',
      ),
    ).toBeTruthy();
    expect(list.getByText('Run: The simulation failed. Runs again in its room as placed.')).toBeTruthy();
    expect(dialog.getByRole<HTMLInputElement>('spinbutton', { name: 'Depth offset (mm)' }).value).toBe('2');
    expect(dialog.getByRole<HTMLInputElement>('spinbutton', { name: 'Smallest annulus (mm)' }).value).toBe('23');
    expect(dialog.getByRole<HTMLInputElement>('checkbox', { name: /size range/ }).checked).toBe(true);
  });

  it('sends no rule when it is unchanged', async () => {
    const { dialog, onRetried } = open();
    fireEvent.click(dialog.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(onRetried).toHaveBeenCalledWith(trial));
    expect(retryTrial).toHaveBeenCalledWith('d', trial.projectId, trial.id, {});
  });

  it('sends the corrected rule, saying what it applies to', async () => {
    const { dialog, onRetried } = open();
    expect(dialog.queryByText(/The corrected rule becomes the trial’s/)).toBeNull();
    fireEvent.change(dialog.getByRole('spinbutton', { name: 'Smallest annulus (mm)' }), { target: { value: '20' } });
    expect(
      dialog.getByText(/The corrected rule becomes the trial’s and places the 1 patient placed again/),
    ).toBeTruthy();
    // Enter in a field submits the form (keyboard use).
    fireEvent.submit(dialog.getByRole('spinbutton', { name: 'Smallest annulus (mm)' }).closest('form')!);
    await waitFor(() => expect(onRetried).toHaveBeenCalled());
    expect(retryTrial).toHaveBeenCalledWith('d', trial.projectId, trial.id, {
      placement: { landmark: 'aortic_annulus', depth_mm: 2, annulusRange_mm: { min: 20, max: 29 } },
    });
  });

  it('shows the server’s refusal in its words and stays open', async () => {
    answer = () =>
      Promise.reject(new ApiError(400, 'validation_failed', 'The depth offset must lie between -20 and 20 mm.'));
    const { dialog, onRetried } = open();
    fireEvent.change(dialog.getByRole('spinbutton', { name: 'Depth offset (mm)' }), { target: { value: '25' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Retry' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('The depth offset must lie between -20 and 20 mm.');
    expect(onRetried).not.toHaveBeenCalled();
    expect(dialog.getByRole('button', { name: 'Retry' })).toHaveProperty('disabled', false);
  });

  it('offers no rule when every patient runs again as placed', () => {
    const onlyRuns = { ...trial, patients: trial.patients.filter((p) => p.patientId !== 'SYN-2') };
    const { dialog } = open(vi.fn(), onlyRuns);
    expect(dialog.queryByRole('spinbutton', { name: 'Depth offset (mm)' })).toBeNull();
    expect(dialog.getByText(/runs again in its room as placed: the placement rule does not change/)).toBeTruthy();
  });
});
