import { and, asc, count, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { projectComments, projectMembers, users } from '../db/schema';

export type CommentRow = typeof projectComments.$inferSelect;

/** What an avatar needs of a person. */
export interface CommentPersonRow {
  userId: string;
  fullName: string;
  pictureFileId: string | null;
  pictureUrl: string | null;
}

/** A comment with its author (null when the account is gone). */
export interface CommentView extends CommentRow {
  author: CommentPersonRow | null;
}

/** Project comments and the people they show: threads, the team a comment may mention. */
export class CommentRepository {
  constructor(private readonly orm: Orm) {}

  /** A page of top-level comments, newest first; `before` is the id of the last one of the previous page. */
  async topLevel(projectId: string, limit: number, before: string | null): Promise<CommentView[]> {
    const c = projectComments;
    const conditions: SQL[] = [eq(c.projectId, projectId), isNull(c.parentId)];
    // Row comparison on (created_at, id): comments made in the same millisecond still page in a stable order.
    if (before)
      conditions.push(
        sql`(${c.createdAt}, ${c.id}) < (select b.created_at, b.id from project_comments b where b.id = ${before} and b.project_id = ${projectId})`,
      );
    return this.views(and(...conditions)!, [desc(c.createdAt), desc(c.id)], limit);
  }

  /** The replies of these top-level comments, oldest first. */
  async replies(parentIds: string[]): Promise<CommentView[]> {
    if (parentIds.length === 0) return [];
    const c = projectComments;
    return this.views(inArray(c.parentId, parentIds), [asc(c.createdAt), asc(c.id)]);
  }

  async countTopLevel(projectId: string): Promise<number> {
    const rows = await this.orm
      .select({ n: count() })
      .from(projectComments)
      .where(and(eq(projectComments.projectId, projectId), isNull(projectComments.parentId)));
    return Number(rows[0]?.n ?? 0);
  }

  async find(projectId: string, commentId: string): Promise<CommentView | null> {
    const rows = await this.views(
      and(eq(projectComments.projectId, projectId), eq(projectComments.id, commentId))!,
      [],
    );
    return rows[0] ?? null;
  }

  async insert(comment: {
    projectId: string;
    parentId: string | null;
    authorId: string;
    body: string;
    mentions: string[];
  }): Promise<CommentRow> {
    const rows = await this.orm.insert(projectComments).values(comment).returning();
    return rows[0]!;
  }

  async updateBody(commentId: string, body: string, mentions: string[]): Promise<void> {
    await this.orm
      .update(projectComments)
      .set({ body, mentions, editedAt: sql`now()` })
      .where(eq(projectComments.id, commentId));
  }

  /** Clears the body and mentions but keeps the row, so replies keep their thread. */
  async softDelete(commentId: string, deletedBy: string): Promise<void> {
    await this.orm
      .update(projectComments)
      .set({ body: '', mentions: [], deletedAt: sql`now()`, deletedBy })
      .where(eq(projectComments.id, commentId));
  }

  /** The project team, by name. */
  async team(projectId: string): Promise<CommentPersonRow[]> {
    return this.orm
      .select(personColumns)
      .from(projectMembers)
      .innerJoin(users, eq(users.id, projectMembers.userId))
      .where(eq(projectMembers.projectId, projectId))
      .orderBy(asc(sql`lower(${users.fullName})`), asc(users.id));
  }

  /** People by id (the current names of mentioned users). */
  async people(userIds: string[]): Promise<CommentPersonRow[]> {
    if (userIds.length === 0) return [];
    return this.orm.select(personColumns).from(users).where(inArray(users.id, userIds));
  }

  private async views(where: SQL, order: SQL[], limit?: number): Promise<CommentView[]> {
    const query = this.orm
      .select({ comment: projectComments, author: personColumns })
      .from(projectComments)
      .leftJoin(users, eq(users.id, projectComments.authorId))
      .where(where)
      .orderBy(...order);
    const rows = await (limit === undefined ? query : query.limit(limit));
    return rows.map((row) => ({ ...row.comment, author: row.author ?? null }));
  }
}

const personColumns = {
  userId: users.id,
  fullName: users.fullName,
  pictureFileId: users.pictureFileId,
  pictureUrl: users.pictureUrl,
};
