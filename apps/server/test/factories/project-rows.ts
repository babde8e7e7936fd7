import { randomUUID } from 'node:crypto';
import type { DevelopmentStage, ProjectStatus } from '@insilico/contracts';
import { eq } from 'drizzle-orm';
import {
  deviceVersions,
  projectCohorts,
  projectDeviceVersions,
  projectMembers,
  projects,
  questionsOfInterest,
} from '../../src/db/schema';
import type { TestBrowser } from '../helpers/browser';
import type { TestServer } from '../helpers/test-server';

/**
 * Projects for API suites, written straight into the database (the creation API has its own suite): any
 * project-scoped suite (comments, rooms, versions, analyses) can set up the project it needs in one call.
 */
export interface ProjectSeed {
  deviceId: string;
  /** The team; the first one is the creator. May be empty (suites that need a team no API path allows). */
  team: readonly string[];
  name?: string;
  developmentStage?: DevelopmentStage;
  status?: ProjectStatus;
  cohortIds?: readonly string[];
  versionIds?: readonly string[];
  questionId?: string | null;
  createdAt?: Date;
}

let seeded = 0;

/** Inserts one project with its team, cohorts and versions; answers its id. */
export async function insertProject(server: TestServer, seed: ProjectSeed): Promise<string> {
  const [id] = await insertProjects(server, [seed]);
  return id!;
}

/** Inserts many projects in a few statements (the 1,000-project listing, the benchmark). */
export async function insertProjects(server: TestServer, seeds: ProjectSeed[]): Promise<string[]> {
  const orm = server.context.db.orm;
  const rows = seeds.map((seed) => ({
    id: randomUUID(),
    deviceId: seed.deviceId,
    name: seed.name ?? `Project ${(seeded += 1)} ${randomUUID().slice(0, 6)}`,
    developmentStage: seed.developmentStage ?? 'concept_and_design_feasibility',
    status: seed.status ?? 'active',
    questionId: seed.questionId ?? null,
    createdBy: seed.team[0] ?? null,
    ...(seed.createdAt ? { createdAt: seed.createdAt } : {}),
  }));
  // Batches keep each statement well under PostgreSQL's parameter limit.
  const batch = 500;
  for (let start = 0; start < rows.length; start += batch)
    await orm.insert(projects).values(rows.slice(start, start + batch));
  // One millisecond apart, so the team keeps the order of the seed (the API lists it by time added).
  const now = Date.now();
  const members = seeds.flatMap((seed, index) =>
    seed.team.map((userId, position) => ({
      projectId: rows[index]!.id,
      userId,
      addedBy: seed.team[0],
      addedAt: new Date(now + position),
    })),
  );
  for (let start = 0; start < members.length; start += batch)
    await orm.insert(projectMembers).values(members.slice(start, start + batch));
  const cohortLinks = seeds.flatMap((seed, index) =>
    (seed.cohortIds ?? []).map((cohortId) => ({ projectId: rows[index]!.id, cohortId })),
  );
  if (cohortLinks.length > 0) await orm.insert(projectCohorts).values(cohortLinks);
  const versionLinks = seeds.flatMap((seed, index) =>
    (seed.versionIds ?? []).map((versionId) => ({ projectId: rows[index]!.id, versionId })),
  );
  if (versionLinks.length > 0) await orm.insert(projectDeviceVersions).values(versionLinks);
  return rows.map((row) => row.id);
}

/** A question of interest of the workspace (V&V 40 grades optional). */
export async function insertQuestion(
  server: TestServer,
  deviceId: string,
  fields: { question?: string; modelInfluence?: string; decisionConsequence?: string; contextOfUse?: string } = {},
): Promise<string> {
  const id = randomUUID();
  await server.context.db.orm.insert(questionsOfInterest).values({
    id,
    deviceId,
    question: fields.question ?? 'Does the valve seal at the annulus?',
    contextOfUse: fields.contextOfUse ?? null,
    modelInfluence: fields.modelInfluence ?? null,
    decisionConsequence: fields.decisionConsequence ?? null,
  });
  return id;
}

/** A device version row in a given processing status (no files: the version suite owns processing). */
export async function insertDeviceVersion(
  server: TestServer,
  deviceId: string,
  fields: { name?: string; status?: 'uploading' | 'processing' | 'ready' | 'failed' } = {},
): Promise<string> {
  const id = randomUUID();
  await server.context.db.orm.insert(deviceVersions).values({
    id,
    deviceId,
    name: fields.name ?? `Version ${randomUUID().slice(0, 6)}`,
    status: fields.status ?? 'ready',
  });
  return id;
}

/** Puts a project back into a status (permission tables repeat a status move per principal). */
export async function setProjectStatus(server: TestServer, projectId: string, status: ProjectStatus): Promise<void> {
  await server.context.db.orm.update(projects).set({ status }).where(eq(projects.id, projectId));
}

/** The signed-in user's id. */
export async function userIdOf(browser: TestBrowser): Promise<string> {
  const me = (await (await browser.get('/api/auth/me')).json()) as { id: string };
  return me.id;
}
