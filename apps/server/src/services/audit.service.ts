import { csvRow, type CsvCell } from '@insilico/contracts/csv';
import type { AuditVerdict } from '@insilico/contracts';
import { canonicalJson, ChainVerifier, type StoredRow } from '../events/chain';
import type { AuditChainer } from '../events/audit-chainer';
import type { DomainEventRepository } from '../events/domain-event.repository';
import { auditBundle } from './audit-bundle';
import { authorize } from './authorize';

/** Rows read per query by the verifier and the export. */
const pageSize = 5000;

/** Where the audit service asks whether the caller administers the workspace. */
export type GrantOf = (userId: string, deviceId: string) => Promise<Parameters<typeof authorize>[1]>;

const csvHeader = [
  'seq',
  'id',
  'occurred_at_utc',
  'actor_id',
  'actor_name',
  'action',
  'object_type',
  'object_id',
  'device_id',
  'project_id',
  'before',
  'after',
  'reason',
  'request_id',
  'prev_hash',
  'hash',
];

function csvCells(row: StoredRow): CsvCell[] {
  return [
    row.seq,
    row.id,
    row.occurredAt,
    row.actorId,
    row.actorName,
    row.action,
    row.objectType,
    row.objectId,
    row.deviceId,
    row.projectId,
    row.before === null ? null : canonicalJson(row.before),
    row.after === null ? null : canonicalJson(row.after),
    row.reason,
    row.requestId,
    row.prevHash,
    row.hash,
  ];
}

const csvOf = (rows: readonly StoredRow[]) =>
  [csvHeader, ...rows.map(csvCells)].map((cells) => csvRow(cells) + '\r\n').join('');

const hashing =
  'hash = SHA-256 (hex, UTF-8) of the canonical JSON (object keys sorted, no spaces) of the array [seq, id, occurredAt, actorId, actorName, action, objectType, objectId, deviceId, projectId, before, after, reason, requestId, prevHash]; the first row links to 64 zeros.';

const jsonOf = (exportedAt: Date, deviceId: string | null, verdict: AuditVerdict, rows: readonly StoredRow[]) =>
  JSON.stringify({ exportedAt: exportedAt.toISOString(), deviceId, hashing, verdict, rows }, null, 2);

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
    if (format === 'csv') return csvOf(rows);
    return jsonOf(new Date(), deviceId, await this.verify(), rows);
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
    const json = jsonOf(exportedAt, deviceId, verdict, rows);
    return (await auditBundle({ exportedAt, deviceId, rows: rows.length, verdict, csv: csvOf(rows), json })).zip;
  }

  async bundleFor(userId: string, deviceId: string): Promise<Uint8Array> {
    authorize('audit.read', await this.grantOf(userId, deviceId));
    return this.bundle(deviceId);
  }
}
