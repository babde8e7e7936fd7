import { systemEvent } from '../events/kinds';
import type { UnitOfWork } from '../repositories/unit-of-work';
import type { ResultSnapshotRepository, UnsnapshottedObject } from '../repositories/result-snapshot.repository';
import { resultsOf, type ResultKeeper } from './result-snapshots';

/**
 * Results snapshots for work finished before migration 0027 (issue 20 item 7). Since 0027 every finish keeps its
 * results in the transaction of its event; work finished earlier had none until its next finish. The backfill keeps
 * one for each such piece of evidence, honestly: taken now by the system (for whoever started the work), with this
 * server's code version, the results as they stand at the backfill (not as they stood at the original finish: those
 * were never kept), and says so in the content (`backfilled`) and in its own event (`<type>.results_backfilled`),
 * which names the snapshot like a finish's event does. Idempotent: an object that has a snapshot is left alone, and
 * two backfills of two processes take turns on each object (`lockObject`).
 */

export type BackfilledType = UnsnapshottedObject['objectType'];

/** The action of the event that names a backfilled snapshot. */
export function backfilledAction(objectType: BackfilledType): `${BackfilledType}.results_backfilled` {
  return `${objectType}.results_backfilled`;
}

/** What the content of a backfilled snapshot says of itself. */
export const backfillNote =
  'Kept by the backfill for work finished before results snapshots existed (migration 0027): the results as they ' +
  'stood when the backfill ran, not a record made at the original finish.';

/** Answers an object's results as they stand now, or null when there are none to keep (gone, files missing). */
export type CurrentResults = (objectId: string) => Promise<Record<string, unknown> | null>;

export interface ResultBackfillReport {
  kept: number;
  /** Objects whose results could not be read (their files gone): left without a snapshot, named in the log. */
  skipped: UnsnapshottedObject[];
}

export class ResultBackfillService {
  constructor(
    private readonly deps: {
      repository: Pick<ResultSnapshotRepository, 'unsnapshotted'>;
      unitOfWork: UnitOfWork;
      keeper: ResultKeeper;
      current: Record<BackfilledType, CurrentResults>;
    },
  ) {}

  /** Keeps a snapshot for every finished object created before `before` that has none; answers what it did. */
  async run(before: Date): Promise<ResultBackfillReport> {
    const report: ResultBackfillReport = { kept: 0, skipped: [] };
    for (const object of await this.deps.repository.unsnapshotted(before)) {
      const results = await this.deps.current[object.objectType](object.objectId);
      if (!results) {
        report.skipped.push(object);
        continue;
      }
      if (await this.keep(object, results)) report.kept += 1;
    }
    return report;
  }

  private async keep(object: UnsnapshottedObject, results: Record<string, unknown>): Promise<boolean> {
    const { objectType, objectId, deviceId, projectId, createdBy } = object;
    return this.deps.unitOfWork.run(async (tx) => {
      await tx.resultSnapshots.lockObject(objectType, objectId);
      // Another process kept one meanwhile (or the object finished again since the listing): nothing to do.
      if ((await tx.resultSnapshots.nextRevision(objectType, objectId)) > 1) return false;
      const backfilledAt = new Date().toISOString();
      const content = { ...results, backfilled: { at: backfilledAt, note: backfillNote } };
      const snapshot = await this.deps.keeper.keep(tx, { objectType, objectId, deviceId, projectId }, content);
      if (!snapshot) return false;
      tx.events.record(
        systemEvent(
          createdBy,
          deviceId,
          projectId,
          backfilledAction(objectType),
          { type: objectType, id: objectId },
          { backfilled: true, ...resultsOf(snapshot) },
        ),
      );
      return true;
    });
  }
}
