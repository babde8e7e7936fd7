import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { jsonResponse, renderWithProviders, testSelectedDevice } from '../../../../test/helpers/renderWithProviders';
import { developmentStages } from '@insilico/contracts';
import { NewMeasurementDrawer } from './NewMeasurementDrawer';

configure({ asyncUtilTimeout: 5000 });

const cohortId = '00000000-0000-4000-8000-0000000000c1';
const row = {
  id: 'SYN-000007',
  synthetic: true,
  sex: 'female',
  age: 81,
  originLocation: 'europe',
  originEthnicity: 'white',
  height_cm: 162,
  weight_kg: 64,
  bmi_kg_m2: 24.4,
  bsa_m2: 1.69,
  pathologies: [],
  phases: ['end-diastole', 'end-systole'],
};
const patient = {
  ...row,
  cohortId,
  ageGroups: [],
  lvHypertrophy: false,
  parameters: [],
  meshes: { phases: ['end-diastole', 'end-systole'], organs: ['aortic_root'], modelVersion: 'anatomy-meshes-1' },
};
const landmarks = {
  patientId: 'SYN-000007',
  phase: 'end-systole',
  unit: 'mm',
  frame: 'LPS-mm-ribcage-centre',
  landmarks: [
    { name: 'left_coronary_ostium', position: [10.25, -3.5, 40] },
    { name: 'sinotubular_junction', position: [0, 0, 55] },
    { name: 'right_coronary_ostium', position: [-8, 2, 38] },
    { name: 'non_coronary_sinus', position: [1, 12, 30] },
  ],
};

const projectId = '11111111-1111-4111-8111-111111111111';
const ssmId = '33333333-3333-4333-8333-333333333333';
const project = {
  id: projectId,
  name: 'Valve sizing',
  developmentStage: 'concept_and_design_feasibility',
  status: 'active',
  question: null,
  cohorts: [],
  deviceVersions: [],
  team: [],
  createdAt: '2026-11-20T09:30:00.000Z',
  statusChangedAt: null,
  canManage: true,
  canComment: true,
};
const ssm = {
  id: ssmId,
  projectId,
  name: 'Aortic root, end-systole, 12 patients',
  configuration: { cohortIds: [cohortId], excludedPatients: [], organs: ['aortic_root'], phase: 'end-systole' },
  shapeCount: 12,
  status: 'ready',
  progress: 1,
  progressMessage: null,
  error: null,
  createdBy: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  readyAt: '2026-11-20T10:01:00.000Z',
  modes: [{ variance: 4, explained: 1 }],
  quality: null,
  shapes: null,
  modelCard: null,
};

let posted: unknown = null;
/** The cohort's patients the list answers. */
let listed: (typeof row)[] = [row];

