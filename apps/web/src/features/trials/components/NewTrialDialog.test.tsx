import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { TrialSetup } from '@insilico/contracts';
import type * as TrialApi from '../api';
import { NewTrialDialog } from './NewTrialDialog';

const setup: TrialSetup = {
  cohorts: [
    { id: '00000000-0000-4000-8000-000000000001', name: 'TAVI 20', patients: 20, source: 'virtual' },
    { id: '00000000-0000-4000-8000-000000000002', name: 'Our CTs', patients: 4, source: 'imaging' },
  ],
  ssms: [],
  versions: [{ id: '00000000-0000-4000-8000-000000000003', name: 'Ring valve' }],
  testResolution: false,
  canRun: true,
};

vi.mock('../api', async (importOriginal) => ({
  ...(await importOriginal<typeof TrialApi>()),
  useTrialSetup: () => ({ data: setup, error: undefined, isLoading: false, mutate: vi.fn() }),
}));

describe('the New trial dialog', () => {
  it('offers the user’s own imaging cohorts apart from the virtual ones, marked as their imaging data', () => {
    render(<NewTrialDialog deviceId="d" projectId="p" onClose={() => undefined} onCreated={() => undefined} />);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Cohort or shape model' }));
    const list = within(screen.getByRole('listbox'));
    expect(list.getByText('Cohorts')).toBeTruthy();
    expect(list.getByRole('option', { name: 'TAVI 20 (20 patients)' })).toBeTruthy();
    expect(list.getByText('Your imaging data: delivered patients')).toBeTruthy();
    expect(list.getByRole('option', { name: 'Our CTs (4 patients, your imaging data)' })).toBeTruthy();
  });
});
