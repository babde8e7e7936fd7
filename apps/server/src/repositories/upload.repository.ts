import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { uploads } from '../db/schema';

export type UploadRow = typeof uploads.$inferSelect;
export type NewUpload = typeof uploads.$inferInsert;

/** The rows of resumable uploads (tus). The bytes live in the blob store under `storageKey`. */
export class UploadRepository {
  constructor(private readonly orm: Orm) {}

  async insert(upload: NewUpload): Promise<UploadRow> {
    const rows = await this.orm.insert(uploads).values(upload).returning();
    return rows[0]!;
  }

  /** An upload of the workspace, or null (also when it belongs to another workspace). */
  async find(deviceId: string, uploadId: string): Promise<UploadRow | null> {
    const rows = await this.orm
      .select()
      .from(uploads)
      .where(and(eq(uploads.deviceId, deviceId), eq(uploads.id, uploadId)));
    return rows[0] ?? null;
  }

  async findMany(deviceId: string, uploadIds: readonly string[]): Promise<UploadRow[]> {
    if (uploadIds.length === 0) return [];
    return this.orm
      .select()
      .from(uploads)
      .where(and(eq(uploads.deviceId, deviceId), inArray(uploads.id, [...uploadIds])));
  }

  /**
   * Records `written` more bytes after `expectedOffset`, only if the offset is still what the writer started
   * from (a second writer that got there first wins); null otherwise. Completes the upload at its length.
   */
  async advance(uploadId: string, expectedOffset: number, written: number, expiresAt: Date): Promise<UploadRow | null> {
    const next = expectedOffset + written;
    const rows = await this.orm
      .update(uploads)
      .set({
        offset: next,
        updatedAt: sql`now()`,
        expiresAt,
        completedAt: sql`case when ${next} = ${uploads.length} then now() else null end`,
      })
      // Never for a direct upload (its bytes go to storage by presigned parts, not through here).
      .where(and(eq(uploads.id, uploadId), eq(uploads.offset, expectedOffset), isNull(uploads.multipartId)))
      .returning();
    return rows[0] ?? null;
  }

  /**
   * Takes the upload's write lease for `ms` (one PATCH at a time, whichever server process it reaches): false when
   * another writer holds an unexpired lease.
   */
  async takeWriteLease(uploadId: string, token: string, ms: number): Promise<boolean> {
    const rows = await this.orm
      .update(uploads)
      .set({ writerToken: token, writerUntil: sql`now() + (${ms} * interval '1 millisecond')` })
      .where(and(eq(uploads.id, uploadId), or(isNull(uploads.writerUntil), lt(uploads.writerUntil, sql`now()`))))
      .returning({ id: uploads.id });
    return rows.length === 1;
  }

  /** Extends a lease this writer holds (a long PATCH); false when it was lost. */
  async renewWriteLease(uploadId: string, token: string, ms: number): Promise<boolean> {
    const rows = await this.orm
      .update(uploads)
      .set({ writerUntil: sql`now() + (${ms} * interval '1 millisecond')` })
      .where(and(eq(uploads.id, uploadId), eq(uploads.writerToken, token)))
      .returning({ id: uploads.id });
    return rows.length === 1;
  }

  async releaseWriteLease(uploadId: string, token: string): Promise<void> {
    await this.orm
      .update(uploads)
      .set({ writerToken: null, writerUntil: null })
      .where(and(eq(uploads.id, uploadId), eq(uploads.writerToken, token)));
  }

  /**
   * Records the direct (multipart) upload started for an upload that has none and no bytes yet; false when another
   * request recorded one first (the caller drops its own and uses that one).
   */
  async setMultipart(uploadId: string, multipartId: string, expiresAt: Date): Promise<boolean> {
    const rows = await this.orm
      .update(uploads)
      .set({ multipartId, expiresAt, updatedAt: sql`now()` })
      .where(
        and(
          eq(uploads.id, uploadId),
          isNull(uploads.multipartId),
          eq(uploads.offset, 0),
          isNull(uploads.completedAt),
          or(isNull(uploads.writerUntil), lt(uploads.writerUntil, sql`now()`)),
        ),
      )
      .returning({ id: uploads.id });
    return rows.length === 1;
  }

  /** Records a part the browser sent into storage (one statement: parts reported at once never lose each other). */
  async recordPart(
    uploadId: string,
    multipartId: string,
    partNumber: number,
    part: { bytes: number; etag: string },
    expiresAt: Date,
  ): Promise<UploadRow | null> {
    const rows = await this.orm
      .update(uploads)
      .set({
        parts: sql`${uploads.parts} || jsonb_build_object(${String(partNumber)}::text, ${JSON.stringify(part)}::jsonb)`,
        expiresAt,
        updatedAt: sql`now()`,
      })
      .where(and(eq(uploads.id, uploadId), eq(uploads.multipartId, multipartId), isNull(uploads.completedAt)))
      .returning();
    return rows[0] ?? null;
  }

  /** A direct upload joined in storage: all its bytes are there; null when it was not (any more) that upload. */
  async completeDirect(uploadId: string, multipartId: string, expiresAt: Date): Promise<UploadRow | null> {
    const rows = await this.orm
      .update(uploads)
      .set({ offset: uploads.length, completedAt: sql`now()`, expiresAt, updatedAt: sql`now()` })
      .where(and(eq(uploads.id, uploadId), eq(uploads.multipartId, multipartId), isNull(uploads.completedAt)))
      .returning();
    return rows[0] ?? null;
  }

  async delete(uploadId: string): Promise<UploadRow | null> {
    const rows = await this.orm.delete(uploads).where(eq(uploads.id, uploadId)).returning();
    return rows[0] ?? null;
  }

  /** Uploads whose time ran out, oldest first. */
  async expired(before: Date, limit: number): Promise<UploadRow[]> {
    return this.orm.select().from(uploads).where(lt(uploads.expiresAt, before)).orderBy(uploads.expiresAt).limit(limit);
  }
}