beforeEach(() => {
  posted = null;
  listed = [row];
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>((input, init) => {
      const url = new URL(
        typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
        'http://x',
      );
      const base = `/api/devices/d-1/cohorts/${cohortId}/patients`;
      const device = { ...testSelectedDevice, role: 'member', isAdmin: false };
      if (url.pathname === '/api/me/selected-device') return Promise.resolve(jsonResponse(200, { device }));
      if (url.pathname === base)
        return Promise.resolve(jsonResponse(200, { items: listed, total: listed.length, page: 1, pageSize: 25 }));
      if (url.pathname === `${base}/SYN-000007`) return Promise.resolve(jsonResponse(200, patient));
      if (url.pathname === `${base}/SYN-000007/meshes/end-systole/landmarks`)
        return Promise.resolve(jsonResponse(200, landmarks));
      if (url.pathname === '/api/devices/d-1/projects')
        return Promise.resolve(
          jsonResponse(200, {
            items: [project],
            total: 1,
            stageCounts: Object.fromEntries(developmentStages.map((stage) => [stage.key, 0])),
            canCreate: true,
          }),
        );
      if (url.pathname === `/api/devices/d-1/projects/${projectId}/ssms`)
        return Promise.resolve(jsonResponse(200, { items: [ssm], canEdit: true }));
      if (url.pathname === `/api/devices/d-1/projects/${projectId}/ssms/${ssmId}/meshes/mean/landmarks`)
        return Promise.resolve(jsonResponse(200, { ...landmarks, patientId: ssm.name, phase: 'mean' }));
      if (url.pathname === '/api/devices/d-1/measurement-definitions' && init?.method === 'POST') {
        posted = JSON.parse(String(init.body));
        return Promise.resolve(
          jsonResponse(201, {
            id: 'm-1',
            lineageId: 'm-1',
            version: 1,
            builtIn: false,
            createdAt: '2026-11-28T09:00:00.000Z',
            unit: 'mm',
            ...(posted as object),
          }),
        );
      }
      return Promise.resolve(jsonResponse(404, { error: { code: 'not_found', message: 'No such API route.' } }));
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Renders the drawer open on the cohort; answers its form. */
function renderDrawer(created: (definition: unknown) => void = () => undefined): HTMLElement {
  renderWithProviders(
    <MemoryRouter>
      <NewMeasurementDrawer deviceId="d-1" cohortId={cohortId} open onClose={() => undefined} onCreated={created} />
    </MemoryRouter>,
  );
  return screen.getByRole('form', { name: 'New measurement' });
}

/** Opens an MUI select by its label and chooses an option. */
async function choose(form: HTMLElement, label: string, option: string) {
  fireEvent.mouseDown(within(form).getByRole('combobox', { name: label }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
}

describe('the new-measurement drawer with points picked on the surface', () => {
  it('places points from the keyboard (at a landmark, at typed coordinates) and saves them as surface points', async () => {
    const created = vi.fn();
    const form = renderDrawer(created);
    fireEvent.change(within(form).getByLabelText(/^Name/), { target: { value: 'Ostium to typed point' } });
    await choose(form, 'Type', 'Distance between two landmarks');
    const place = await within(form).findByRole('button', { name: 'Place at the landmark' });
    expect(within(form).getByText('No point picked yet.')).toBeTruthy();
    await vi.waitFor(() => expect(place.hasAttribute('disabled')).toBe(false));
    fireEvent.click(place);
    expect(within(form).getByText('Picked point 1: Aortic root at (10.3, -3.5, 40.0) mm')).toBeTruthy();
    const add = within(form).getByRole('button', { name: 'Add the point' });
    expect(add.hasAttribute('disabled')).toBe(true);
    fireEvent.change(within(form).getByLabelText('x (mm)'), { target: { value: '1.5' } });
    fireEvent.change(within(form).getByLabelText('y (mm)'), { target: { value: '-2' } });
    fireEvent.change(within(form).getByLabelText('z (mm)'), { target: { value: '48' } });
    fireEvent.click(add);
    expect(within(form).getByText('Picked point 2: Aortic root at (1.5, -2.0, 48.0) mm')).toBeTruthy();
    await choose(form, 'From', 'Picked point 1');
    await choose(form, 'To', 'Picked point 2');
    fireEvent.click(within(form).getByRole('button', { name: 'Save measurement' }));
    await vi.waitFor(() => expect(created).toHaveBeenCalled());
    const source = { cohortId, patientId: 'SYN-000007' };
    expect(posted).toEqual({
      name: 'Ostium to typed point',
      description: '',
      phase: 'end-systole',
      geometry: {
        type: 'distance',
        from: { surface: { organ: 'aortic_root', position: [10.25, -3.5, 40], source } },
        to: { surface: { organ: 'aortic_root', position: [1.5, -2, 48], source } },
      },
    });
  });

  it('removing a picked point puts the fields that chose it back to a landmark', async () => {
    const form = renderDrawer();
    await choose(form, 'Type', 'Distance between two landmarks');
    const place = await within(form).findByRole('button', { name: 'Place at the landmark' });
    await vi.waitFor(() => expect(place.hasAttribute('disabled')).toBe(false));
    fireEvent.click(place);
    await choose(form, 'From', 'Picked point 1');
    expect(within(form).getByRole('combobox', { name: 'From' }).textContent).toBe('Picked point 1');
    fireEvent.click(within(form).getByRole('button', { name: 'Remove picked point 1' }));
    expect(within(form).getByRole('combobox', { name: 'From' }).textContent).toBe('aortic annulus');
    expect(within(form).getByText('No point picked yet.')).toBeTruthy();
  });

  it('builds a section in the plane through three picked points, each a surface point of the patient', async () => {
    const created = vi.fn();
    const form = renderDrawer(created);
    fireEvent.change(within(form).getByLabelText(/^Name/), { target: { value: 'Area through three points' } });
    // A landmark plane needs no picked points: the picker shows once the plane is through three points.
    expect(within(form).queryByRole('button', { name: 'Place at the landmark' })).toBeNull();
    await choose(form, 'Plane', 'Plane through three points');
    expect(within(form).getByRole('combobox', { name: 'Plane point 1' }).textContent).toBe('right coronary sinus');
    const place = await within(form).findByRole('button', { name: 'Place at the landmark' });
    await vi.waitFor(() => expect(place.hasAttribute('disabled')).toBe(false));
    for (const name of ['left coronary ostium', 'right coronary ostium', 'non coronary sinus']) {
      await choose(form, 'Landmark', name);
      fireEvent.click(place);
    }
    expect(within(form).getByText('Picked point 3: Aortic root at (1.0, 12.0, 30.0) mm')).toBeTruthy();
    for (const k of [1, 2, 3]) await choose(form, `Plane point ${k}`, `Picked point ${k}`);
    fireEvent.click(within(form).getByRole('button', { name: 'Save measurement' }));
    await vi.waitFor(() => expect(created).toHaveBeenCalled());
    const source = { cohortId, patientId: 'SYN-000007' };
    const surface = (position: number[]) => ({ surface: { organ: 'aortic_root', position, source } });
    expect(posted).toEqual({
      name: 'Area through three points',
      description: '',
      phase: 'end-systole',
      geometry: {
        type: 'section',
        organ: 'aortic_root',
        plane: {
          kind: 'three-points',
          points: [surface([10.25, -3.5, 40]), surface([-8, 2, 38]), surface([1, 12, 30])],
        },
        quantity: 'area',
      },
    });
  }, 60_000);

  it('moves a plane through three points along its normal by the offset typed, refusing one beyond 200 mm', async () => {
    const created = vi.fn();
    const form = renderDrawer(created);
    fireEvent.change(within(form).getByLabelText(/^Name/), { target: { value: 'Ostium above the sinus plane' } });
    await choose(form, 'Type', 'Height of a landmark above a plane');
    await choose(form, 'Plane', 'Plane through three points');
    const offset = within(form).getByLabelText('Plane offset (mm)');
    const save = within(form).getByRole('button', { name: 'Save measurement' });
    fireEvent.change(offset, { target: { value: '250' } });
    expect(within(form).getByText('An offset is at most 200 mm.')).toBeTruthy();
    expect(save.hasAttribute('disabled')).toBe(true);
    fireEvent.change(offset, { target: { value: 'ten' } });
    expect(within(form).getByText('The offset is a number of millimetres.')).toBeTruthy();
    expect(save.hasAttribute('disabled')).toBe(true);
    fireEvent.change(offset, { target: { value: '-4.5' } });
    expect(save.hasAttribute('disabled')).toBe(false);
    fireEvent.click(save);
    await vi.waitFor(() => expect(created).toHaveBeenCalled());
    expect(posted).toMatchObject({
      geometry: {
        type: 'height',
        point: { landmark: 'left_coronary_ostium' },
        plane: {
          kind: 'three-points',
          points: [
            { landmark: 'right_coronary_sinus' },
            { landmark: 'left_coronary_sinus' },
            { landmark: 'non_coronary_sinus' },
          ],
          offset_mm: -4.5,
        },
      },
    });
  }, 60_000);

  it('shows the offset of the definition it edits', () => {
    renderWithProviders(
      <MemoryRouter>
        <NewMeasurementDrawer
          deviceId="d-1"
          open
          onClose={() => undefined}
          onCreated={() => undefined}
          editing={{
            id: 'm-2',
            lineageId: 'm-2',
            version: 3,
            builtIn: false,
            createdAt: '2026-11-28T09:00:00.000Z',
            unit: 'mm²',
            name: 'Area 12 mm above the sinuses',
            description: '',
            phase: 'end-diastole',
            geometry: {
              type: 'section',
              organ: 'aortic_root',
              plane: {
                kind: 'three-points',
                points: [
                  { landmark: 'right_coronary_sinus' },
                  { landmark: 'left_coronary_sinus' },
                  { landmark: 'non_coronary_sinus' },
                ],
                offset_mm: 12,
              },
              quantity: 'area',
            },
          }}
        />
      </MemoryRouter>,
    );
    const form = screen.getByRole('form', { name: 'Edit measurement' });
    expect(within(form).getByRole('combobox', { name: 'Plane' }).textContent).toBe('Plane through three points');
    expect(within(form).getByLabelText<HTMLInputElement>('Plane offset (mm)').value).toBe('12');
  });

  it('shows at first the first patient with images of the measurement’s phase', async () => {
    listed = [{ ...row, id: 'SYN-000002', phases: ['end-diastole'] }, row];
    const form = renderDrawer();
    await choose(form, 'Type', 'Distance between two landmarks');
    const patientField = await within(form).findByRole('combobox', { name: 'Patient to pick on' });
    expect(patientField.textContent).toBe('SYN-000007');
  });

  it('picks points on a shape of a project’s shape model, saved with the model and shape as their source', async () => {
    const created = vi.fn();
    const form = renderDrawer(created);
    fireEvent.change(within(form).getByLabelText(/^Name/), { target: { value: 'Shape ostium to STJ' } });
    await choose(form, 'Type', 'Distance between two landmarks');
    await choose(form, 'Pick on', 'A shape of a statistical shape model');
    await choose(form, 'Project', 'Valve sizing');
    const model = within(form).getByRole('combobox', { name: 'Shape model' });
    await vi.waitFor(() => expect(model.getAttribute('aria-disabled')).not.toBe('true'));
    await choose(form, 'Shape model', 'Aortic root, end-systole, 12 patients');
    expect(within(form).getByLabelText<HTMLInputElement>('Shape').value).toBe('mean');
    const place = within(form).getByRole('button', { name: 'Place at the landmark' });
    await vi.waitFor(() => expect(place.hasAttribute('disabled')).toBe(false));
    fireEvent.click(place);
    await choose(form, 'From', 'Picked point 1');
    await choose(form, 'To', 'sinotubular junction');
    fireEvent.click(within(form).getByRole('button', { name: 'Save measurement' }));
    await vi.waitFor(() => expect(created).toHaveBeenCalled());
    expect(posted).toMatchObject({
      geometry: {
        type: 'distance',
        from: {
          surface: {
            organ: 'aortic_root',
            position: [10.25, -3.5, 40],
            source: { projectId, ssmId, instance: 'mean' },
          },
        },
        to: { landmark: 'sinotubular_junction' },
      },
    });
  }, 60_000);
});
