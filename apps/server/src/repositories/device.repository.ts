import type { MemberRole, MembershipStatus } from '@insilico/contracts';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { cohorts, deviceVersions, devices, memberships, projects, selectedDevices, uploads, users } from '../db/schema';

export type DeviceRow = typeof devices.$inferSelect;
export type NewDevice = typeof devices.$inferInsert;
export type DeviceChanges = Partial<Omit<NewDevice, 'id' | 'createdAt' | 'createdBy'>>;
export type MembershipRow = typeof memberships.$inferSelect;

export interface MemberRow {
  userId: string;
  email: string;
  fullName: string;
  role: string;
  status: string;
  createdAt: Date;
  /** For the member's avatar (see `userPictureUrl`). */
  pictureFileId: string | null;
  pictureUrl: string | null;
}

/** Devices (workspaces), memberships and each user's selected workspace. Every query names its device. */
/** The caller's membership of a workspace: read on every workspace request, so its SQL is built once. */
export function membershipQuery(orm: Orm) {
  return orm
    .select()
    .from(memberships)
    .where(
      and(eq(memberships.deviceId, sql.placeholder('deviceId')), eq(memberships.userId, sql.placeholder('userId'))),
    )
    .prepare('workspace_membership');
}

export class DeviceRepository {
  // Prepared on first use (repositories of a unit of work are made per transaction and may never need it).
  private membership?: ReturnType<typeof membershipQuery>;

  constructor(private readonly orm: Orm) {}

  async insert(device: NewDevice): Promise<DeviceRow> {
    const rows = await this.orm.insert(devices).values(device).returning();
    return rows[0]!;
  }

  async findById(deviceId: string): Promise<DeviceRow | null> {
    const rows = await this.orm.select().from(devices).where(eq(devices.id, deviceId));
    return rows[0] ?? null;
  }

  async update(deviceId: string, changes: DeviceChanges): Promise<DeviceRow | null> {
    const rows = await this.orm
      .update(devices)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(eq(devices.id, deviceId))
      .returning();
    return rows[0] ?? null;
  }

  /** The user's workspaces with their membership, oldest first. */
  async listForUser(userId: string): Promise<{ device: DeviceRow; membership: MembershipRow }[]> {
    return this.orm
      .select({ device: devices, membership: memberships })
      .from(memberships)
      .innerJoin(devices, eq(devices.id, memberships.deviceId))
      .where(eq(memberships.userId, userId))
      .orderBy(asc(devices.createdAt), asc(devices.id));
  }

  async insertMembership(membership: {
    deviceId: string;
    userId: string;
    role: MemberRole;
    status: MembershipStatus;
  }): Promise<MembershipRow | null> {
    const rows = await this.orm.insert(memberships).values(membership).onConflictDoNothing().returning();
    return rows[0] ?? null;
  }

  async findMembership(deviceId: string, userId: string): Promise<MembershipRow | null> {
    this.membership ??= membershipQuery(this.orm);
    const rows = await this.membership.execute({ deviceId, userId });
    return rows[0] ?? null;
  }

  /**
   * Whether the workspace holds data in its region: a cohort (meshes), a project, a device version or an upload.
   * The device picture does not count; it moves with the region.
   */
  async holdsData(deviceId: string): Promise<boolean> {
    const exists = (table: typeof cohorts | typeof projects | typeof deviceVersions | typeof uploads) =>
      sql`exists (select 1 from ${table} where ${table.deviceId} = ${deviceId})`;
    const rows = await this.orm
      .select({
        holds: sql<boolean>`(${exists(cohorts)} or ${exists(projects)} or ${exists(deviceVersions)} or ${exists(uploads)})`,
      })
      .from(devices)
      .where(eq(devices.id, deviceId));
    return rows[0]?.holds === true;
  }

  async countMembers(deviceId: string, status: MembershipStatus): Promise<number> {
    const rows = await this.orm
      .select({ n: count() })
      .from(memberships)
      .where(and(eq(memberships.deviceId, deviceId), eq(memberships.status, status)));
    return rows[0]?.n ?? 0;
  }

  async listMembers(deviceId: string): Promise<MemberRow[]> {
    return this.orm
      .select({
        userId: memberships.userId,
        email: users.email,
        fullName: users.fullName,
        role: memberships.role,
        status: memberships.status,
        createdAt: memberships.createdAt,
        pictureFileId: users.pictureFileId,
        pictureUrl: users.pictureUrl,
      })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(memberships.deviceId, deviceId))
      .orderBy(asc(memberships.createdAt), asc(memberships.userId));
  }

  /**
   * The ids of the device's admins with status ok, locked until the transaction ends, so that two
   * concurrent demotions cannot both see "another admin remains". Use inside `transaction`.
   */
  async lockActiveAdmins(deviceId: string): Promise<string[]> {
    const rows = await this.orm
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.deviceId, deviceId), eq(memberships.role, 'admin'), eq(memberships.status, 'ok')))
      .for('update');
    return rows.map((row) => row.userId);
  }

  async updateMembership(
    deviceId: string,
    userId: string,
    changes: { role?: MemberRole; status?: MembershipStatus },
    onlyIfStatus?: MembershipStatus,
  ): Promise<MembershipRow | null> {
    const rows = await this.orm
      .update(memberships)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(
        and(
          eq(memberships.deviceId, deviceId),
          eq(memberships.userId, userId),
          onlyIfStatus ? eq(memberships.status, onlyIfStatus) : undefined,
        ),
      )
      .returning();
    return rows[0] ?? null;
  }

  async deleteMembership(deviceId: string, userId: string): Promise<boolean> {
    const rows = await this.orm
      .delete(memberships)
      .where(and(eq(memberships.deviceId, deviceId), eq(memberships.userId, userId)))
      .returning({ userId: memberships.userId });
    return rows.length > 0;
  }

  async selectedDeviceId(userId: string): Promise<string | null> {
    const rows = await this.orm
      .select({ deviceId: selectedDevices.deviceId })
      .from(selectedDevices)
      .where(eq(selectedDevices.userId, userId));
    return rows[0]?.deviceId ?? null;
  }

  async setSelected(userId: string, deviceId: string): Promise<void> {
    await this.orm
      .insert(selectedDevices)
      .values({ userId, deviceId })
      .onConflictDoUpdate({ target: selectedDevices.userId, set: { deviceId, updatedAt: sql`now()` } });
  }
}
