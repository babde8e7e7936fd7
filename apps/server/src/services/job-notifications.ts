import { designHistoryExportRetentionDays, deviceVersionFailedMessage } from '@insilico/contracts';
import type { CommittedEvent } from '../events/domain-event';
import type { EventSubscriber } from '../events/event-relay';
import { cohortPagePath } from '../jobs/cohort-order.job';
import { designHistoryExportPagePath } from '../jobs/design-history-export.job';
import { deviceVersionPagePath } from '../jobs/device-version.job';
import { imagingPagePath } from '../jobs/imaging-check.job';
import { measurementOrderPagePath } from '../jobs/measurement-order.job';
import { ssmPagePath } from '../jobs/ssm-build.job';
import type { NotificationService, PostNotification } from './notification.service';
import { simulationResultsPath } from './simulation.service';
import { trialPagePath } from './trial.service';

/** What a system event's `after` may hold (events/kinds.ts `systemEvent`; each service writes its own). */
interface Outcome {
  startedBy?: string | null;
  name?: string;
  size?: number;
  status?: string;
  error?: string | null;
  shapeCount?: number;
  cohortName?: string;
  measurements?: number;
  patients?: number;
  done?: number;
  failed?: number;
  read?: number;
  roomId?: string;
  trialRun?: boolean;
  targetProjectId?: string | null;
  accepted?: boolean;
  /** who to tell, when not whoever started the work (a dataset's uploader hears of the models delivered) */
  tell?: string | null;
  exportId?: string;
}

type Message = Omit<PostNotification, 'userId'>;

