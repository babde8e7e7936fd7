import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { SWRConfig } from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  analysisErrorMessage,
  reasonRequiredMessage,
  type Analysis,
  type CohortParameterTable,
  type Project,
} from '@insilico/contracts';
import { mulberry32 } from '@insilico/stats';
import { analysisUrls } from '../api';
import { testAnalysis } from '../../../../test/fixtures/analysis.fixtures';
import { handleRequest, type WorkerPort, type WorkerReply, type WorkerRequest } from '../worker/analysisProtocol';
import { AnalysisWorkspace } from './AnalysisWorkspace';

// Charts are drawn by the lazily loaded ECharts chunk, which the journey covers; here a card is its title.
vi.mock('./charts/ChartCard', () => ({
  ChartCard: ({ title, empty }: { title: string; empty: boolean }) => (
    <div>
      {title}
      {empty ? ' No graph data' : ''}
    </div>
  ),
}));

const keys = ['height_cm', 'aorticAnnulusPerimeter_mm', 'weight_kg'];

function parameterTable(patients: number): CohortParameterTable {
  const random = mulberry32(3);
  return {
    cohortId: 'c1',
    synthetic: true,
    patients: Array.from({ length: patients }, (_, i) => `SYN-${String(i + 1).padStart(6, '0')}`),
    sex: Array.from({ length: patients }, (_, i) => (i % 2 ? 'female' : 'male')),
    age: Array.from({ length: patients }, () => 40 + Math.floor(30 * random())),
    parameters: [
      { key: 'height_cm', group: 'body', label: 'Height', unit: 'cm', decimals: 1 },
      {
        key: 'aorticAnnulusPerimeter_mm',
        group: 'cardiac',
        label: 'Aortic annulus perimeter',
        unit: 'mm',
        decimals: 1,
      },
      { key: 'weight_kg', group: 'body', label: 'Weight', unit: 'kg', decimals: 1 },
    ],
    values: keys.map((_, j) => Array.from({ length: patients }, () => 50 + 30 * j + 20 * random())),
  };
}

function analysis(patients: number): Analysis {
  return testAnalysis({
    parameters: keys,
    cohort: { id: 'c1', name: 'Cohort', size: patients, status: 'ready', source: 'virtual' },
  });
}

const project = {
  id: '00000000-0000-4000-8000-00000000000b',
  name: 'Sizing',
  deviceVersions: [],
  cohorts: [],
} as unknown as Project;

/** A worker that runs the real job asynchronously, or answers every job with `reply`. */
function fakeWorker(reply?: (request: WorkerRequest) => WorkerReply): () => WorkerPort {
  return () => {
    const port: WorkerPort = {
      onmessage: null,
      onerror: null,
      terminate: () => {},
      postMessage: (message) =>
        setTimeout(() => port.onmessage?.({ data: (reply ?? handleRequest)(message) } as MessageEvent<WorkerReply>)),
    };
    return port;
  };
}

function show(patients: number, startWorker = fakeWorker()) {
  return render(
    <MemoryRouter>
      <AnalysisWorkspace
        deviceId="00000000-0000-4000-8000-00000000000c"
        project={project}
        analysis={analysis(patients)}
        table={parameterTable(patients)}
        reload={() => {}}
        startWorker={startWorker}
      />
    </MemoryRouter>,
  );
}

afterEach(() => vi.restoreAllMocks());

