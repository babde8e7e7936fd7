import { createHash, randomUUID } from 'node:crypto';
import type { ResultSnapshot } from '@insilico/contracts';
import { canonicalJson } from '../events/chain';
import type { NewResultSnapshot, ResultSnapshotRepository } from '../repositories/result-snapshot.repository';

/**
 * Results that stay (issue 20 item 7), for every kind of evidence: when an analysis is saved, a simulation or a trial
 * finishes, a measurement order is ready or corrected, or a shape model is built, its results are kept append-only
 * (`result_snapshots`) with the SHA-256 of their canonical JSON and the code version, in the transaction of the event
 * that names them (`after.results`): a signature of the event binds the results, and a later change of code or data
 * cannot change what was signed.
 */

/** The objects whose results are kept, as their events name them (`objectType`). */
export type ResultSnapshotObject = ResultSnapshot['objectType'];

/** What a snapshot is of: the object, where it belongs, and which revision of it. */
export interface ResultSnapshotSubject {
  objectType: ResultSnapshotObject;
  objectId: string;
  deviceId: string;
  /** Null for a workspace's evidence outside any project (a measurement order). */
  projectId: string | null;
}

/** Typed arrays as arrays, non-finite numbers as null, `undefined` members dropped: JSON that `jsonb` keeps as is. */
export function plainJson(value: unknown): unknown {
  if (ArrayBuffer.isView(value) && !(value instanceof DataView))
    return Array.from(value as unknown as ArrayLike<number>, (x) => (Number.isFinite(x) ? x : null));
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(plainJson);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, item]) => item !== undefined)
        .map(([key, item]) => [key, plainJson(item)]),
    );
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  return value;
}

/** SHA-256 (hex) of a snapshot's content as its canonical JSON (the audit trail's rule, `events/chain.ts`). */
export function snapshotHashOf(content: unknown): string {
  return createHash('sha256').update(canonicalJson(content)).digest('hex');
}

/** A snapshot's content as kept (plain JSON) and its hash. */
export function hashedContent(content: unknown): { content: Record<string, unknown>; contentHash: string } {
  const plain = plainJson(content) as Record<string, unknown>;
  return { content: plain, contentHash: snapshotHashOf(plain) };
}

/**
 * What an event says of the results snapshot kept with it (`after.results`): its id, the SHA-256 of its content and
 * the code version; nothing when none was kept.
 */
export function resultsOf(snapshot: Pick<NewResultSnapshot, 'id' | 'contentHash' | 'codeVersion'> | null) {
  return snapshot
    ? { results: { snapshotId: snapshot.id, sha256: snapshot.contentHash, codeVersion: snapshot.codeVersion } }
    : {};
}

/** The id of the results snapshot an event names (`after.results.snapshotId`), if any. */
export function resultsSnapshotIdOf(after: unknown): string | null {
  const results = (after as { results?: { snapshotId?: unknown } } | null)?.results;
  return typeof results?.snapshotId === 'string' ? results.snapshotId : null;
}

/** The row of a snapshot about to be kept: a new id, the subject, the hashed content. */
export function newResultSnapshot(
  subject: ResultSnapshotSubject,
  revision: number,
  codeVersion: string,
  content: unknown,
): NewResultSnapshot {
  return { id: randomUUID(), ...subject, revision, codeVersion, ...hashedContent(content) };
}

/**
 * Keeps results in a unit of work (`tx`), the event that names them being recorded in the same transaction: the
 * object's next revision, the code version of this server. Answers the snapshot for `resultsOf`, or null when there
 * are no results to keep (`content` null) or no workspace to keep them in.
 */
export class ResultKeeper {
  constructor(private readonly codeVersion: string) {}

  async keep(
    tx: { resultSnapshots: Pick<ResultSnapshotRepository, 'insert' | 'nextRevision'> },
    subject: Omit<ResultSnapshotSubject, 'deviceId'> & { deviceId: string | null },
    content: unknown,
  ): Promise<NewResultSnapshot | null> {
    const { deviceId } = subject;
    if (content === null || content === undefined || deviceId === null) return null;
    const revision = await tx.resultSnapshots.nextRevision(subject.objectType, subject.objectId);
    const snapshot = newResultSnapshot({ ...subject, deviceId }, revision, this.codeVersion, content);
    await tx.resultSnapshots.insert(snapshot);
    return snapshot;
  }
}
