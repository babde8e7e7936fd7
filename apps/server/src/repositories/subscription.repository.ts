import { and, asc, count, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { devices, invitations, memberships, users } from '../db/schema';

export interface SubscriptionRow {
  deviceId: string;
  deviceName: string;
  plan: string;
  seats: number;
}

export interface SeatUsageRow {
  members: number;
  pendingApproval: number;
  openInvitations: number;
}

export interface WorkspaceOverviewRow extends SubscriptionRow {
  companyName: string;
  createdAt: Date;
  adminEmails: string[];
}

const subscriptionColumns = {
  deviceId: devices.id,
  deviceName: devices.name,
  plan: devices.plan,
  seats: devices.seats,
};

/** A workspace's plan and seats (columns of `devices`) and what occupies the seats. */
export class SubscriptionRepository {
  constructor(private readonly orm: Orm) {}

  async find(deviceId: string): Promise<SubscriptionRow | null> {
    const rows = await this.orm.select(subscriptionColumns).from(devices).where(eq(devices.id, deviceId));
    return rows[0] ?? null;
  }

  /**
   * The same, with the workspace row locked until the transaction ends: two invitations sent at
   * the same moment then count each other's seat. Use inside `transaction`.
   */
  async findForUpdate(deviceId: string): Promise<SubscriptionRow | null> {
    const rows = await this.orm.select(subscriptionColumns).from(devices).where(eq(devices.id, deviceId)).for('update');
    return rows[0] ?? null;
  }

  async usage(deviceId: string, now: Date): Promise<SeatUsageRow> {
    const byStatus = await this.orm
      .select({ status: memberships.status, n: count() })
      .from(memberships)
      .where(and(eq(memberships.deviceId, deviceId), inArray(memberships.status, ['ok', 'pending_approval'])))
      .groupBy(memberships.status);
    const open = await this.orm
      .select({ n: count() })
      .from(invitations)
      .where(and(eq(invitations.deviceId, deviceId), isNull(invitations.acceptedAt), gt(invitations.expiresAt, now)));
    return {
      members: byStatus.find((row) => row.status === 'ok')?.n ?? 0,
      pendingApproval: byStatus.find((row) => row.status === 'pending_approval')?.n ?? 0,
      openInvitations: open[0]?.n ?? 0,
    };
  }

  async update(deviceId: string, change: { plan: string; seats: number }): Promise<SubscriptionRow | null> {
    const rows = await this.orm
      .update(devices)
      .set(change)
      .where(eq(devices.id, deviceId))
      .returning(subscriptionColumns);
    return rows[0] ?? null;
  }

  /** Every workspace with its admins, oldest first (operators look a workspace up here). */
  async listAll(): Promise<WorkspaceOverviewRow[]> {
    const rows = await this.orm
      .select({ ...subscriptionColumns, companyName: devices.companyName, createdAt: devices.createdAt })
      .from(devices)
      .orderBy(asc(devices.createdAt), asc(devices.id));
    const admins = await this.orm
      .select({ deviceId: memberships.deviceId, email: users.email })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.role, 'admin'), eq(memberships.status, 'ok')));
    return rows.map((row) => ({
      ...row,
      adminEmails: admins.filter((admin) => admin.deviceId === row.deviceId).map((admin) => admin.email),
    }));
  }
}