describe('AnalysisWorkspace', () => {
  it('saves an analysis using a deleted trial’s outcome at once and says what the server took out and why', async () => {
    const gone = 'trial.22222222-2222-4222-8222-222222222222.pressure_drop';
    const stored = { ...analysis(25), parameters: [...keys, gone] };
    const saves: { parameters: string[] }[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_url, init) => {
      saves.push(JSON.parse(String(init?.body)) as { parameters: string[] });
      const dropped = [
        {
          parameter: gone,
          label: 'Pressure drop',
          reason: 'Its trial was deleted, so its outcomes are no longer available.',
          removedFrom: ['the analysed parameters'],
        },
      ];
      const saved = { ...analysis(25), revision: 2, dropped };
      return new Response(JSON.stringify(saved), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    render(
      <MemoryRouter>
        <AnalysisWorkspace
          deviceId="00000000-0000-4000-8000-00000000000c"
          project={project}
          analysis={stored}
          table={parameterTable(25)}
          reload={() => {}}
          startWorker={fakeWorker()}
        />
      </MemoryRouter>,
    );
    await waitFor(() => expect(saves).toHaveLength(1));
    expect(saves[0]!.parameters).toEqual([...keys, gone]);
    const title = await screen.findByText('A parameter was taken out of this analysis');
    const alert = title.closest('[role="status"]') as HTMLElement;
    expect(alert.textContent).toContain(
      `Pressure drop (${gone}): Its trial was deleted, so its outcomes are no longer available. Removed from the analysed parameters.`,
    );
    // The worker recalculates without it: the summary is there.
    expect(await screen.findByRole('table', { name: /^Summary/ })).toBeTruthy();
    fireEvent.click(within(alert).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByText('A parameter was taken out of this analysis')).toBeNull());
    expect(saves).toHaveLength(1);
  });

  it('shows the worker’s numbers and saves an exclusion made in the patients drawer, which recalculates', async () => {
    const saves: unknown[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_url, init) => {
      const body = JSON.parse(String(init?.body)) as { excluded: string[]; revision: number };
      saves.push(body);
      const saved = { ...analysis(25), excluded: body.excluded, excludedCount: body.excluded.length, revision: 2 };
      return new Response(JSON.stringify(saved), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    show(25);
    const summary = await screen.findByRole('table', { name: /^Summary/ });
    const meanBefore = within(within(summary).getByRole('row', { name: /^Height/ })).getAllByRole('cell')[3]!
      .textContent;
    expect(screen.getByText(/25 of 25 patients included/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Patients' }));
    const drawer = await screen.findByRole('region', { name: 'Patients' });
    expect(within(drawer).getByText('Synthetic')).toBeTruthy();
    fireEvent.click(within(drawer).getByRole('button', { name: 'Remove SYN-000003' }));
    // The reason is asked first (issue 20): nothing changes without one.
    const asked = await screen.findByRole('dialog', { name: 'Exclude SYN-000003?' });
    fireEvent.click(within(asked).getByRole('button', { name: 'Exclude' }));
    expect(within(asked).getByRole('alert').textContent).toBe(reasonRequiredMessage);
    // (The open dialog hides the drawer from the accessibility tree.)
    expect(within(drawer).getByRole('checkbox', { name: 'Include SYN-000003', hidden: true })).toHaveProperty(
      'checked',
      true,
    );
    fireEvent.change(within(asked).getByRole('textbox', { name: /Reason for change/ }), {
      target: { value: 'Annulus measured on a calcified ring' },
    });
    fireEvent.click(within(asked).getByRole('button', { name: 'Exclude' }));
    // The dialog's closing transition keeps the drawer hidden a moment.
    await waitFor(() =>
      expect(within(drawer).getByRole('checkbox', { name: 'Include SYN-000003' })).toHaveProperty('checked', false),
    );

    await waitFor(() =>
      expect(saves).toEqual([
        expect.objectContaining({
          revision: 1,
          excluded: ['SYN-000003'],
          reason: 'Annulus measured on a calcified ring',
        }),
      ]),
    );
    await waitFor(() => expect(within(drawer).getByText(/24 of 25 included · Saved/)).toBeTruthy());
    fireEvent.click(within(drawer).getByRole('button', { name: 'Close patients' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Patients' })).toBeNull());
    expect(screen.getByText(/24 of 25 patients included/)).toBeTruthy();
    await waitFor(() =>
      expect(
        within(
          within(screen.getByRole('table', { name: /^Summary/ })).getByRole('row', { name: /^Height/ }),
        ).getAllByRole('cell')[3]!.textContent,
      ).not.toBe(meanBefore),
    );
    // The whole page (every block's tables) renders several times in jsdom: slow on a busy 2-core machine.
  }, 120_000);

  it('saves an exclusion made just before the page closes and leaves that revision in the cache, so that opening it again does not conflict', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (_url, init) => {
      const body = JSON.parse(String(init?.body)) as { excluded: string[] };
      const saved = { ...analysis(25), excluded: body.excluded, excludedCount: body.excluded.length, revision: 2 };
      return new Response(JSON.stringify(saved), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    const cache = new Map();
    const provider = () => cache;
    const view = render(
      <SWRConfig value={{ provider }}>
        <MemoryRouter>
          <AnalysisWorkspace
            deviceId="00000000-0000-4000-8000-00000000000c"
            project={project}
            analysis={analysis(25)}
            table={parameterTable(25)}
            reload={() => {}}
            startWorker={fakeWorker()}
          />
        </MemoryRouter>
      </SWRConfig>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Patients' }));
    const drawer = await screen.findByRole('region', { name: 'Patients' });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Remove SYN-000003' }));
    const asked = await screen.findByRole('dialog', { name: 'Exclude SYN-000003?' });
    fireEvent.change(within(asked).getByRole('textbox', { name: /Reason for change/ }), {
      target: { value: 'Outlier' },
    });
    fireEvent.click(within(asked).getByRole('button', { name: 'Exclude' }));
    // Not "Saved" before the server has it: the save waits a moment to gather quick clicks.
    expect(within(drawer).getByText(/24 of 25 included · Saving…/)).toBeTruthy();
    // The page closes at once; the app (and its cache) stays, and the exclusion is still saved.
    view.rerender(<SWRConfig value={{ provider }} />);
    await waitFor(() => expect(fetchSpy).toHaveBeenCalledTimes(1));
    const key = analysisUrls.analysis('00000000-0000-4000-8000-00000000000c', project.id, analysis(25).id);
    // The page's cleanup runs with React's passive effects, which may come after the re-render returns.
    await waitFor(() =>
      expect((cache.get(key) as { data?: Analysis } | undefined)?.data).toMatchObject({
        revision: 2,
        excluded: ['SYN-000003'],
      }),
    );
  }, 120_000);

  it('explains the minimum instead of numbers below 20 patients', async () => {
    show(5);
    expect(await screen.findByText(/Statistical analysis needs at least 20 patients\./)).toBeTruthy();
    expect(screen.queryByRole('table', { name: /^Summary/ })).toBeNull();
  });

  it('shows the spec’s error dialog with Cancel and Reload when the analysis fails', async () => {
    show(
      25,
      fakeWorker((request) => ({ seq: request.seq, ok: false, code: 'failed', message: 'out of memory' })),
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(analysisErrorMessage)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Reload' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says the patients of an imaging cohort are the user’s own imaging data, never synthetic', async () => {
    const own: CohortParameterTable = {
      ...parameterTable(25),
      cohortId: 'd1',
      synthetic: false,
      patients: Array.from({ length: 25 }, (_, i) => `P${String(i + 1).padStart(2, '0')}`),
      sex: Array.from({ length: 25 }, () => ''),
      age: Array.from({ length: 25 }, () => null),
    };
    render(
      <MemoryRouter>
        <AnalysisWorkspace
          deviceId="00000000-0000-4000-8000-00000000000c"
          project={project}
          analysis={{
            ...analysis(25),
            cohort: { id: 'd1', name: 'Our CTs', size: 25, status: 'ready', source: 'imaging' },
          }}
          table={own}
          reload={() => {}}
          startWorker={fakeWorker()}
        />
      </MemoryRouter>,
    );
    expect(await screen.findByText('Your imaging data')).toBeTruthy();
    expect(screen.queryByText('Synthetic')).toBeNull();
    // Their measured parameters can be compared with a reference population of real patients.
    expect(await screen.findByText(/compared on the parameters measured on their delivered surfaces/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Compare with the reference' })).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Patients' }));
    const drawer = await screen.findByRole('region', { name: 'Patients' });
    expect(within(drawer).getByText('Your imaging data')).toBeTruthy();
    expect(within(drawer).queryByText('Synthetic')).toBeNull();
    expect(within(drawer).getAllByText('Sex and age not known (de-identified)')).toHaveLength(25);
  }, 60_000);
});
