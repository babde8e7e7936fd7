import { eq, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { appSettings } from '../db/schema';

/** Operator-level key/value state (maintenance mode, persisted keys). */
export class SettingsRepository {
  constructor(private readonly orm: Orm) {}

  async get<T>(key: string): Promise<T | null> {
    const rows = await this.orm.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, key));
    return rows[0] ? (rows[0].value as T) : null;
  }

  async set(key: string, value: unknown): Promise<void> {
    await this.orm
      .insert(appSettings)
      .values({ key, value })
      .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: sql`now()` } });
  }

  /**
   * Returns the stored value, creating it first if absent. Concurrent callers (several servers
   * starting together) all get the one value that won the insert.
   */
  async getOrCreate<T>(key: string, create: () => T): Promise<T> {
    await this.orm.insert(appSettings).values({ key, value: create() }).onConflictDoNothing();
    const value = await this.get<T>(key);
    if (value === null) throw new Error(`setting ${key} vanished while being created`);
    return value;
  }
}
