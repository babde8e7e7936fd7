import type { DataRegion, SupportRequestStatus } from '@insilico/contracts';
import { and, asc, count, desc, eq, inArray, notExists, sql, type SQL } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { devices, selectedDevices, storedFiles, supportMessages, supportRequests, users } from '../db/schema';

export type SupportRequestRow = typeof supportRequests.$inferSelect;
export type SupportMessageRow = typeof supportMessages.$inferSelect;
export type StoredFileRow = typeof storedFiles.$inferSelect;

export interface SupportPerson {
  id: string;
  email: string;
  fullName: string;
  isSupport: boolean;
}

/** A request with the people and workspace the inbox shows beside it. */
export interface SupportRequestView extends SupportRequestRow {
  userFullName: string;
  userEmail: string;
  deviceName: string | null;
  replies: number;
}

export interface SupportMessageView extends SupportMessageRow {
  authorName: string | null;
}

const screenshotPurpose = 'support_screenshot';

/** Support requests, their threads and screenshots, and the support-staff flag. */
export class SupportRepository {
  constructor(private readonly orm: Orm) {}

  async person(userId: string): Promise<SupportPerson | null> {
    const rows = await this.orm
      .select({ id: users.id, email: users.email, fullName: users.fullName, isSupport: users.isSupport })
      .from(users)
      .where(eq(users.id, userId));
    return rows[0] ?? null;
  }

  /** The workspace the user works in (context of a request, region of a screenshot), or null. */
  async selectedDevice(userId: string): Promise<{ deviceId: string; region: DataRegion } | null> {
    const rows = await this.orm
      .select({ deviceId: devices.id, region: devices.dataRegion })
      .from(selectedDevices)
      .innerJoin(devices, eq(devices.id, selectedDevices.deviceId))
      .where(eq(selectedDevices.userId, userId));
    return rows[0] ?? null;
  }

  async insertScreenshot(file: Omit<typeof storedFiles.$inferInsert, 'id' | 'createdAt' | 'purpose'>) {
    const rows = await this.orm
      .insert(storedFiles)
      .values({ ...file, purpose: screenshotPurpose })
      .returning();
    return rows[0]!;
  }

  /** The user's screenshots that no request refers to yet (uploaded in the drawer, not sent). */
  async unsentScreenshots(userId: string, options: { lock?: boolean } = {}): Promise<StoredFileRow[]> {
    const query = this.orm
      .select()
      .from(storedFiles)
      .where(
        and(
          eq(storedFiles.purpose, screenshotPurpose),
          eq(storedFiles.uploadedBy, userId),
          notExists(
            this.orm
              .select({ id: supportRequests.id })
              .from(supportRequests)
              .where(eq(supportRequests.screenshotFileId, storedFiles.id)),
          ),
        ),
      )
      .orderBy(desc(storedFiles.createdAt));
    return options.lock ? query.for('update', { of: storedFiles }) : query;
  }

  async deleteFiles(ids: string[]): Promise<void> {
    if (ids.length > 0) await this.orm.delete(storedFiles).where(inArray(storedFiles.id, ids));
  }

  async findFile(id: string): Promise<StoredFileRow | null> {
    const rows = await this.orm.select().from(storedFiles).where(eq(storedFiles.id, id));
    return rows[0] ?? null;
  }

  async insertRequest(request: {
    userId: string;
    deviceId: string | null;
    subject: string;
    message: string;
    screenshotFileId: string | null;
  }): Promise<SupportRequestRow> {
    const rows = await this.orm.insert(supportRequests).values(request).returning();
    return rows[0]!;
  }

  async findRequest(id: string, options: { lock?: boolean } = {}): Promise<SupportRequestView | null> {
    const rows = await this.views(eq(supportRequests.id, id), options.lock ?? false);
    return rows[0] ?? null;
  }

  /** A user's own requests, the most recently active first. */
  async listForUser(userId: string): Promise<SupportRequestView[]> {
    return this.views(eq(supportRequests.userId, userId), false);
  }

  /** Requests with a status (all when null), the oldest activity first so the longest waiting lead. */
  async listByStatus(status: SupportRequestStatus | null): Promise<SupportRequestView[]> {
    const rows = await this.views(status ? eq(supportRequests.status, status) : undefined, false);
    return rows.reverse();
  }

  async messages(requestId: string): Promise<SupportMessageView[]> {
    return this.orm
      .select({
        id: supportMessages.id,
        requestId: supportMessages.requestId,
        authorId: supportMessages.authorId,
        fromSupport: supportMessages.fromSupport,
        body: supportMessages.body,
        createdAt: supportMessages.createdAt,
        authorName: users.fullName,
      })
      .from(supportMessages)
      .leftJoin(users, eq(users.id, supportMessages.authorId))
      .where(eq(supportMessages.requestId, requestId))
      .orderBy(asc(supportMessages.createdAt), asc(supportMessages.id));
  }

  async insertMessage(message: {
    requestId: string;
    authorId: string;
    fromSupport: boolean;
    body: string;
  }): Promise<SupportMessageRow> {
    const rows = await this.orm.insert(supportMessages).values(message).returning();
    return rows[0]!;
  }

  async setStatus(requestId: string, status: SupportRequestStatus): Promise<void> {
    await this.orm
      .update(supportRequests)
      .set({ status, updatedAt: sql`now()` })
      .where(eq(supportRequests.id, requestId));
  }

  /** Sets the support-staff flag of every account with this e-mail; answers those changed. */
  async setSupportStaff(email: string, isSupport: boolean): Promise<SupportPerson[]> {
    return this.orm
      .update(users)
      .set({ isSupport, updatedAt: sql`now()` })
      .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
      .returning({ id: users.id, email: users.email, fullName: users.fullName, isSupport: users.isSupport });
  }

  async listSupportStaff(): Promise<SupportPerson[]> {
    return this.orm
      .select({ id: users.id, email: users.email, fullName: users.fullName, isSupport: users.isSupport })
      .from(users)
      .where(eq(users.isSupport, true))
      .orderBy(asc(users.email));
  }

  private async views(where: SQL | undefined, lock: boolean): Promise<SupportRequestView[]> {
    const replies = this.orm
      .select({ requestId: supportMessages.requestId, n: count().as('n') })
      .from(supportMessages)
      .groupBy(supportMessages.requestId)
      .as('replies');
    const query = this.orm
      .select({
        request: supportRequests,
        userFullName: users.fullName,
        userEmail: users.email,
        deviceName: devices.name,
        replies: replies.n,
      })
      .from(supportRequests)
      .innerJoin(users, eq(users.id, supportRequests.userId))
      .leftJoin(devices, eq(devices.id, supportRequests.deviceId))
      .leftJoin(replies, eq(replies.requestId, supportRequests.id))
      .where(where)
      .orderBy(desc(supportRequests.updatedAt), desc(supportRequests.id));
    const rows = await (lock ? query.for('update', { of: supportRequests }) : query);
    return rows.map((row) => ({
      ...row.request,
      userFullName: row.userFullName,
      userEmail: row.userEmail,
      deviceName: row.deviceName,
      replies: Number(row.replies ?? 0),
    }));
  }
}
