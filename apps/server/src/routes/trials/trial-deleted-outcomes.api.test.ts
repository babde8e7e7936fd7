import { trialOutcomeParameter, type Analysis } from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patchAnalysis } from '../../../test/fixtures/analysis.fixtures';
import { orderCohort, settled } from '../../../test/fixtures/cohort.fixtures';
import { createWorkspace, errorOf, json, signedIn, type Person } from '../../../test/fixtures/workspace.fixtures';
import { insertProject } from '../../../test/factories/project-rows';
import { insertTrialRow } from '../../../test/factories/trial-rows';
import { eventsOf } from '../../../test/helpers/domain-events';
import { startTestServer, type TestServer } from '../../../test/helpers/test-server';

/**
 * An analysis that used a trial's outcomes, after the trial was deleted (issue 17): its next save takes the deleted
 * trial's keys out — from the parameters, the sizing proposal and the device-fit ranges — and says which and why,
 * rather than refusing the save; the events already stored keep the keys; a key the caller adds is still checked.
 */
let server: TestServer;
let admin: Person;
let deviceId = '';
let projectId = '';
let cohortId = '';

const analysesPath = () => `/api/devices/${deviceId}/projects/${projectId}/analyses`;
const trialPath = (trialId: string) => `/api/devices/${deviceId}/projects/${projectId}/trials/${trialId}`;

async function trialWithAnalysis(name: string, parameters: (outcome: (key: string) => string) => string[]) {
  const trialId = await insertTrialRow(server, { deviceId, projectId, name, createdBy: admin.id, cohortId });
  const outcome = (key: string) => trialOutcomeParameter(trialId, key);
  const created = await admin.browser.postJson(analysesPath(), {
    cohortId,
    name,
    parameters: parameters(outcome),
    settings: {
      sizingParameter: outcome('final_device_diameter'),
      deviceFits: [
        {
          label: 'Ring valve',
          sizes: [
            { name: 'S', ranges: [{ parameter: outcome('final_ovality'), min: 0, max: 10 }] },
            {
              name: 'M',
              ranges: [
                { parameter: outcome('final_ovality'), min: 0, max: 10 },
                { parameter: 'aorticAnnulusPerimeter_mm', min: 60, max: 80 },
              ],
            },
          ],
        },
      ],
    },
  });
  expect(created.status, await created.clone().text()).toBe(201);
  return { trialId, outcome, analysis: await json<Analysis>(created) };
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await signedIn(server);
  ({ deviceId } = await createWorkspace(admin));
  const order = await orderCohort(admin.browser, deviceId, { name: 'Deleted trial cohort', size: 5 });
  cohortId = (await settled(admin.browser, deviceId, order.id)).id;
  projectId = await insertProject(server, { deviceId, team: [admin.id], cohortIds: [cohortId] });
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe('an analysis using a deleted trial’s outcomes', () => {
  it('saves without them and says which parameters were taken out and why', async () => {
    const { trialId, outcome, analysis } = await trialWithAnalysis('Ring valve trial', (o) => [
      'aorticAnnulusPerimeter_mm',
      o('final_device_diameter'),
      o('peak_contact_pressure'),
    ]);
    expect((await admin.browser.request(trialPath(trialId), { method: 'DELETE' })).status).toBe(204);

    // A change of the name alone, with the stored parameters: the save goes through without the deleted keys.
    const path = `${analysesPath()}/${analysis.id}`;
    const saved = await patchAnalysis(admin.browser, path, { name: 'After the trial went' }, analysis.revision);
    expect(saved.status, await saved.clone().text()).toBe(200);
    const answer = await json<Analysis>(saved);
    expect(answer.parameters).toEqual(['aorticAnnulusPerimeter_mm']);
    expect(answer.settings.sizingParameter).toBeNull();
    expect(answer.settings.deviceFits[0]!.sizes).toEqual([
      { name: 'M', ranges: [{ parameter: 'aorticAnnulusPerimeter_mm', min: 60, max: 80 }] },
    ]);
    const deletedReason = 'Its trial was deleted, so its outcomes are no longer available.';
    expect(answer.dropped).toEqual([
      {
        parameter: outcome('final_device_diameter'),
        label: 'Final device diameter',
        reason: deletedReason,
        removedFrom: ['the analysed parameters', 'the sizing proposal'],
      },
      {
        parameter: outcome('peak_contact_pressure'),
        label: 'Peak contact pressure',
        reason: deletedReason,
        removedFrom: ['the analysed parameters'],
      },
      {
        parameter: outcome('final_ovality'),
        label: 'Final ovality',
        reason: deletedReason,
        removedFrom: ['size S of Ring valve', 'size M of Ring valve'],
      },
    ]);

    // Stored as answered; a later read has nothing to report.
    const read = await json<Analysis>(await admin.browser.get(path));
    expect([read.parameters, read.settings, read.dropped]).toEqual([answer.parameters, answer.settings, undefined]);

    // The creation's event keeps the keys it was made with; the update's says what went.
    const events = await eventsOf(server, 'analysis', analysis.id);
    expect(events.map((e) => e.action)).toEqual(['analysis.created', 'analysis.updated']);
    expect((events[0]!.after as { parameters: string[] }).parameters).toContain(outcome('peak_contact_pressure'));
    const before = events[1]!.before as { parameters: string[] };
    const after = events[1]!.after as { parameters: string[]; dropped: { parameter: string }[] };
    expect(before.parameters).toContain(outcome('peak_contact_pressure'));
    expect(after.parameters).toEqual(['aorticAnnulusPerimeter_mm']);
    expect(after.dropped.map((d) => d.parameter)).toEqual(answer.dropped!.map((d) => d.parameter));

    // A deleted trial's key the caller adds now is not the stored analysis's: refused as any unknown key.
    const refused = await patchAnalysis(
      admin.browser,
      path,
      { parameters: ['aorticAnnulusPerimeter_mm', outcome('final_ovality')] },
      answer.revision,
    );
    expect(refused.status).toBe(422);
    expect((await errorOf(refused)).message).toBe(`These parameters are not known: ${outcome('final_ovality')}.`);
  });

  it('refuses the save, nothing changed, when only the deleted trial’s outcomes were analysed', async () => {
    const { trialId, analysis } = await trialWithAnalysis('Ovality only', (o) => [
      o('final_ovality'),
      o('final_device_diameter'),
    ]);
    expect((await admin.browser.request(trialPath(trialId), { method: 'DELETE' })).status).toBe(204);
    const path = `${analysesPath()}/${analysis.id}`;
    const refused = await patchAnalysis(admin.browser, path, { name: 'Renamed' }, analysis.revision);
    expect(refused.status).toBe(422);
    const error = await errorOf(refused);
    expect([error.code, error.message]).toEqual([
      'no_parameters_left',
      'Every parameter of this analysis was an outcome of a deleted trial. Choose at least one parameter.',
    ]);
    const read = await json<Analysis>(await admin.browser.get(path));
    expect([read.name, read.revision, read.parameters]).toEqual([
      analysis.name,
      analysis.revision,
      analysis.parameters,
    ]);
    // Choosing another parameter saves, the deleted trial's keys taken out.
    const saved = await patchAnalysis(
      admin.browser,
      path,
      { parameters: [...analysis.parameters, 'height_cm'] },
      analysis.revision,
    );
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect((await json<Analysis>(saved)).parameters).toEqual(['height_cm']);
  });
});