/** The notification each kind of outcome gives the person who started the work (null: none). */
function messageOf(event: CommittedEvent, after: Outcome): Message | null {
  const deviceId = event.deviceId!;
  const id = event.objectId;
  const name = after.name ?? '';
  switch (event.action) {
    case 'cohort.prepared':
      return {
        kind: 'cohort.ready',
        title: `Cohort ${name} is ready`,
        body: `Its ${after.size ?? 0} synthetic patients and their anatomy can be viewed now.`,
        link: cohortPagePath(deviceId, id),
        dedupeKey: `cohort-ready:${id}`,
      };
    case 'cohort.failed':
      return {
        kind: 'cohort.failed',
        title: `Cohort ${name} could not be prepared`,
        body: 'Please order it again, or contact support if this happens again.',
        link: cohortPagePath(deviceId, id),
        dedupeKey: `cohort-failed:${id}`,
      };
    case 'ssm.built':
      return {
        kind: 'ssm.ready',
        title: `SSM ${name} is ready`,
        body: `Its modes and quality measures from ${after.shapeCount ?? 0} patients can be viewed now.`,
        link: ssmPagePath(deviceId, event.projectId!, id),
        dedupeKey: `ssm-ready:${id}`,
      };
    case 'ssm.failed':
      return {
        kind: 'ssm.failed',
        title: `SSM ${name} could not be built`,
        // The reason when it is the user's to act on (a chained cohort that failed, a configuration that no longer holds).
        body: after.error ?? 'Please create it again, or contact support if this happens again.',
        link: ssmPagePath(deviceId, event.projectId!, id),
        dedupeKey: `ssm-failed:${id}`,
      };
    case 'measurement.measured':
      return {
        kind: 'measurement.ready',
        title: `Measurements of cohort ${after.cohortName ?? ''} are ready`,
        body: `${after.measurements ?? 0} measurements on ${after.patients ?? 0} patients can be viewed now.`,
        link: measurementOrderPagePath(deviceId, id),
        dedupeKey: `measurement-ready:${id}`,
      };
    case 'measurement.failed':
      return {
        kind: 'measurement.failed',
        title: `Measurements of cohort ${after.cohortName ?? ''} could not be taken`,
        body: 'Please order them again, or contact support if this happens again.',
        link: measurementOrderPagePath(deviceId, id),
        dedupeKey: `measurement-failed:${id}`,
      };
    case 'imaging.dataset_checked': {
      const accepted = after.accepted === true;
      return {
        kind: accepted ? 'imaging.accepted' : 'imaging.refused',
        title: accepted ? `Imaging dataset ${name} arrived` : `Imaging dataset ${name} was refused`,
        body: accepted
          ? 'Every file is de-identified. The patient models are being made; the cohort is ready when they are.'
          : 'Some files still identify someone or are not DICOM. The dataset page names each file and tag.',
        link: imagingPagePath(deviceId, id),
        dedupeKey: `imaging-checked:${id}`,
      };
    }
    case 'imaging.models_delivered':
      return {
        kind: 'imaging.ready',
        title: `The imaging cohort ${name} is ready`,
        body: `Patient models of ${after.patients ?? 0} patients were delivered.`,
        link: imagingPagePath(deviceId, id),
        dedupeKey: `imaging-ready:${id}`,
      };
    case 'simulation.completed':
    case 'simulation.failed': {
      // A trial's runs are told of once, when the trial finishes.
      if (after.trialRun || !after.roomId) return null;
      const completed = event.action === 'simulation.completed';
      return {
        kind: event.action,
        title: completed ? `Simulation ${name} has finished` : `Simulation ${name} failed`,
        body: completed ? 'Its results are ready to analyse.' : (after.error ?? ''),
        link: simulationResultsPath(deviceId, event.projectId!, after.roomId, id),
        dedupeKey: `simulation:${id}:${completed ? 'completed' : 'failed'}:${event.id}`,
      };
    }
    case 'trial.finished': {
      const done = after.done ?? 0;
      const failed = after.failed ?? 0;
      return {
        kind: 'trial.completed',
        title: `Trial ${name} has finished`,
        body: `${done} of ${after.patients ?? 0} patients done${failed ? `, ${failed} failed` : ''}.`,
        link: trialPagePath(event.projectId!, id, deviceId),
        dedupeKey: `trial:${id}:finished:${done}:${failed}`,
      };
    }
    case 'trial.outcomes_read': {
      const failed = after.failed ?? 0;
      return {
        kind: 'trial.outcomes_read',
        title: `The outcomes of trial ${name} were read again`,
        body: `${after.read ?? 0} of ${after.patients ?? 0} patients read from their saved outputs${failed ? `, ${failed} could not be read` : ''}.`,
        link: trialPagePath(event.projectId!, id, deviceId),
        dedupeKey: `trial:${id}:outcomes-read:${event.id}`,
      };
    }
    case 'device_version.processed':
    case 'device_version.failed': {
      const ready = event.action === 'device_version.processed';
      return {
        kind: ready ? 'device-version.ready' : 'device-version.failed',
        title: ready ? `Device version ${name} is ready` : `Device version ${name} could not be processed`,
        body: ready
          ? after.targetProjectId
            ? 'Its files were checked and measured, and it was added to the project.'
            : 'Its files were checked and measured.'
          : deviceVersionFailedMessage,
        link: deviceVersionPagePath(deviceId, id),
        dedupeKey: `device-version-${ready ? 'ready' : 'failed'}:${id}`,
      };
    }
    case 'design_history.exported':
    case 'design_history.export_failed': {
      // Only a job's export (a system event) is told of: a file answered in the request was downloaded at once.
      const ready = event.action === 'design_history.exported';
      const exportId = after.exportId ?? id;
      return {
        kind: ready ? 'design-history.export_ready' : 'design-history.export_failed',
        title: ready ? 'Your design history file is ready' : 'Your design history file could not be made',
        body: ready
          ? `Download ${name} from the design history page within ${designHistoryExportRetentionDays} days; it is removed after that.`
          : 'Please export it again, or contact support if this happens again.',
        link: designHistoryExportPagePath(exportId),
        dedupeKey: `design-history-export-${ready ? 'ready' : 'failed'}:${exportId}`,
      };
    }
    default:
      return null;
  }
}

/**
 * Notifications as a subscriber of the domain events (issue 20) for work that ends in the background: a cohort
 * prepared, an SSM built, measurements taken, an imaging dataset checked, a simulation or a trial finished, a device
 * version processed — each a system event on behalf of whoever started it (`after.startedBy`), who is told; a device
 * version's target project team is told too. No job or service posts these itself.
 */
export class JobNotifications implements EventSubscriber {
  constructor(
    private readonly notifications: Pick<NotificationService, 'post'>,
    /** The team of a project (a device version's target project hears of it too). */
    private readonly teamOf: (projectId: string) => Promise<string[]>,
  ) {}

  readonly name = 'job-notifications';

  /** One committed event, from the event relay (events/event-relay.ts): throws to have it delivered again. */
  async handle(event: CommittedEvent): Promise<void> {
    if (event.actorId !== null || !event.deviceId) return;
    const after = (event.after ?? {}) as Outcome;
    const message = messageOf(event, after);
    if (!message) return;
    const told = after.tell !== undefined ? after.tell : after.startedBy;
    const people = new Set(told ? [told] : []);
    if (event.objectType === 'device_version' && after.targetProjectId)
      for (const userId of await this.teamOf(after.targetProjectId)) people.add(userId);
    // Keyed per person (the key is unique per user): a retried job that records nothing new posts nothing new.
    for (const userId of people) await this.notifications.post({ ...message, userId });
  }
}
