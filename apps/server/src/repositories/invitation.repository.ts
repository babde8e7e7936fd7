import type { MemberRole } from '@insilico/contracts';
import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { invitations } from '../db/schema';

export type InvitationRow = typeof invitations.$inferSelect;

/** Invitations to a device workspace; tokens are looked up by their hash only. */
export class InvitationRepository {
  constructor(private readonly orm: Orm) {}

  async insert(invitation: {
    deviceId: string;
    email: string;
    role: MemberRole;
    tokenHash: string;
    invitedBy: string;
    createdAt: Date;
    expiresAt: Date;
  }): Promise<InvitationRow> {
    const rows = await this.orm.insert(invitations).values(invitation).returning();
    return rows[0]!;
  }

  async findByTokenHash(tokenHash: string): Promise<InvitationRow | null> {
    const rows = await this.orm.select().from(invitations).where(eq(invitations.tokenHash, tokenHash));
    return rows[0] ?? null;
  }

  /** Marks the invitation used, once: answers null if it was used (or expired) in the meantime. */
  async consume(id: string, userId: string, now: Date): Promise<InvitationRow | null> {
    const rows = await this.orm
      .update(invitations)
      .set({ acceptedAt: now, acceptedBy: userId })
      .where(and(eq(invitations.id, id), isNull(invitations.acceptedAt), gt(invitations.expiresAt, now)))
      .returning();
    return rows[0] ?? null;
  }

  /** Invitations of the device nobody accepted yet and that have not expired. */
  async listOpen(deviceId: string, now: Date): Promise<InvitationRow[]> {
    return this.orm
      .select()
      .from(invitations)
      .where(and(eq(invitations.deviceId, deviceId), isNull(invitations.acceptedAt), gt(invitations.expiresAt, now)))
      .orderBy(asc(invitations.createdAt), asc(invitations.id));
  }

  /** Deletes an open invitation; answers whom it invited as what, or null when there was none. */
  async deleteOpen(deviceId: string, id: string): Promise<{ email: string; role: string } | null> {
    const rows = await this.orm
      .delete(invitations)
      .where(and(eq(invitations.deviceId, deviceId), eq(invitations.id, id), isNull(invitations.acceptedAt)))
      .returning({ email: invitations.email, role: invitations.role });
    return rows[0] ?? null;
  }
}
