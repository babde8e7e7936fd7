import { createHash } from 'node:crypto';

/** The hash before the first row of the chain. */
export const genesisHash = '0'.repeat(64);

/** What a row of the trail holds, as the chain hashes it. */
export interface ChainedContent {
  /** The place in the chain. */
  seq: number;
  /** The event's number (in the order of writing). */
  id: number;
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ` (UTC, microseconds) as the database formats it. */
  occurredAt: string;
  actorId: string | null;
  actorName: string | null;
  action: string;
  objectType: string;
  objectId: string;
  deviceId: string | null;
  projectId: string | null;
  before: unknown;
  after: unknown;
  reason: string | null;
  requestId: string | null;
  prevHash: string;
}

/**
 * JSON with object keys in code-unit order and no `undefined` members: the same value always gives the same text,
 * whatever order its keys were built in or come back from `jsonb` (which reorders them).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  if (typeof value === 'object') {
    if (value instanceof Date) return JSON.stringify(value.toISOString());
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return 'null';
  return JSON.stringify(value);
}

/** A before/after value as `jsonb` gives it back: plain JSON (dates as ISO text, no `undefined`). */
export function asStoredJson(value: unknown): unknown {
  return value === undefined || value === null ? null : (JSON.parse(canonicalJson(value)) as unknown);
}

/** SHA-256 (hex) of a row's canonical content, its predecessor's hash included. */
export function hashOf(content: ChainedContent): string {
  const fields = [
    content.seq,
    content.id,
    content.occurredAt,
    content.actorId,
    content.actorName,
    content.action,
    content.objectType,
    content.objectId,
    content.deviceId,
    content.projectId,
    // Plain JSON already (the writer stores `asStoredJson` of what it was given; the verifier reads jsonb).
    content.before ?? null,
    content.after ?? null,
    content.reason,
    content.requestId,
    content.prevHash,
  ];
  return createHash('sha256').update(canonicalJson(fields), 'utf8').digest('hex');
}

/** A committed row waiting for its place in the chain: its content without `seq` and `prevHash`. */
export type UnchainedContent = Omit<ChainedContent, 'seq' | 'prevHash'>;

/** A row's place in the chain and its hashes, as the chainer writes them. */
export interface ChainLink {
  id: number;
  seq: number;
  prevHash: string;
  hash: string;
}

/** The chain's last row (none yet: place 0 and the genesis hash). */
export interface ChainHead {
  seq: number;
  hash: string;
}

/**
 * Gives rows, in the order given, the places after `head` and their hashes, each linked to the one before: the
 * chainer's CPU work.
 */
export function linkRows(head: ChainHead, rows: readonly UnchainedContent[]): ChainLink[] {
  let seq = head.seq;
  let prevHash = head.hash;
  return rows.map((row) => {
    seq += 1;
    const hash = hashOf({ ...row, seq, prevHash });
    const link = { id: row.id, seq, prevHash, hash };
    prevHash = hash;
    return link;
  });
}

/** One finding of the verifier, naming the row. */
export interface ChainBreak {
  seq: number;
  problem: 'edited' | 'inserted' | 'deleted_before' | 'relinked';
  message: string;
}

/** The verifier's answer. */
export interface ChainVerdict {
  ok: boolean;
  rows: number;
  /** The hash of the last row (what an inspector keeps to detect a later cut of the tail). */
  headHash: string;
  headSeq: number;
  breaks: ChainBreak[];
}

/** Rows as read from the table in `seq` order, with the hashes they hold. */
export interface StoredRow extends ChainedContent {
  hash: string;
}

/**
 * Walks rows in order and names each one that was edited (its content no longer gives its hash), inserted (a row
 * whose content and hash agree but whose place breaks the chain: its number is out of sequence or its link points
 * elsewhere) or that follows a deleted one (a gap in the numbers). Feed rows one page at a time: `state` carries on.
 */
export class ChainVerifier {
  private expectedSeq = 1;
  private previousHash = genesisHash;
  private count = 0;
  private readonly breaks: ChainBreak[] = [];

  constructor(private readonly maxBreaks = 1000) {}

  add(row: StoredRow): void {
    this.count += 1;
    const recomputed = hashOf(row);
    if (recomputed !== row.hash) {
      this.report({
        seq: row.seq,
        problem: 'edited',
        message: `Row ${row.seq} was edited: its content no longer gives its hash.`,
      });
    } else if (row.seq < this.expectedSeq) {
      this.report({
        seq: row.seq,
        problem: 'inserted',
        message: `Row ${row.seq} was inserted: its number repeats or goes back.`,
      });
    } else if (row.seq > this.expectedSeq) {
      this.report({
        seq: row.seq,
        problem: 'deleted_before',
        message:
          row.seq === this.expectedSeq + 1
            ? `Row ${this.expectedSeq} was deleted (row ${row.seq} follows row ${this.expectedSeq - 1}).`
            : `Rows ${this.expectedSeq} to ${row.seq - 1} were deleted (row ${row.seq} follows row ${this.expectedSeq - 1}).`,
      });
    } else if (row.prevHash !== this.previousHash) {
      this.report({
        seq: row.seq,
        problem: 'relinked',
        message: `Row ${row.seq} does not link to row ${row.seq - 1}: row ${row.seq - 1} was edited and re-hashed, or row ${row.seq} was put in its place.`,
      });
    }
    this.expectedSeq = Math.max(this.expectedSeq, row.seq + 1);
    this.previousHash = row.hash;
  }

  verdict(): ChainVerdict {
    return {
      ok: this.breaks.length === 0,
      rows: this.count,
      headHash: this.previousHash,
      headSeq: this.expectedSeq - 1,
      breaks: [...this.breaks],
    };
  }

  private report(found: ChainBreak): void {
    if (this.breaks.length < this.maxBreaks) this.breaks.push(found);
  }
}
