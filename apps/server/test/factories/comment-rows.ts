import { projectComments } from '../../src/db/schema';
import type { TestServer } from '../helpers/test-server';

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
