import { projectComments, projectMembers, projects } from '../../src/db/schema';
import type { TestServer } from '../helpers/test-server';

/** Rows written straight into the database, for suites that test what happens inside a project. */

/**
 * A project with a given team, written straight into the database: suites of comments (and the like) test what happens inside a project, not how a
 * project is created (the project suites do that), and need teams the creation rules would not allow (empty).
 */
export async function insertProject(
  server: TestServer,
  deviceId: string,
  team: string[],
  name = `Project ${Math.random().toString(36).slice(2, 8)}`,
): Promise<string> {
  const { orm } = server.context.db;
  const rows = await orm
    .insert(projects)
    .values({ deviceId, name, developmentStage: 'concept_and_design_feasibility' })
    .returning({ id: projects.id });
  const projectId = rows[0]!.id;
  if (team.length > 0) await orm.insert(projectMembers).values(team.map((userId) => ({ projectId, userId })));
  return projectId;
}

/** A comment written straight into the database (e.g. by someone no longer allowed to write). */
export async function insertComment(
  server: TestServer,
  projectId: string,
  authorId: string,
  body = 'Written before',
): Promise<string> {
  const rows = await server.context.db.orm
    .insert(projectComments)
    .values({ projectId, authorId, body })
    .returning({ id: projectComments.id });
  return rows[0]!.id;
}
