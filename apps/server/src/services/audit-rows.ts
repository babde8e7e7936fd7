import { csvRow, type CsvCell } from '@insilico/contracts/csv';
import type { AuditVerdict } from '@insilico/contracts';
import { canonicalJson, type StoredRow } from '../events/chain';

/**
 * The audit trail's rows as inspectors read them (issue 20, Part 11 §11.10(e)): CSV (the one CSV writer) and JSON,
 * each row with its place in the chain and its hash, and the rule by which anyone can recompute the hash.
 */

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

export const auditCsv = (rows: readonly StoredRow[]) =>
  [csvHeader, ...rows.map(csvCells)].map((cells) => csvRow(cells) + '\r\n').join('');

export const auditHashingRule =
  'hash = SHA-256 (hex, UTF-8) of the canonical JSON (object keys sorted, no spaces) of the array [seq, id, occurredAt, actorId, actorName, action, objectType, objectId, deviceId, projectId, before, after, reason, requestId, prevHash]; the first row links to 64 zeros.';

export const auditJson = (
  exportedAt: Date,
  deviceId: string | null,
  verdict: AuditVerdict,
  rows: readonly StoredRow[],
) =>
  JSON.stringify({ exportedAt: exportedAt.toISOString(), deviceId, hashing: auditHashingRule, verdict, rows }, null, 2);
