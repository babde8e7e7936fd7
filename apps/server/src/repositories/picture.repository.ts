import { aliasedTable, and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { devices, memberships, selectedDevices, storedFiles, users } from '../db/schema';
import type { DataRegion } from './blob.repository';

export type StoredFileRow = typeof storedFiles.$inferSelect;
export type NewStoredFile = Omit<typeof storedFiles.$inferInsert, 'id' | 'createdAt'>;

/** Who holds a picture: a person's profile, a workspace's device, or a workspace still being created. */
export type PictureOwner =
  | { kind: 'user'; userId: string }
  | { kind: 'device'; deviceId: string }
  /** A device picture uploaded while creating a workspace (onboarding): its file has no device yet. */
  | { kind: 'new-device'; userId: string };

/**
 * Pictures in the database: their `stored_files` rows and the pointers to them (`users.picture_file_id`,
 * `devices.picture_file_id`). Swapping a picture changes row and pointer in one transaction; the bytes
 * are the storage driver's business (the service writes them before and deletes them after).
 */
export class PictureRepository {
  constructor(private readonly orm: Orm) {}

  /** The current picture of an owner, or null. */
  async current(owner: PictureOwner): Promise<StoredFileRow | null> {
    return currentOn(this.orm, owner);
  }

  /**
   * Makes `file` the owner's picture (null: none) and removes the previous one's row, all or nothing;
   * answers the previous row so the caller can delete its bytes.
   */
  async replace(
    owner: PictureOwner,
    file: NewStoredFile | null,
  ): Promise<{ stored: StoredFileRow | null; previous: StoredFileRow | null }> {
    return this.orm.transaction(async (tx) => {
      // Lock the pointer's row first: two uploads at once end with one picture and no stray row.
      const previous = await currentOn(tx, owner, { lock: true });
      const stored = file ? (await tx.insert(storedFiles).values(file).returning())[0]! : null;
      await pointTo(tx, owner, stored?.id ?? null);
      if (previous) await tx.delete(storedFiles).where(eq(storedFiles.id, previous.id));
      return { stored, previous };
    });
  }

  /**
   * Hands the user's new-device picture to a workspace just created (its device picture), optionally
   * recording that its bytes moved to another region. Answers the row, or null when there was none.
   */
  async adopt(userId: string, deviceId: string, region: DataRegion): Promise<StoredFileRow | null> {
    return this.orm.transaction(async (tx) => {
      const draft = await currentOn(tx, { kind: 'new-device', userId }, { lock: true });
      if (!draft) return null;
      const [adopted] = await tx
        .update(storedFiles)
        .set({ deviceId, region })
        .where(eq(storedFiles.id, draft.id))
        .returning();
      await pointTo(tx, { kind: 'device', deviceId }, draft.id);
      return adopted ?? null;
    });
  }

  /** Records that a file's bytes now live in another region; false when the row changed meanwhile. */
  async moveRegion(fileId: string, from: DataRegion, to: DataRegion): Promise<boolean> {
    const rows = await this.orm
      .update(storedFiles)
      .set({ region: to })
      .where(and(eq(storedFiles.id, fileId), eq(storedFiles.region, from)))
      .returning({ id: storedFiles.id });
    return rows.length > 0;
  }

  /**
   * The viewer's and the owner's memberships in every workspace they share (both have a membership
   * row there), for the policy to judge.
   */
  async sharedMemberships(
    viewerId: string,
    ownerId: string,
  ): Promise<{ viewer: { role: string; status: string }; owner: { role: string; status: string } }[]> {
    const owner = aliasedTable(memberships, 'owner_membership');
    return this.orm
      .select({
        viewer: { role: memberships.role, status: memberships.status },
        owner: { role: owner.role, status: owner.status },
      })
      .from(memberships)
      .innerJoin(owner, and(eq(owner.deviceId, memberships.deviceId), eq(owner.userId, ownerId)))
      .where(eq(memberships.userId, viewerId));
  }

  /** The data region of the workspace the user has selected, or null when they have none. */
  async selectedRegion(userId: string): Promise<DataRegion | null> {
    const rows = await this.orm
      .select({ region: devices.dataRegion })
      .from(selectedDevices)
      .innerJoin(devices, eq(devices.id, selectedDevices.deviceId))
      .where(eq(selectedDevices.userId, userId));
    const region = rows[0]?.region;
    return region === 'eu' || region === 'us' ? region : null;
  }

  /** A device's data region, or null when there is no such device. */
  async deviceRegion(deviceId: string): Promise<DataRegion | null> {
    const rows = await this.orm.select({ region: devices.dataRegion }).from(devices).where(eq(devices.id, deviceId));
    const region = rows[0]?.region;
    return region === 'eu' || region === 'us' ? region : null;
  }
}

async function currentOn(
  orm: Orm,
  owner: PictureOwner,
  options: { lock?: boolean } = {},
): Promise<StoredFileRow | null> {
  if (owner.kind === 'new-device') {
    const query = orm
      .select()
      .from(storedFiles)
      .where(
        and(
          eq(storedFiles.purpose, 'device_picture'),
          isNull(storedFiles.deviceId),
          eq(storedFiles.uploadedBy, owner.userId),
        ),
      )
      .orderBy(desc(storedFiles.createdAt))
      .limit(1);
    // The user's row serialises their uploads (there is no pointer row to lock for a draft).
    if (options.lock) await orm.select({ id: users.id }).from(users).where(eq(users.id, owner.userId)).for('update');
    return (await query)[0] ?? null;
  }
  const pointer =
    owner.kind === 'user'
      ? orm.select({ fileId: users.pictureFileId }).from(users).where(eq(users.id, owner.userId))
      : orm.select({ fileId: devices.pictureFileId }).from(devices).where(eq(devices.id, owner.deviceId));
  const fileId = (await (options.lock ? pointer.for('update') : pointer))[0]?.fileId;
  if (!fileId) return null;
  return (await orm.select().from(storedFiles).where(eq(storedFiles.id, fileId)))[0] ?? null;
}

async function pointTo(orm: Orm, owner: PictureOwner, fileId: string | null): Promise<void> {
  if (owner.kind === 'user')
    await orm
      .update(users)
      .set({ pictureFileId: fileId, updatedAt: sql`now()` })
      .where(eq(users.id, owner.userId));
  else if (owner.kind === 'device')
    await orm
      .update(devices)
      .set({ pictureFileId: fileId, updatedAt: sql`now()` })
      .where(eq(devices.id, owner.deviceId));
  // A new-device picture has no pointer: it is the user's only device picture without a device.
}
