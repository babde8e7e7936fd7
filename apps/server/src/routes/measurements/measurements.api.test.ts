import type {
  CohortPatient,
  MeasurementDefinitionList,
  MeasurementDefinitionView,
  MeasurementOrder,
} from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '../../../test/helpers/browser';
import { eventsOf } from '../../../test/helpers/domain-events';
import type { TestServer } from '../../../test/helpers/test-server';
import { browsersOf, principalPeople, projectWorld } from '../../../test/fixtures/project-world';
import { errorOf, json, principals, send, type Principal } from '../../../test/fixtures/workspace.fixtures';

/**
 * Measurements (issue 23) through the real server: the built-in TAVI set ordered on a 5-patient cohort and
 * measured by the durable job, versioned definitions (old orders keep theirs), a hand correction keeping the
 * automatic value, the CSV with units, refusals with their messages, and the permission table.
 */
let server: TestServer;
let browsers = {} as Record<Principal, TestBrowser>;
let admin: TestBrowser;
let deviceId = '';
let cohortId = '';
let projectId = '';

const base = () => `/api/devices/${deviceId}`;

async function ready(orderId: string, timeoutMs = 90_000): Promise<MeasurementOrder> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const order = await json<MeasurementOrder>(await admin.get(`${base()}/measurement-orders/${orderId}`));
    if (order.status !== 'in_progress') return order;
    if (Date.now() > until) throw new Error(`order ${orderId} still in progress`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  const world = await projectWorld({
    people: principalPeople,
    cohorts: { measured: { name: `Measured ${Date.now()}`, size: 5 } },
    project: { team: ['admin'], cohorts: ['measured'] },
  });
  ({ server, deviceId, projectId } = world);
  browsers = browsersOf(world);
  admin = world.admin.browser;
  cohortId = world.cohortIds.measured;
}, 240_000);
afterAll(async () => {
  await server?.stop();
});

const distanceBody = (name: string) => ({
  name,
  description: 'Annulus centre to LV apex',
  phase: 'end-diastole',
  geometry: { type: 'distance', from: { landmark: 'aortic_annulus' }, to: { landmark: 'lv_apex' } },
});

