import { and, count, desc, eq } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { projects, questionsOfInterest, users } from '../db/schema';

export type QuestionRow = typeof questionsOfInterest.$inferSelect;
export type NewQuestion = typeof questionsOfInterest.$inferInsert;

/** A question with its author's name and how many projects of the workspace use it. */
export interface QuestionListRow {
  question: QuestionRow;
  creatorName: string | null;
  projectCount: number;
}

/** Questions of interest of a workspace. Every read names its workspace. */
export class QuestionRepository {
  constructor(private readonly orm: Orm) {}

  async insert(question: NewQuestion): Promise<QuestionRow> {
    const rows = await this.orm.insert(questionsOfInterest).values(question).returning();
    return rows[0]!;
  }

  /** The workspace's questions, newest first. */
  async list(deviceId: string): Promise<QuestionListRow[]> {
    return this.select().where(eq(questionsOfInterest.deviceId, deviceId)).orderBy(desc(questionsOfInterest.createdAt));
  }

  /** A question of the workspace, or null (also when it belongs to another workspace). */
  async find(deviceId: string, questionId: string): Promise<QuestionListRow | null> {
    const rows = await this.select().where(
      and(eq(questionsOfInterest.deviceId, deviceId), eq(questionsOfInterest.id, questionId)),
    );
    return rows[0] ?? null;
  }

  private select() {
    return this.orm
      .select({ question: questionsOfInterest, creatorName: users.fullName, projectCount: count(projects.id) })
      .from(questionsOfInterest)
      .leftJoin(users, eq(users.id, questionsOfInterest.createdBy))
      .leftJoin(projects, eq(projects.questionId, questionsOfInterest.id))
      .groupBy(questionsOfInterest.id, users.fullName)
      .$dynamic();
  }
}
