import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { MeasurementDefinitionList, MeasurementOrder } from '@insilico/contracts';
import { jsonResponse, renderWithProviders, testSelectedDevice } from '../../../../test/helpers/renderWithProviders';
import { readySsm } from '../../../../test/helpers/ssm';
import { DefinePage } from './DefinePage';
import { SelectCohortPage } from './SelectCohortPage';
import { OrderPage } from './OrderPage';

configure({ asyncUtilTimeout: 5000 });

const geometry = {
  type: 'height',
  point: { landmark: 'left_coronary_ostium' },
  plane: { kind: 'landmark', landmark: 'aortic_annulus' },
} as const;
const definitions: MeasurementDefinitionList = {
  builtInSets: [
    {
      key: 'scct-tavi',
      version: 1,
      name: 'TAVI planning (SCCT consensus)',
      definitionIds: ['scct-tavi/a@1', 'scct-tavi/b@1'],
    },
  ],
  items: [
    {
      id: 'scct-tavi/a@1',
      lineageId: 'scct-tavi/a',
      version: 1,
      builtIn: true,
      name: 'Aortic annulus area',
      description: '',
      phase: 'end-systole',
      unit: 'mm²',
      geometry,
      createdAt: null,
    },
    {
      id: 'scct-tavi/b@1',
      lineageId: 'scct-tavi/b',
      version: 1,
      builtIn: true,
      name: 'Left coronary ostium height',
      description: '',
      phase: 'end-systole',
      unit: 'mm',
      geometry,
      createdAt: null,
    },
  ],
};
const order: MeasurementOrder = {
  id: 'o-1',
  deviceId: 'd-1',
  cohortId: 'c-1',
  cohortName: 'Valve sizing',
  status: 'ready',
  progress: 1,
  error: null,
  measurements: [
    { definitionId: 'scct-tavi/a@1', version: 1, name: 'Aortic annulus area', unit: 'mm²', phase: 'end-systole' },
    {
      definitionId: 'scct-tavi/b@1',
      version: 1,
      name: 'Left coronary ostium height',
      unit: 'mm',
      phase: 'end-systole',
    },
  ],
  patients: [
    {
      patientId: 'SYN-000001',
      cells: [
        { automatic: 452.4, failure: null, corrected: null, value: 452.4 },
        { automatic: 13.2, failure: null, corrected: 11.2, value: 11.2 },
      ],
      correction: {
        landmarks: ['aortic_annulus'],
        by: { id: 'u', fullName: 'Ada Lovelace' },
        at: '2026-11-25T04:00:00.000Z',
      },
    },
    {
      patientId: 'SYN-000002',
      cells: [
        { automatic: 501, failure: null, corrected: null, value: 501 },
        { automatic: null, failure: 'The anatomy has no left coronary ostium landmark.', corrected: null, value: null },
      ],
      correction: null,
    },
  ],
  createdAt: '2026-11-25T03:00:00.000Z',
  createdBy: null,
};

/** A ready shape model built at end-diastole, and an order on its mean and one named instance. */
const ssmId = '5f0c0b8e-0000-4000-8000-000000000001';
const projectId = '5f0c0b8e-0000-4000-8000-000000000002';
const model = readySsm({ id: ssmId, projectId });
const shapeOrder: MeasurementOrder = {
  ...order,
  id: 'o-2',
  cohortId: null,
  cohortName: model.name,
  ssm: { id: ssmId, projectId },
  measurements: order.measurements.slice(0, 1),
  patients: [
    {
      patientId: 'Mean shape',
      cells: [{ automatic: 470, failure: null, corrected: null, value: 470 }],
      correction: null,
    },
    {
      patientId: 'Wide root',
      cells: [{ automatic: 530, failure: null, corrected: null, value: 530 }],
      correction: null,
    },
  ],
};
let posted: { url: string; body: unknown }[] = [];

let plan: 'team' | 'trial' = 'team';