describe('measurement orders', () => {
  it('measures the built-in TAVI set on every patient of a cohort; the annulus matches the patient’s parameters', async () => {
    const list = await json<MeasurementDefinitionList>(await admin.get(`${base()}/measurement-definitions`));
    const tavi = list.builtInSets[0]!;
    expect(tavi.key).toBe('scct-tavi');
    expect(tavi.definitionIds.length).toBeGreaterThanOrEqual(20);
    const created = await admin.postJson(`${base()}/cohorts/${cohortId}/measurement-orders`, {
      definitionIds: tavi.definitionIds,
    });
    expect(created.status).toBe(201);
    const orderId = (await json<MeasurementOrder>(created.clone())).id;
    // The order is one event of the audit trail, naming each definition with its version (issue 20).
    const [ordered] = await eventsOf(server, 'measurement', orderId);
    expect(ordered).toMatchObject({ action: 'measurement.ordered', after: { cohortId } });
    expect((ordered!.after as { measurements: unknown[] }).measurements).toHaveLength(tavi.definitionIds.length);
    const order = await ready(orderId);
    expect(order.status).toBe('ready');
    // Its job's end is one more, by the system for the orderer (issue 20).
    expect((await eventsOf(server, 'measurement', orderId)).map((e) => [e.action, e.actorId])).toEqual([
      ['measurement.ordered', ordered!.actorId],
      ['measurement.measured', null],
    ]);
    expect(order.patients).toHaveLength(5);
    // Every patient with end-systolic images is measured in full; the others say why not, cell by cell.
    const noImages = {
      automatic: null,
      failure: 'This patient has no end-systole images.',
      corrected: null,
      value: null,
    };
    for (const p of order.patients) {
      expect(p.cells).toHaveLength(tavi.definitionIds.length);
      const measured = p.cells[0]!.failure === null;
      for (const c of p.cells) expect(c).toMatchObject(measured ? { failure: null, corrected: null } : noImages);
    }
    const area = order.measurements.findIndex((m) => m.name === 'Aortic annulus area');
    expect(order.measurements[area]).toMatchObject({ unit: 'mm²', version: 1, phase: 'end-systole' });
    const first = order.patients.find((p) => p.cells[area]!.value !== null)!;
    const patient = await json<CohortPatient>(
      await admin.get(`${base()}/cohorts/${cohortId}/patients/${first.patientId}`),
    );
    const generated = patient.parameters.find((p) => p.key === 'aorticAnnulusArea_mm2')!.value;
    expect(Math.abs(first.cells[area]!.value! - generated) / generated).toBeLessThan(0.01);

    // The order is listed, and the orderer is told it is ready, with a link to the results.
    const orders = await json<{ items: { id: string }[] }>(await admin.get(`${base()}/measurement-orders`));
    expect(orders.items.map((o) => o.id)).toContain(order.id);
    const notes = await json<{ items: { kind: string; title: string; link: string | null }[] }>(
      await admin.get('/api/notifications'),
    );
    expect(notes.items.find((n) => n.kind === 'measurement.ready')).toMatchObject({
      title: expect.stringMatching(/^Measurements of cohort Measured \d+ are ready$/),
      link: `/measurement/order?order=${order.id}&device=${deviceId}`,
    });
  }, 120_000);

  it('keeps the definition version an order measured with when the definition changes', async () => {
    const v1 = await json<MeasurementDefinitionView>(
      await admin.postJson(`${base()}/measurement-definitions`, distanceBody('Root to apex')),
    );
    expect(v1).toMatchObject({ version: 1, unit: 'mm', builtIn: false });
    const created = await admin.postJson(`${base()}/cohorts/${cohortId}/measurement-orders`, {
      definitionIds: [v1.id],
    });
    const order = await ready((await json<MeasurementOrder>(created)).id);
    const revised = await send(admin, 'PUT', `${base()}/measurement-definitions/${v1.lineageId}`, {
      ...distanceBody('Root to apex, systole'),
      phase: 'end-systole',
    });
    expect(revised.status).toBe(201);
    const v2 = await json<MeasurementDefinitionView>(revised);
    expect(v2).toMatchObject({ version: 2, lineageId: v1.lineageId, name: 'Root to apex, systole' });
    expect(v2.id).not.toBe(v1.id);
    const again = await ready(order.id);
    expect(again.measurements).toEqual([
      { definitionId: v1.id, version: 1, name: 'Root to apex', unit: 'mm', phase: 'end-diastole' },
    ]);
    const list = await json<MeasurementDefinitionList>(await admin.get(`${base()}/measurement-definitions`));
    expect(list.items.filter((d) => d.lineageId === v1.lineageId)).toEqual([v2]);
  }, 120_000);

  it('a corrected annular plane changes the corrected values, keeps the automatic ones, and says who and when', async () => {
    const list = await json<MeasurementDefinitionList>(await admin.get(`${base()}/measurement-definitions`));
    const ids = list.builtInSets[0]!.definitionIds;
    const order = await ready(
      (
        await json<MeasurementOrder>(
          await admin.postJson(`${base()}/cohorts/${cohortId}/measurement-orders`, { definitionIds: ids }),
        )
      ).id,
    );
    // A patient with end-systolic imaging (its landmarks of that phase are readable).
    let patientId = '';
    let landmarks = { landmarks: [] as { name: string; position: number[]; normal?: number[] }[] };
    for (const p of order.patients) {
      const response = await admin.get(
        `${base()}/cohorts/${cohortId}/patients/${p.patientId}/meshes/end-systole/landmarks`,
      );
      if (response.status !== 200) continue;
      patientId = p.patientId;
      landmarks = await json<typeof landmarks>(response);
      break;
    }
    expect(patientId).not.toBe('');
    const annulus = landmarks.landmarks.find((l) => l.name === 'aortic_annulus')!;
    const n = annulus.normal!;
    const raised = annulus.position.map((x, i) => x + 2 * n[i]!);
    const corrected = await send(
      admin,
      'PUT',
      `${base()}/measurement-orders/${order.id}/patients/${patientId}/correction`,
      {
        phase: 'end-systole',
        landmarks: { aortic_annulus: { position: raised, normal: n } },
        reason: 'Annular plane 2 mm too low',
      },
    );
    expect(corrected.status).toBe(200);
    const after = await json<MeasurementOrder>(corrected);
    const row = after.patients.find((p) => p.patientId === patientId)!;
    const lca = after.measurements.findIndex((m) => m.name === 'Left coronary ostium height');
    const cell = row.cells[lca]!;
    expect(cell.corrected!).toBeCloseTo(cell.automatic! - 2, 6);
    expect(cell.value).toBe(cell.corrected);
    expect(row.correction).toMatchObject({ landmarks: ['aortic_annulus'], by: { fullName: expect.any(String) } });
    expect(Date.parse(row.correction!.at)).toBeGreaterThan(Date.now() - 60_000);
    // Other patients keep their automatic values only.
    expect(after.patients.filter((p) => p.correction !== null)).toHaveLength(1);

    const csv = await admin.get(`${base()}/measurement-orders/${order.id}/results.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const text = await csv.text();
    const [header, ...lines] = text.trim().split('\r\n');
    expect(header).toContain('Aortic annulus area (mm²)');
    expect(header).toContain('Left coronary ostium height (mm)');
    expect(header).toContain('Annular plane angulation (°)');
    expect(lines).toHaveLength(5);
    const line = lines.find((l) => l.startsWith(patientId))!;
    expect(line).toContain('Left coronary ostium height: ');
  }, 120_000);
});

type Landmarks = { landmarks: { name: string; position: [number, number, number] }[] };
/** The first patient of the cohort with end-diastolic meshes, and its landmarks of that phase. */
async function sourcePatient(): Promise<{ patientId: string; at: (name: string) => [number, number, number] }> {
  const page = await json<{ items: { id: string }[] }>(await admin.get(`${base()}/cohorts/${cohortId}/patients`));
  for (const { id } of page.items) {
    const response = await admin.get(`${base()}/cohorts/${cohortId}/patients/${id}/meshes/end-diastole/landmarks`);
    if (response.status !== 200) continue;
    const { landmarks } = await json<Landmarks>(response);
    return { patientId: id, at: (name) => landmarks.find((l) => l.name === name)!.position };
  }
  throw new Error('no patient with end-diastolic meshes');
}

/** A definition the server refuses with 400 and a message. */
async function refused(body: unknown, message: string | RegExp): Promise<void> {
  const response = await admin.postJson(`${base()}/measurement-definitions`, body);
  expect(response.status).toBe(400);
  expect((await errorOf(response)).message).toMatch(message);
}

describe('points picked on the surface', () => {
  const surfaceBody = (
    name: string,
    points: { position: number[]; patientId: string; cohort?: string }[],
    extra: Record<string, unknown> = {},
  ) => {
    const surface = (p: (typeof points)[number]) => ({
      surface: {
        organ: 'aortic_root',
        position: p.position,
        source: { cohortId: p.cohort ?? cohortId, patientId: p.patientId },
        ...extra,
      },
    });
    return {
      name,
      description: 'A point picked on the aortic root to the STJ centre',
      phase: 'end-diastole',
      geometry:
        points.length === 1
          ? { type: 'distance', from: surface(points[0]!), to: { landmark: 'sinotubular_junction' } }
          : { type: 'curve-length', points: points.map(surface) },
    };
  };

  it('anchors a point picked on the surface with a landmark frame and measures it on every patient', async () => {
    const { patientId, at } = await sourcePatient();
    // The left coronary ostium lies on the root's wall: a point picked there is on the surface.
    const ostium = at('left_coronary_ostium');
    const frame = { landmarks: ['lv_apex', 'lv_apex', 'lv_apex', 'lv_apex'], coordinates: [9, 9, 9] };
    const created = await admin.postJson(
      `${base()}/measurement-definitions`,
      surfaceBody('Picked point to STJ', [{ position: ostium, patientId }], { frame }),
    );
    expect(created.status).toBe(201);
    const definition = await json<MeasurementDefinitionView>(created);
    const from = (definition.geometry as { from: { surface: { frame: { landmarks: string[] } } } }).from.surface;
    // The server computed the frame (four distinct landmarks); the one sent was replaced.
    expect(new Set(from.frame.landmarks).size).toBe(4);
    expect(from).toMatchObject({ organ: 'aortic_root', position: ostium, source: { cohortId, patientId } });

    const order = await ready(
      (
        await json<MeasurementOrder>(
          await admin.postJson(`${base()}/cohorts/${cohortId}/measurement-orders`, { definitionIds: [definition.id] }),
        )
      ).id,
    );
    expect(order.status).toBe('ready');
    const stj = at('sinotubular_junction');
    const own = order.patients.find((p) => p.patientId === patientId)!.cells[0]!;
    // On the patient it was picked on, the point is where it was picked.
    expect(own.value).toBeCloseTo(Math.hypot(...ostium.map((v, i) => v - stj[i]!)), 3);
    // Every patient has a value or the reason it has none.
    for (const p of order.patients) {
      const cell = p.cells[0]!;
      if (cell.value === null)
        expect(cell.failure).toMatch(/landmarks do not place it on this anatomy|has no end-diastole images/);
      else expect(cell.value).toBeGreaterThan(5);
    }
  }, 120_000);

  it('refuses a point off the surface, on two patients, or on a patient of no cohort of the workspace', async () => {
    const { patientId, at } = await sourcePatient();
    // The STJ landmark is the centre of the lumen, millimetres from the wall.
    await refused(
      surfaceBody('Off the wall', [{ position: at('sinotubular_junction'), patientId }]),
      new RegExp(
        `^A picked point lies \\d+\\.\\d mm from the aortic root surface of patient ${patientId} at end-diastole \\(at most 1 mm\\): pick the point on the surface\\.$`,
      ),
    );
    const other = patientId === 'SYN-000001' ? 'SYN-000002' : 'SYN-000001';
    await refused(
      surfaceBody('Two patients', [
        { position: at('left_coronary_ostium'), patientId },
        { position: at('right_coronary_ostium'), patientId: other },
      ]),
      'Pick every surface point of a measurement on the same patient.',
    );
    await refused(
      surfaceBody('No cohort', [
        { position: at('left_coronary_ostium'), patientId, cohort: '00000000-0000-4000-8000-000000000000' },
      ]),
      'The points were picked on a patient of no cohort of this device workspace.',
    );
    await refused(
      surfaceBody('No patient', [{ position: at('left_coronary_ostium'), patientId: 'SYN-999999' }]),
      /^There is no patient SYN-999999 in the cohort /,
    );
  });
});

describe('planes through three points picked on the surface', () => {
  const sinuses = ['right_coronary_sinus', 'left_coronary_sinus', 'non_coronary_sinus'] as const;
  const sectionBody = (name: string, points: unknown[]) => ({
    name,
    description: 'Aortic root area in the plane through three points',
    phase: 'end-diastole',
    geometry: {
      type: 'section',
      organ: 'aortic_root',
      plane: { kind: 'three-points', points },
      quantity: 'area',
    },
  });
  const picked = (position: number[], patientId: string) => ({
    surface: { organ: 'aortic_root', position, source: { cohortId, patientId } },
  });

  it('is computed per patient: on the patient picked on, the section of the plane through the same landmarks', async () => {
    const { patientId, at } = await sourcePatient();
    // The sinus landmarks lie on the root's wall (their deepest points): picked there, they are on the surface.
    const byPicks = await admin.postJson(
      `${base()}/measurement-definitions`,
      sectionBody(
        'Sinus area, picked',
        sinuses.map((name) => picked(at(name), patientId)),
      ),
    );
    expect(byPicks.status).toBe(201);
    const byLandmarks = await admin.postJson(
      `${base()}/measurement-definitions`,
      sectionBody(
        'Sinus area, landmarks',
        sinuses.map((landmark) => ({ landmark })),
      ),
    );
    expect(byLandmarks.status).toBe(201);
    const ids = [
      await json<MeasurementDefinitionView>(byPicks),
      await json<MeasurementDefinitionView>(byLandmarks),
    ].map((d) => d.id);
    const order = await ready(
      (
        await json<MeasurementOrder>(
          await admin.postJson(`${base()}/cohorts/${cohortId}/measurement-orders`, { definitionIds: ids }),
        )
      ).id,
    );
    expect(order.status).toBe('ready');
    const [own, reference] = order.patients.find((p) => p.patientId === patientId)!.cells;
    expect(reference!.value).toBeGreaterThan(100);
    expect(own!.value).toBeCloseTo(reference!.value!, 3);
    for (const p of order.patients) {
      const cell = p.cells[0]!;
      if (cell.value === null)
        expect(cell.failure).toMatch(
          /landmarks do not place it on this anatomy|has no end-diastole images|one line here/,
        );
      else expect(cell.value).toBeGreaterThan(100);
    }
  }, 120_000);

  it('refuses points within 2 mm of one line on the patient picked on, the same point twice, typed points on a line', async () => {
    const { patientId, at } = await sourcePatient();
    const [a, b] = [at('right_coronary_sinus'), at('left_coronary_sinus')];
    // 0.3 mm from the first sinus point (on the surface within the 1 mm a pick may be off): the middle point lies
    // at most 0.3 mm from the line through the other two, far below 2 mm.
    const beside = a.map((v, i) => v + (i === 2 ? 0.3 : 0));
    await refused(
      sectionBody('On one line', [picked(a, patientId), picked(beside, patientId), picked(b, patientId)]),
      new RegExp(
        `^The three points of the plane lie within 2 mm of one line on patient ${patientId} at end-diastole ` +
          '\\(the middle one is 0\\.[0-3] mm from the line through the other two\\), so they do not define a plane\\. ' +
          'Pick points farther apart\\.$',
      ),
    );
    await refused(
      sectionBody('Twice', [{ landmark: 'lvot' }, { landmark: 'aortic_annulus' }, { landmark: 'lvot' }]),
      'A plane needs three different points; this one names the lvot landmark twice.',
    );
    await refused(
      sectionBody('Typed', [{ position: [0, 0, 0] }, { position: [10, 10, 10] }, { position: [20, 20.5, 20] }]),
      /^The three points of the plane lie within 2 mm of one line as typed \(the middle one is 0\.2 mm /,
    );
    // An offset along the plane's normal is at most 200 mm either way (the drawer's offset field says so too).
    const far = sectionBody(
      'Far above',
      sinuses.map((landmark) => ({ landmark })),
    );
    await refused(
      { ...far, geometry: { ...far.geometry, plane: { ...far.geometry.plane, offset_mm: -250 } } },
      'An offset is at most 200 mm.',
    );
    // Points off the surface are refused as for a distance.
    await refused(
      sectionBody('Off the wall', [
        picked(at('sinotubular_junction'), patientId),
        picked(a, patientId),
        picked(b, patientId),
      ]),
      /^A picked point lies \d+\.\d mm from the aortic root surface of patient /,
    );
  });
});

describe('into the population analysis', () => {
  it('offers a ready order’s measurements as analysis and device-fit parameters of its cohort, and nothing else', async () => {
    const created = await admin.postJson(`${base()}/cohorts/${cohortId}/measurement-orders`, {
      definitionIds: ['scct-tavi/annulus-perimeter@1', 'scct-tavi/stj-height@1'],
    });
    const order = await ready((await json<MeasurementOrder>(created)).id);
    const analyses = `${base()}/projects/${projectId}/analyses`;
    const perimeter = `measurement.${order.id}.0`;
    const fit = {
      versionId: null,
      label: 'Valve by perimeter',
      sizes: [{ name: '23 mm', ranges: [{ parameter: perimeter, min: 66, max: 75 }] }],
    };
    const analysis = await admin.postJson(analyses, {
      cohortId,
      parameters: ['aorticAnnulusDiameter_mm', perimeter],
      settings: { deviceFits: [fit], sizingParameter: perimeter },
    });
    expect(analysis.status, await analysis.clone().text()).toBe(201);
    const savedAnalysis = await json<{ id: string; parameters: string[] }>(analysis);
    expect(savedAnalysis).toMatchObject({
      parameters: ['aorticAnnulusDiameter_mm', perimeter],
      settings: { sizingParameter: perimeter, deviceFits: [fit] },
    });
    // The analysis report (PDF) needs the analysis' 20 patients: this cohort has 5.
    const report = await admin.postJson(`${analyses}/${savedAnalysis.id}/report`, {});
    expect(report.status).toBe(422);
    expect((await errorOf(report)).message).toBe('Statistical analysis needs at least 20 patients.');
    // A measurement the order does not have, an order that does not exist, and an order still measuring.
    const outside = `measurement.${order.id}.2`;
    const stranger = 'measurement.00000000-0000-4000-8000-000000000000.0';
    for (const key of [outside, stranger]) {
      const refused = await admin.postJson(analyses, { cohortId, parameters: [key] });
      expect(refused.status).toBe(422);
      expect((await errorOf(refused)).message).toBe(`These parameters are not known: ${key}.`);
    }
    // Where the plan lacks measurements, the analysis cannot name them.
    await server.context.subscriptions.set({ deviceId, plan: 'trial', seats: 10 });
    try {
      const refused = await admin.postJson(analyses, { cohortId, parameters: [perimeter] });
      expect(refused.status).toBe(422);
    } finally {
      await server.context.subscriptions.set({ deviceId, plan: 'team', seats: 10 });
    }
  }, 120_000);
});

describe('refusals', () => {
  it('refuses unknown landmarks and organs, empty names, unknown definitions and cohorts with a message', async () => {
    const badLandmark = await admin.postJson(`${base()}/measurement-definitions`, {
      ...distanceBody('Bad'),
      geometry: { type: 'distance', from: { landmark: 'nose' }, to: { landmark: 'lv_apex' } },
    });
    expect(badLandmark.status).toBe(400);
    expect((await errorOf(badLandmark)).message).toContain('"nose" is not a landmark of the anatomy');
    const badOrgan = await admin.postJson(`${base()}/measurement-definitions`, {
      ...distanceBody('Bad'),
      geometry: { type: 'volume', organ: 'spleen' },
    });
    expect((await errorOf(badOrgan)).message).toContain('"spleen" is not an organ of the anatomy');
    const noName = await admin.postJson(`${base()}/measurement-definitions`, { ...distanceBody('  ') });
    expect(noName.status).toBe(400);
    const unknown = await admin.postJson(`${base()}/cohorts/${cohortId}/measurement-orders`, {
      definitionIds: ['scct-tavi/nothing@1'],
    });
    expect(unknown.status).toBe(400);
    expect((await errorOf(unknown)).message).toBe(
      'There is no measurement scct-tavi/nothing@1 in this device workspace.',
    );
    const none = await admin.postJson(`${base()}/cohorts/${cohortId}/measurement-orders`, { definitionIds: [] });
    expect((await errorOf(none)).message).toContain('Choose at least one measurement.');
    const noCohort = await admin.postJson(`${base()}/cohorts/00000000-0000-4000-8000-000000000000/measurement-orders`, {
      definitionIds: ['scct-tavi/stj-height@1'],
    });
    expect(noCohort.status).toBe(404);
    const revise = await send(
      admin,
      'PUT',
      `${base()}/measurement-definitions/00000000-0000-4000-8000-000000000000`,
      distanceBody('x'),
    );
    expect(revise.status).toBe(404);
  });
});

describe('plans', () => {
  it('a workspace whose plan lacks measurements gets the spec’s message on every call', async () => {
    await server.context.subscriptions.set({ deviceId, plan: 'trial', seats: 10 });
    try {
      for (const response of [
        await admin.get(`${base()}/measurement-definitions`),
        await admin.postJson(`${base()}/cohorts/${cohortId}/measurement-orders`, {
          definitionIds: ['scct-tavi/stj-height@1'],
        }),
        await admin.get(`${base()}/measurement-orders`),
      ]) {
        expect(response.status).toBe(403);
        expect(await errorOf(response)).toMatchObject({
          code: 'measurements_not_in_plan',
          message: 'Please send us a message to request measurements.',
        });
      }
    } finally {
      await server.context.subscriptions.set({ deviceId, plan: 'team', seats: 10 });
    }
    expect((await admin.get(`${base()}/measurement-definitions`)).status).toBe(200);
  });
});

describe('permission table', () => {
  type Call = (b: TestBrowser) => Promise<Response>;
  const deny = { anonymous: 401, nonMember: 404, invited: 404, pending: 403, otherAdmin: 404, guest: 403 } as const;
  let orderId = '';
  let patientId = '';
  let lineageId = '';
  beforeAll(async () => {
    const created = await admin.postJson(`${base()}/cohorts/${cohortId}/measurement-orders`, {
      definitionIds: ['scct-tavi/stj-height@1'],
    });
    const order = await ready((await json<MeasurementOrder>(created)).id);
    orderId = order.id;
    patientId = order.patients[0]!.patientId;
    lineageId = (
      await json<MeasurementDefinitionView>(
        await admin.postJson(`${base()}/measurement-definitions`, distanceBody('For the table')),
      )
    ).lineageId;
  }, 120_000);
  const correction = {
    phase: 'end-systole',
    landmarks: { aortic_annulus: { position: [0, 0, 0], normal: [0, 0, 1] } },
    reason: 'Plane checked by hand',
  };
  const table: [string, Call, Record<Principal, number>][] = [
    [
      'GET …/measurement-definitions',
      (b) => b.get(`${base()}/measurement-definitions`),
      { ...deny, member: 200, admin: 200 },
    ],
    [
      'POST …/measurement-definitions',
      (b) => b.postJson(`${base()}/measurement-definitions`, distanceBody(`P ${Math.random()}`)),
      { ...deny, member: 201, admin: 201 },
    ],
    [
      'POST …/cohorts/:id/measurement-orders',
      (b) =>
        b.postJson(`${base()}/cohorts/${cohortId}/measurement-orders`, { definitionIds: ['scct-tavi/stj-height@1'] }),
      { ...deny, member: 201, admin: 201 },
    ],
    ['GET …/measurement-orders', (b) => b.get(`${base()}/measurement-orders`), { ...deny, member: 200, admin: 200 }],
    [
      'GET …/measurement-orders/:id',
      (b) => b.get(`${base()}/measurement-orders/${orderId}`),
      { ...deny, member: 200, admin: 200 },
    ],
    [
      'GET …/measurement-orders/:id/results.csv',
      (b) => b.get(`${base()}/measurement-orders/${orderId}/results.csv`),
      { ...deny, member: 200, admin: 200 },
    ],
    [
      'PUT …/measurement-definitions/:id',
      (b) => send(b, 'PUT', `${base()}/measurement-definitions/${lineageId}`, distanceBody('Revised')),
      { ...deny, member: 201, admin: 201 },
    ],
    [
      'PUT …/measurement-orders/:id/patients/:patientId/correction',
      (b) => send(b, 'PUT', `${base()}/measurement-orders/${orderId}/patients/${patientId}/correction`, correction),
      { ...deny, member: 200, admin: 200 },
    ],
  ];
  it('refuses a correction of an unknown landmark, of a phase the order does not measure, of an unknown patient', async () => {
    const path = (patient: string) => `${base()}/measurement-orders/${orderId}/patients/${patient}/correction`;
    const unknown = await send(admin, 'PUT', path(patientId), {
      phase: 'end-systole',
      landmarks: { nose: { position: [0, 0, 0] } },
      reason: 'Wrong landmark',
    });
    expect(unknown.status).toBe(400);
    expect((await errorOf(unknown)).message).toContain('"nose" is not a landmark of the anatomy');
    const phase = await send(admin, 'PUT', path(patientId), { ...correction, phase: 'end-diastole' });
    expect(phase.status).toBe(400);
    expect((await errorOf(phase)).message).toBe('No measurement of this order is taken at end-diastole.');
    expect((await send(admin, 'PUT', path('SYN-999999'), correction)).status).toBe(404);
    const empty = await send(admin, 'PUT', path(patientId), { ...correction, landmarks: {} });
    expect((await errorOf(empty)).message).toContain('Correct at least one landmark.');
  });

  it.each(table.flatMap(([name, call, expected]) => principals.map((p) => [name, p, call, expected[p]] as const)))(
    '%s as %s',
    async (_, principal, call, status) => {
      const response = await call(browsers[principal]);
      expect(response.status).toBe(status);
      if (principal === 'guest')
        expect((await errorOf(response)).message).toBe(
          'Guests cannot use measurements in this device workspace. Contact your device company admin to check your role in this device.',
        );
    },
  );
});
