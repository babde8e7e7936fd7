import { randomUUID } from 'node:crypto';
import { createDefaultCriteria } from '@insilico/anatomy';
import type { CohortList, NotificationList, Project, ProjectList, ProjectOverview } from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cohorts } from '../db/schema';
import { currentRequestId } from '../events/request-context';
import { startTestServer, type TestServer } from '../../test/helpers/test-server';
import { createWorkspace, json, signedIn, type Person } from '../../test/fixtures/workspace.fixtures';
import { insertDeviceVersion, insertProjects } from '../../test/factories/project-rows';

/**
 * How many SQL statements a signed-in read of the main endpoints sends (issue 14 item 12b: 50 clients on these are
 * the load benchmark; on the embedded database every statement is a turn of the one PGlite executor, so the count is
 * what the time follows). A change that adds a statement to one of them fails here: say why in
 * docs/benchmarks.md ("Load: 50 signed-in clients…") and change the budget.
 *
 * Statements are attributed by the request id the test sends (`x-request-id`, kept by the server's request context),
 * so jobs and relays running meanwhile are not counted. The maintenance state is cached for the whole run, and each
 * counted read follows a read of the same path (the session's last-seen write happens at most once a minute).
 */
const statements = new Map<string, string[]>();
let server: TestServer;
let admin: Person;
let deviceId = '';

beforeAll(async () => {
  server = await startTestServer(
    { MAINTENANCE_CACHE_SECONDS: '3600' },
    {
      onStatement: (text) => {
        const id = currentRequestId();
        if (id?.startsWith('counted-')) statements.set(id, [...(statements.get(id) ?? []), text]);
      },
    },
  );
  admin = await signedIn(server);
  deviceId = (await createWorkspace(admin)).deviceId;
  const versionId = await insertDeviceVersion(server, deviceId, { status: 'ready' });
  const cohortIds = [randomUUID(), randomUUID()];
  await server.context.db.orm.insert(cohorts).values(
    cohortIds.map((id, index) => ({
      id,
      deviceId,
      name: `Counted cohort ${index + 1}`,
      criteria: createDefaultCriteria() as unknown as Record<string, unknown>,
      size: 5,
      status: 'ready' as const,
      populationSeed: 1,
      populationSize: 2000,
      modelVersion: 'test',
      meshModelVersion: 'test',
      sampleSeed: index,
      matchingAtOrder: 900,
    })),
  );
  // Projects in two stages, with teams, cohorts and versions: every part of the overview is read.
  await insertProjects(
    server,
    Array.from({ length: 6 }, (_, index) => ({
      deviceId,
      team: [admin.id],
      developmentStage: index % 2 === 0 ? ('concept_and_design_feasibility' as const) : ('clinical_trial' as const),
      cohortIds: index < 3 ? cohortIds : [],
      versionIds: index < 2 ? [versionId] : [],
    })),
  );
  for (let n = 1; n <= 3; n += 1)
    await server.context.notifications.post({ userId: admin.id, kind: 'test', title: `Counted ${n}` });
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

/** The statements one signed-in GET of `path` sends, after a first GET of it (warm caches, last-seen written). */
async function statementsOf<T>(path: string): Promise<{ body: T; sent: string[] }> {
  expect((await admin.browser.get(path)).status).toBe(200);
  const id = `counted-${randomUUID()}`;
  const response = await admin.browser.request(path, { headers: { 'x-request-id': id } });
  expect(response.status).toBe(200);
  expect(response.headers.get('x-request-id')).toBe(id);
  return { body: await json<T>(response), sent: statements.get(id) ?? [] };
}

describe('SQL statements per signed-in read', () => {
  it('projects overview: session, user and membership, one statement for the stage pages with their counts and parts', async () => {
    const { body, sent } = await statementsOf<ProjectOverview>(`/api/devices/${deviceId}/projects/overview`);
    expect(body.total).toBe(6);
    expect(body.groups.filter((group) => group.items.length > 0)).toHaveLength(2);
    expect(sent, sent.join('\n\n')).toHaveLength(2);
  });

  it('projects list and one project: the parts of all listed projects in one statement', async () => {
    const base = `/api/devices/${deviceId}/projects`;
    const list = await statementsOf<ProjectList>(`${base}?stage=clinical_trial&limit=10`);
    expect(list.body.items).toHaveLength(3);
    // Session, user and membership, stage counts, the page with its parts.
    expect(list.sent, list.sent.join('\n\n')).toHaveLength(3);
    const one = await statementsOf<Project>(`${base}/${list.body.items[0]!.id}`);
    expect(one.body.team).toHaveLength(1);
    // Session, user and membership, the project with its parts (its team says whether the caller is on it).
    expect(one.sent, one.sent.join('\n\n')).toHaveLength(2);
  });

  it('cohorts list: session, user and membership, the cohorts', async () => {
    const { body, sent } = await statementsOf<CohortList>(`/api/devices/${deviceId}/cohorts`);
    expect(body.items).toHaveLength(2);
    expect(sent, sent.join('\n\n')).toHaveLength(2);
  });

  it('notifications: session and user, one page with its unseen flag', async () => {
    const { body, sent } = await statementsOf<NotificationList>('/api/notifications');
    expect(body.items).toHaveLength(3);
    expect(sent, sent.join('\n\n')).toHaveLength(2);
    // All seen: the flag still comes with the page, not from a second statement.
    expect((await admin.browser.postJson('/api/notifications/seen', { all: true })).status).toBe(200);
    const seen = await statementsOf<NotificationList>('/api/notifications');
    expect(seen.body.hasUnseen).toBe(false);
    expect(seen.sent, seen.sent.join('\n\n')).toHaveLength(2);
  });
});
