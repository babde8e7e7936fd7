import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { CohortParameterTable } from '@insilico/contracts';
import type { AnalysisOutcome } from '../worker/analysisProtocol';
import { ExtremeCasesBlock } from './ExtremeCasesBlock';

const deviceId = '00000000-0000-4000-8000-00000000000c';
const projectId = '00000000-0000-4000-8000-00000000000b';
const room = '00000000-0000-4000-8000-0000000000a1';
const simulation = '00000000-0000-4000-8000-0000000000a2';

const table = { patients: ['SYN-1', 'SYN-2', 'SYN-3'] } as unknown as CohortParameterTable;
/** Two extreme cases: the analysed rows 0 and 2 (patients SYN-1 and SYN-3). */
const outcome = {
  rows: [0, 1, 2],
  analysis: {
    extremeCases: {
      cases: [
        { row: 0, cluster: 0, clusterSize: 2, distance: 2.5 },
        { row: 2, cluster: 1, clusterSize: 1, distance: 1.75 },
      ],
      explainedVariance: 0.9,
    },
  },
} as unknown as AnalysisOutcome;

function show(runsOf?: (patientId: string) => { trialName: string; roomId: string; simulationId: string }[]) {
  return render(
    <MemoryRouter>
      <ExtremeCasesBlock
        outcome={outcome}
        table={table}
        deviceId={deviceId}
        projectId={projectId}
        cohortId="c1"
        cohortSource="virtual"
        canOpenRooms
        {...(runsOf ? { runsOf } : {})}
      />
    </MemoryRouter>,
  );
}

const rowOf = (patientId: string) => screen.getByRole('row', { name: new RegExp(`^${patientId} `) });

describe('ExtremeCasesBlock', () => {
  it('links an extreme case to its simulation in each analysed trial, beside Open room', () => {
    show((patientId) =>
      patientId === 'SYN-1' ? [{ trialName: 'Valve A', roomId: room, simulationId: simulation }] : [],
    );
    const link = within(rowOf('SYN-1')).getByRole('link', { name: 'Open simulation (Valve A)' });
    expect(link.getAttribute('href')).toBe(
      `/projects/room/analyses?project=${projectId}&room=${room}&simulation=${simulation}&device=${deviceId}`,
    );
    expect(within(rowOf('SYN-1')).getByRole('button', { name: 'Open room' })).toBeTruthy();
    // A patient without a run in the trial: only Open room.
    expect(within(rowOf('SYN-3')).queryByRole('link')).toBeNull();
    expect(within(rowOf('SYN-3')).getByRole('button', { name: 'Open room' })).toBeTruthy();
  });

  it('offers only Open room without trial outcomes in the analysis', () => {
    show();
    expect(screen.queryAllByRole('link', { name: /^Open simulation/ })).toHaveLength(0);
    expect(screen.getAllByRole('button', { name: 'Open room' })).toHaveLength(2);
  });
});
