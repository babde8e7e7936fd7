import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { simulationHelpMessage, type SimulationSetup } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { fluidSetup, simulation, solidSetup } from '../../../../test/fixtures/simulation.fixtures';
import { SimulationSetupPanel } from './SimulationSetupPanel';

configure({ asyncUtilTimeout: 5000 });

const room = '/api/devices/d-1/projects/p-1/rooms/r-1/simulations';

const fetchMock = vi.fn<typeof fetch>();
const requests: { method: string; url: string; body: Record<string, unknown> | null }[] = [];
let setups: Record<string, SimulationSetup>;
let estimateAnswer: (body: Record<string, unknown>) => Response;
let createAnswer: () => Response;

beforeEach(() => {
  requests.length = 0;
  setups = { fluid: fluidSetup(), solid: solidSetup() };
  estimateAnswer = (body) =>
    jsonResponse(200, {
      resolution: body.resolution,
      dp_mm: 2,
      particles: 12345,
      endTime_s: 0.857,
      steps: 3825,
      seconds: 47,
    });
  createAnswer = () => jsonResponse(201, simulation({ status: 'queued', progress: 0 }));
  fetchMock.mockImplementation((input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://x');
    const method = init?.method ?? 'GET';
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : null;
    requests.push({ method, url: `${url.pathname}${url.search}`, body });
    if (method === 'GET' && url.pathname === `${room}/setup`) {
      const answer = setups[url.searchParams.get('kind') ?? ''];
      return Promise.resolve(answer ? jsonResponse(200, answer) : jsonResponse(404, {}));
    }
    if (method === 'POST' && url.pathname === `${room}/estimate`) return Promise.resolve(estimateAnswer(body!));
    if (method === 'POST' && url.pathname === room) return Promise.resolve(createAnswer());
    return Promise.resolve(jsonResponse(404, { error: { code: 'not_found', message: 'No such API route.' } }));
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.search}</output>;
}

function renderPanel(over: { unsaved?: boolean } = {}) {
  const onPlanes = vi.fn();
  const onStarted = vi.fn();
  renderWithProviders(
    <MemoryRouter initialEntries={['/projects/room?project=p-1&room=r-1']}>
      <SimulationSetupPanel
        deviceId="d-1"
        projectId="p-1"
        roomId="r-1"
        roomName="Valve room"
        roomRevision="1"
        unsaved={over.unsaved ?? false}
        onPlanes={onPlanes}
        onStarted={onStarted}
      />
      <Where />
    </MemoryRouter>,
  );
  return { onPlanes, onStarted };
}

const estimates = () => requests.filter((r) => r.url === `${room}/estimate`);

describe('SimulationSetupPanel', () => {
  it('shows the fluid kind with the patient’s defaults, resolutions with estimates, and draws its planes', async () => {
    const { onPlanes } = renderPanel();
    expect(await screen.findByLabelText('Heart rate (bpm)')).toHaveProperty('value', '70');
    expect(screen.getByText('Blood flow through the anatomy with the device in place.')).toBeTruthy();
    expect(screen.getByLabelText('Stroke volume (mL)')).toHaveProperty('value', '72.5');
    expect(screen.getByText(/11,208 particles · about 43 s/)).toBeTruthy();
    expect(screen.getByText(/99,963 particles · about 15 min/)).toBeTruthy();
    expect(screen.queryByLabelText(/^Test/)).toBeNull();
    await waitFor(() => expect(onPlanes).toHaveBeenCalledWith(fluidSetup().planes));
    // The server's estimate of exactly this set-up.
    expect(await screen.findByText(/12,345 particles · about 47 s/)).toBeTruthy();
    expect(estimates()[0]!.body).toMatchObject({ kind: 'fluid', resolution: 'coarse' });
  });

  it('asks for a new estimate when a value or the resolution changes, and shows the server’s refusal', async () => {
    renderPanel();
    await screen.findByText(/12,345 particles/);
    estimateAnswer = () =>
      jsonResponse(422, {
        error: {
          code: 'simulation_setup_invalid',
          message: 'The fine resolution needs about 500,000 particles, more than the 400,000 a simulation may have.',
        },
      });
    fireEvent.click(screen.getByLabelText(/^Fine/));
    expect(await screen.findByText(/more than the 400,000 a simulation may have/)).toBeTruthy();
    expect(estimates().at(-1)!.body).toMatchObject({ resolution: 'fine' });
    expect(screen.getByRole('button', { name: 'Start simulation' })).toHaveProperty('disabled', true);
    estimateAnswer = (body) =>
      jsonResponse(200, { resolution: body.resolution, dp_mm: 1, particles: 222, endTime_s: 1, steps: 1, seconds: 5 });
    const rate = screen.getByLabelText('Heart rate (bpm)');
    fireEvent.change(rate, { target: { value: '300' } });
    fireEvent.keyDown(rate, { key: 'Enter' });
    // The stepper clamps to the server's range before asking.
    await waitFor(() =>
      expect(estimates().at(-1)!.body).toMatchObject({ parameters: { heartRate_bpm: 200 }, resolution: 'fine' }),
    );
    expect(await screen.findByText(/222 particles/)).toBeTruthy();
  });

  it('shows no estimate and offers no start while a change waits for its own; a name asks nothing', async () => {
    renderPanel();
    await screen.findByText(/12,345 particles/);
    const start = () => screen.getByRole('button', { name: 'Start simulation' });
    expect(start()).toHaveProperty('disabled', false);
    const asked = estimates().length;
    fireEvent.change(screen.getByLabelText('Name (optional)'), { target: { value: 'Baseline' } });
    expect(start()).toHaveProperty('disabled', false);
    fireEvent.change(screen.getByLabelText('Heart rate (bpm)'), { target: { value: '90' } });
    fireEvent.blur(screen.getByLabelText('Heart rate (bpm)'));
    // The previous set-up's estimate is not this one's.
    expect(screen.queryByText(/12,345 particles/)).toBeNull();
    expect(screen.getByText('Estimating…')).toBeTruthy();
    expect(start()).toHaveProperty('disabled', true);
    await screen.findByText(/12,345 particles/);
    expect(start()).toHaveProperty('disabled', false);
    expect(estimates()).toHaveLength(asked + 1);
    expect(estimates().at(-1)!.body).toMatchObject({ parameters: { heartRate_bpm: 90 } });
    expect(estimates().at(-1)!.body).not.toHaveProperty('name');
  });

  it('starts a run with the form’s values and shows a refusal of the server', async () => {
    const { onStarted } = renderPanel();
    await screen.findByText(/12,345 particles/);
    fireEvent.change(screen.getByLabelText('Name (optional)'), { target: { value: ' Baseline ' } });
    createAnswer = () =>
      jsonResponse(409, {
        error: {
          code: 'simulation_name_taken',
          message: 'A simulation with this name already exists in this room. Please choose another name.',
        },
      });
    fireEvent.click(screen.getByRole('button', { name: 'Start simulation' }));
    expect(await screen.findByText(/already exists in this room/)).toBeTruthy();
    expect(onStarted).not.toHaveBeenCalled();
    createAnswer = () => jsonResponse(201, simulation({ status: 'queued', name: 'Baseline' }));
    fireEvent.click(screen.getByRole('button', { name: 'Start simulation' }));
    await waitFor(() => expect(onStarted).toHaveBeenCalledTimes(1));
    expect(requests.filter((r) => r.method === 'POST' && r.url === room).at(-1)!.body).toEqual({
      kind: 'fluid',
      resolution: 'coarse',
      name: 'Baseline',
      parameters: { heartRate_bpm: 70, strokeVolume_mL: 72.5, cycles: 1, shearThinning: false },
    });
    expect(screen.getByLabelText('Name (optional)')).toHaveProperty('value', '');
  });

  it('switches to the solid kind: material library with its source, its constants fixed until custom', async () => {
    const { onPlanes } = renderPanel();
    await screen.findByLabelText('Heart rate (bpm)');
    fireEvent.click(screen.getByRole('button', { name: 'Solid' }));
    expect(await screen.findByText('Device fit: the device expands into the anatomy.')).toBeTruthy();
    expect(await screen.findByText('ASTM F2063')).toBeTruthy();
    expect(screen.getByLabelText("Young's modulus (GPa)")).toHaveProperty('disabled', true);
    await waitFor(() => expect(onPlanes).toHaveBeenLastCalledWith(null));
    await waitFor(() => expect(estimates().at(-1)!.body).toMatchObject({ kind: 'solid' }));
    expect(estimates().at(-1)!.body!.parameters).toEqual({ loadPressure_mmHg: 10, material: 'nitinol' });
  });

  it('offers the test resolution where an operator turned it on', async () => {
    setups.fluid = fluidSetup({ testResolution: true });
    renderPanel();
    fireEvent.click(await screen.findByLabelText(/^Test \(seconds\)/));
    await waitFor(() => expect(estimates().at(-1)!.body).toMatchObject({ resolution: 'test' }));
  });

  it('keeps the form open where the defaults were refused for a value: the estimate of the changed set-up decides', async () => {
    const touching =
      'The device Ring valve, crimped to 0.8 of its diameter, still touches the anatomy: choose a smaller crimped diameter ratio or move the device into the aortic root.';
    setups.solid = {
      ...solidSetup(),
      estimates: null,
      problems: [touching],
      problemsAdjustable: true,
      testResolution: true,
    };
    estimateAnswer = (body) =>
      (body.parameters as { loadPressure_mmHg?: number }).loadPressure_mmHg === 20
        ? jsonResponse(200, {
            resolution: body.resolution,
            dp_mm: 2,
            particles: 2345,
            endTime_s: 0.002,
            steps: 50,
            seconds: 3,
          })
        : jsonResponse(422, { error: { code: 'simulation_setup_invalid', message: touching } });
    renderPanel();
    fireEvent.click(await screen.findByRole('button', { name: 'Solid' }));
    // The refusal of the set-up as it stands, from the estimate; the form stays open.
    expect(await screen.findByText(touching)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Start simulation' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('radio', { name: /^Coarse/ })).toHaveProperty('disabled', false);
    expect(screen.queryByText(/over the particle limit/)).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: /^Test \(seconds\)/ }));
    fireEvent.change(screen.getByLabelText('Pressure load (mmHg)'), { target: { value: '20' } });
    fireEvent.blur(screen.getByLabelText('Pressure load (mmHg)'));
    expect(await screen.findByText(/2,345 particles · about 3 s/)).toBeTruthy();
    expect(screen.queryByText(touching)).toBeNull();
    expect(estimates().at(-1)!.body).toMatchObject({ resolution: 'test' });
    expect(screen.getByRole('button', { name: 'Start simulation' })).toHaveProperty('disabled', false);
  });

  it('tells a guest who runs simulations instead of offering to start one', async () => {
    setups.fluid = fluidSetup({ canRun: false });
    renderPanel();
    expect(await screen.findByText(/only the project team’s members and admins start runs/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Start simulation' })).toBeNull();
  });

  it('says why a room cannot run a kind, warns of unsaved placements, and offers help prefilled', async () => {
    setups.solid = {
      ...solidSetup(),
      estimates: null,
      device: null,
      problems: ['This room has no device: place a device in the room before setting up a solid simulation.'],
    };
    renderPanel({ unsaved: true });
    expect(await screen.findByText(/a simulation uses the devices as saved/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Solid' }));
    expect(
      await screen.findByText(
        'This room has no device: place a device in the room before setting up a solid simulation.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('radio', { name: /^Coarse/ })).toHaveProperty('disabled', true);
    const help = screen.getByText(simulationHelpMessage).closest('.MuiAlert-root') as HTMLElement;
    fireEvent.click(within(help).getByRole('button', { name: 'Ask support' }));
    const search = new URLSearchParams(screen.getByTestId('location').textContent ?? '');
    expect(search.get('drawer')).toBe('ask-support');
    expect(search.get('supportSubject')).toBe('Simulation set-up: Valve room');
    expect(search.get('supportMessage')).toContain('a solid simulation in the room "Valve room"');
    expect(estimates().some((r) => (r.body as { kind?: string }).kind === 'solid')).toBe(false);
  });
});