beforeEach(() => {
  plan = 'team';
  posted = [];
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>((input, init) => {
      const url = new URL(
        typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
        'http://x',
      );
      const device = { ...testSelectedDevice, role: 'member', isAdmin: false };
      if (url.pathname === '/api/me/selected-device') return Promise.resolve(jsonResponse(200, { device }));
      if (url.pathname === '/api/devices') return Promise.resolve(jsonResponse(200, { items: [device] }));
      if (url.pathname === '/api/devices/d-1/cohorts') return Promise.resolve(jsonResponse(200, { items: [] }));
      if (url.pathname.startsWith('/api/devices/d-1/measurement') && plan === 'trial')
        return Promise.resolve(
          jsonResponse(403, {
            error: { code: 'measurements_not_in_plan', message: 'Please send us a message to request measurements.' },
          }),
        );
      if (url.pathname === '/api/devices/d-1/measurement-definitions')
        return Promise.resolve(jsonResponse(200, definitions));
      if (url.pathname === '/api/devices/d-1/measurement-orders/o-1') return Promise.resolve(jsonResponse(200, order));
      if (url.pathname === '/api/devices/d-1/measurement-orders/o-2')
        return Promise.resolve(jsonResponse(200, shapeOrder));
      if (url.pathname === `/api/devices/d-1/projects/${projectId}/ssms/${ssmId}`)
        return Promise.resolve(jsonResponse(200, model));
      if (url.pathname === `/api/devices/d-1/projects/${projectId}/ssms/${ssmId}/measurement-orders`) {
        posted.push({ url: url.pathname, body: JSON.parse(String(init?.body)) });
        return Promise.resolve(jsonResponse(201, { ...shapeOrder, status: 'in_progress', progress: 0, patients: [] }));
      }
      return Promise.resolve(jsonResponse(404, { error: { code: 'not_found', message: 'No such API route.' } }));
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('measurement pages', () => {
  it('define: choosing the whole TAVI set puts its measurements into the link to the order step', async () => {
    renderWithProviders(
      <MemoryRouter initialEntries={['/measurement/define?device=d-1&cohort=c-1']}>
        <DefinePage />
      </MemoryRouter>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Choose the whole set' }));
    const next = await screen.findByRole('link', { name: 'Continue with 2 measurements' });
    const href = new URL(next.getAttribute('href') ?? '', 'http://x');
    expect(href.pathname).toBe('/measurement/order');
    expect(href.searchParams.getAll('m')).toEqual(['scct-tavi/a@1', 'scct-tavi/b@1']);
    expect(href.searchParams.get('cohort')).toBe('c-1');
  });

  it('results: values with units, corrected cells marked with the automatic value kept, failures with their reason, CSV', async () => {
    renderWithProviders(
      <MemoryRouter initialEntries={['/measurement/order?device=d-1&cohort=c-1&order=o-1']}>
        <OrderPage />
      </MemoryRouter>,
    );
    const table = await screen.findByRole('table', { name: 'Measurement results' });
    expect(within(table).getByText('Aortic annulus area (mm²)')).toBeTruthy();
    expect(within(table).getByText('11.2 *').getAttribute('title')).toBe('Automatic 13.2 mm');
    const failed = within(table).getByText('Not measured').closest('td');
    expect(failed?.getAttribute('title')).toBe('The anatomy has no left coronary ostium landmark.');
    expect(within(table).getByText(/aortic annulus by Ada Lovelace, 25\.11\.2026/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe(
      '/api/devices/d-1/measurement-orders/o-1/results.csv',
    );
    expect(screen.getByRole('img', { name: 'Distribution of Aortic annulus area' })).toBeTruthy();
    expect(screen.getByText('Aortic annulus area: mean 476.7 ± 34.4 mm² (SD), 2 patients')).toBeTruthy();
  });

  it('a shape model: the order step names it and what is not taken at its phase, orders on its shapes, shows them by shape', async () => {
    renderWithProviders(
      <MemoryRouter
        initialEntries={[`/measurement/order?device=d-1&ssm=${ssmId}&project=${projectId}&m=scct-tavi%2Fa%401`]}
      >
        <OrderPage />
      </MemoryRouter>,
    );
    expect(
      await screen.findByRole('heading', { name: 'Roots, end-diastole: the mean shape and its named instances' }),
    ).toBeTruthy();
    expect(
      await screen.findByText(
        /Aortic annulus area \(mm², end-systole\) — not taken: the shape model is built at end-diastole/,
      ),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Order measurements' }));
    const table = await screen.findByRole('table', { name: 'Measurement results' });
    expect(posted).toEqual([
      {
        url: `/api/devices/d-1/projects/${projectId}/ssms/${ssmId}/measurement-orders`,
        body: { definitionIds: ['scct-tavi/a@1'] },
      },
    ]);
    expect(within(table).getByRole('columnheader', { name: 'Shape' })).toBeTruthy();
    expect(within(table).getByText('Wide root')).toBeTruthy();
    // Shapes are measured on the model's own landmarks: no hand correction.
    expect(within(table).queryByRole('button', { name: /^Correct/ })).toBeNull();
    expect(screen.getByText('Results: 2 shapes × 1 measurements')).toBeTruthy();
  });

  it('a workspace whose plan lacks measurements sees the spec’s message and a way to the ask-support drawer', async () => {
    plan = 'trial';
    renderWithProviders(
      <MemoryRouter initialEntries={['/measurement/select-patient-cohort?device=d-1']}>
        <SelectCohortPage />
      </MemoryRouter>,
    );
    expect(await screen.findByText('Please send us a message to request measurements.')).toBeTruthy();
    const ask = screen.getByRole('link', { name: 'Send us a message' });
    expect(new URL(ask.getAttribute('href') ?? '', 'http://x').searchParams.get('drawer')).toBe('ask-support');
    expect(screen.queryByRole('table')).toBeNull();
  });
});
