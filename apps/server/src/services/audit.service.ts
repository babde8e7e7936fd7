import type { AuditVerdict } from '@insilico/contracts';
import { ChainVerifier, type StoredRow } from '../events/chain';
import type { AuditChainer } from '../events/audit-chainer';
import type { DomainEventRepository } from '../events/domain-event.repository';
import { auditBundle } from './audit-bundle';
import { auditCsv, auditJson } from './audit-rows';
import { authorize } from './authorize';

/** Rows read per query by the verifier and the export. */
const pageSize = 5000;

/** Where the audit service asks whether the caller administers the workspace. */
export type GrantOf = (userId: string, deviceId: string) => Promise<Parameters<typeof authorize>[1]>;

/** Gives the event loop a turn between pages (a long verification must not hold requests up). */
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The audit trail for inspectors (issue 20, Part 11 §11.10(e)): the verifier of the whole hash chain and the export
 * of a workspace's rows with their hashes, for the workspace's admins (`audit.read`) and the operator's CLI.
 */
export class AuditService {
  constructor(
    private readonly events: DomainEventRepository,
    private readonly grantOf: GrantOf,
    /** Links committed rows first, so the verdict covers every event written so far. */
    private readonly chainer: Pick<AuditChainer, 'chainAll'>,
  ) {}

  /** Recomputes every row's hash and link; names each edited, deleted or inserted row. */
  async verify(): Promise<AuditVerdict> {
    await this.chainer.chainAll();
    const verifier = new ChainVerifier();
    let after = 0;
    for (;;) {
      const rows = await this.events.page(after, pageSize);
      for (const row of rows) verifier.add(row);
      if (rows.length < pageSize) break;
      after = rows[rows.length - 1]!.seq;
      await yieldTurn();
    }
    return { ...verifier.verdict(), pending: await this.events.pendingCount(), checkedAt: new Date().toISOString() };
  }

  /**
   * The rows of these events of a workspace (an excerpt for a report: the caller has checked who may read them), each
   * with its place in the chain and its hash; the events written so far are linked first.
   */
  async excerpt(deviceId: string, ids: readonly number[]): Promise<StoredRow[]> {
    await this.chainer.chainAll();
    const rows: StoredRow[] = [];
    for (let i = 0; i < ids.length; i += pageSize)
      rows.push(...(await this.events.chained(deviceId, ids.slice(i, i + pageSize))));
    return rows.sort((a, b) => a.seq - b.seq);
  }

  async verifyFor(userId: string, deviceId: string): Promise<AuditVerdict> {
    authorize('audit.read', await this.grantOf(userId, deviceId));
    return this.verify();
  }

  /** A workspace's rows (or all rows, `deviceId` null: the CLI) in chain order, page by page. */
  async *rows(deviceId: string | null): AsyncGenerator<StoredRow> {
    let after = 0;
    for (;;) {
      const rows = await this.events.page(after, pageSize, deviceId);
      yield* rows;
      if (rows.length < pageSize) return;
      after = rows[rows.length - 1]!.seq;
    }
  }

  /** The export for inspectors: CSV (the one CSV writer) or JSON with the chain's fields and the verdict. */
  async export(deviceId: string | null, format: 'csv' | 'json'): Promise<string> {
    const rows: StoredRow[] = [];
    for await (const row of this.rows(deviceId)) rows.push(row);
    if (format === 'csv') return auditCsv(rows);
    return auditJson(new Date(), deviceId, await this.verify(), rows);
  }

  async exportFor(userId: string, deviceId: string, format: 'csv' | 'json'): Promise<string> {
    authorize('audit.read', await this.grantOf(userId, deviceId));
    return this.export(deviceId, format);
  }

  /** The inspector's bundle (services/audit-bundle.ts): both exports of the same rows with their hashes, one ZIP. */
  async bundle(deviceId: string | null): Promise<Uint8Array> {
    const exportedAt = new Date();
    const rows: StoredRow[] = [];
    for await (const row of this.rows(deviceId)) rows.push(row);
    const verdict = await this.verify();
    const json = auditJson(exportedAt, deviceId, verdict, rows);
    return (await auditBundle({ exportedAt, deviceId, rows: rows.length, verdict, csv: auditCsv(rows), json })).zip;
  }

  async bundleFor(userId: string, deviceId: string): Promise<Uint8Array> {
    authorize('audit.read', await this.grantOf(userId, deviceId));
    return this.bundle(deviceId);
  }
}
