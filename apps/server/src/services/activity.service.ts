import type { ActivityItem, ActivityList, ActivityQuery } from '@insilico/contracts';
import type { DomainEventRepository, FeedFilter, FeedRow } from '../events/domain-event.repository';
import { cohortPagePath } from '../jobs/cohort-order.job';
import { deviceVersionPagePath } from '../jobs/device-version.job';
import { imagingPagePath } from '../jobs/imaging-check.job';
import type { DeviceRepository } from '../repositories/device.repository';
import { authorize } from './authorize';
import { commentLink } from './comment.service';
import { designHistoryPath, exportedAction } from './design-history-sections';
import { projectStatsPath } from './project.service';
import { trialPagePath } from './trial.service';
import { roomPagePath } from './room.mapper';
import { simulationResultsPath } from './simulation.service';
import { manageTeamPath } from './team.service';
import { callerGrant } from './caller-grant';

/** What each action reads as, after the actor's name. */
const verbs: Record<string, string> = {
  'project.status_changed': 'changed the status of the project',
  'project.updated': 'edited the project',
  'project.cohort_added': 'added a cohort to the project',
  'project.cohort_removed': 'removed a cohort from the project',
  'project.member_added': 'added a team member to the project',
  'project.member_removed': 'removed a team member from the project',
  'comment.created': 'commented on the project',
  'comment.edited': 'edited a comment on the project',
  'comment.deleted': 'deleted a comment on the project',
  'analysis.created': 'created an analysis in the project',
  'analysis.updated': 'changed an analysis in the project',
  'measurement.corrected': 'corrected a measurement',
  'measurement.defined': 'defined a measurement',
  'measurement.revised': 'changed a measurement definition',
  'measurement.ordered': 'ordered measurements of a cohort',
  'question.created': 'added a question of interest',
  'ssm.build_started': 'started building a statistical shape model in the project',
  'ssm.build_retried': 'retried building a statistical shape model in the project',
  'project.created': 'created the project',
  'team.invited': 'invited someone to the workspace',
  'team.role_changed': 'changed the role of a team member',
  'team.member_removed': 'removed a member from the workspace',
  'team.invitation_revoked': 'revoked an invitation to the workspace',
  'team.invitation_accepted': 'accepted an invitation to the workspace',
  'team.member_approved': 'approved a member of the workspace',
  'cohort.ordered': 'ordered a cohort',
  'cohort.pathology_requested': 'asked for a pathology the cohort criteria do not offer yet',
  'device.created': 'created the workspace',
  'device.updated': 'edited the workspace details',
  'device.picture_changed': 'changed the workspace picture',
  'device.picture_removed': 'removed the workspace picture',
  'room.created': 'created a room in the project',
  'room.renamed': 'renamed a room of the project',
  'room.shared': 'shared a room of the project',
  'room.screenshot_added': 'took a screenshot of a room of the project',
  'room.deleted': 'deleted a room of the project',
  'simulation.started': 'started a simulation in the project',
  'simulation.renamed': 'renamed a simulation of the project',
  'simulation.cancelled': 'cancelled a simulation in the project',
  'simulation.retried': 'ran a simulation again in the project',
  'simulation.deleted': 'deleted a simulation of the project',
  'simulation.particle_named': 'named a particle of a simulation in the project',
  'room.scene_saved': 'arranged a room of the project',
  'device_version.created': 'added a device version',
  'device_version.deleted': 'deleted a device version',
  'project.version_added': 'added a device version to the project',
  'project.version_removed': 'removed a device version from the project',
  'trial.started': 'started a trial in the project',
  'trial.rerun': 're-ran a trial on another device version in the project',
  'trial.cancelled': 'cancelled a trial in the project',
  'trial.retried': 'retried the failed patients of a trial in the project',
  'design_history.entry_added': 'added an entry to the design history of the project',
  'design_history.entry_edited': 'edited an entry of the design history of the project',
  'design_history.attachment_added': 'attached a file to an entry of the design history of the project',
  'signature.signed': 'signed a record of the design history of the project',
  'design_history.exported': 'exported the design history file',
  'imaging.dataset_added': 'added an imaging dataset',
  'imaging.models_submitted': 'submitted patient models of an imaging dataset for their check',
  // The system's events, named "System (for <who started it>)" (issue 20).
  'cohort.prepared': 'finished preparing a cohort',
  'cohort.failed': 'could not prepare a cohort',
  'ssm.build_queued': 'started building a statistical shape model once its cohorts were ready',
  'ssm.built': 'finished building a statistical shape model in the project',
  'ssm.failed': 'could not build a statistical shape model in the project',
  'measurement.measured': 'finished the measurements of a cohort',
  'measurement.failed': 'could not take the measurements of a cohort',
  'imaging.dataset_checked': 'finished checking an imaging dataset',
  'imaging.models_delivered': 'checked the delivered patient models and made an imaging cohort ready',
  'simulation.completed': 'finished a simulation in the project',
  'simulation.failed': 'ended a failed simulation in the project',
  'trial.finished': 'finished a trial in the project',
  'device_version.processed': 'finished processing a device version',
  'device_version.failed': 'could not process a device version',
  'trial.deleted': 'deleted a trial of the project',
  'trial.settings_changed': 'changed the acceptance criteria or automatic re-run of a trial in the project',
  'trial.report_requested': 'asked for a trial report in the project',
  'trial.outcomes_changed': 'changed the outcomes of their own of a trial in the project',
  'trial.outcomes_read': 'read the changed outcomes of a trial in the project again',
  'simulation.results_backfilled': 'kept the results of a simulation finished before results were kept, in the project',
  'trial.results_backfilled': 'kept the results of a trial finished before results were kept, in the project',
  'measurement.results_backfilled': 'kept the results of measurements taken before results were kept',
  'ssm.results_backfilled': 'kept the results of a shape model built before results were kept, in the project',
};

const statusWords: Record<string, string> = { active: 'reactivated', completed: 'completed', abandoned: 'abandoned' };

function summaryOf(row: FeedRow): string {
  const { event, projectName } = row;
  const actor = event.actorName ?? 'The system';
  const project = projectName ? ` ${projectName}` : '';
  if (event.action === 'project.status_changed') {
    const status = (event.after as { status?: string } | null)?.status ?? '';
    return `${actor} ${statusWords[status] ?? 'changed the status of'} the project${project}`;
  }
  const verb = verbs[event.action] ?? `did ${event.action} on`;
  return `${actor} ${verb}${verb.endsWith('the project') ? project : ''}`;
}

function linkOf(row: FeedRow): string | null {
  const { event } = row;
  if (!event.deviceId) return null;
  if (event.objectType === 'comment' && event.projectId && event.action !== 'comment.deleted')
    return commentLink(event.deviceId, event.projectId, event.objectId);
  if (event.objectType === 'analysis' && event.projectId)
    return `/population-analysis/overview?${new URLSearchParams({ project: event.projectId, analysis: event.objectId }).toString()}`;
  if (event.objectType === 'trial' && event.projectId && event.action !== 'trial.deleted')
    return trialPagePath(event.projectId, event.objectId, event.deviceId);
  if (event.objectType === 'room' && event.projectId && event.action !== 'room.deleted')
    return roomPagePath(event.deviceId, event.projectId, event.objectId);
  const simulationRoom = (event.after as { roomId?: string } | null)?.roomId;
  if (event.objectType === 'simulation' && event.projectId && simulationRoom)
    return simulationResultsPath(event.deviceId, event.projectId, simulationRoom, event.objectId);
  if (event.objectType === 'device_version' && event.action !== 'device_version.deleted')
    return deviceVersionPagePath(event.deviceId, event.objectId);
  if (event.objectType === 'cohort') return cohortPagePath(event.deviceId, event.objectId);
  if (event.objectType === 'imaging_dataset') return imagingPagePath(event.deviceId, event.objectId);
  if (event.objectType === 'member' || event.objectType === 'invitation') return manageTeamPath(event.deviceId);
  if (event.objectType === 'measurement')
    return `/measurement/order?${new URLSearchParams({ order: event.objectId }).toString()}`;
  if (
    (event.objectType === 'design_history_entry' ||
      event.objectType === 'design_history_attachment' ||
      event.objectType === 'signature') &&
    event.projectId
  )
    return designHistoryPath(event.projectId);
  if (event.action === exportedAction) return event.projectId ? designHistoryPath(event.projectId) : '/design-history';
  if (event.projectId) return projectStatsPath(event.deviceId, event.projectId);
  return null;
}

/** An event as the feed shows it (the design history reads its summary and link too). */
export function toItem(row: FeedRow): ActivityItem {
  const { event } = row;
  return {
    id: event.id,
    occurredAt: event.occurredAt.toISOString(),
    action: event.action,
    kind: event.objectType,
    actor: event.actorId ? { id: event.actorId, name: event.actorName ?? 'Former user' } : null,
    objectType: event.objectType,
    objectId: event.objectId,
    project: event.projectId ? { id: event.projectId, name: row.projectName ?? 'Deleted project' } : null,
    summary: summaryOf(row),
    reason: event.reason,
    link: linkOf(row),
  };
}

const dayMs = 24 * 60 * 60 * 1000;

type Listener = (item: ActivityItem) => void;

/**
 * The activity feed (issue 20, /activity-feed): a workspace's domain events for people, newest first, scoped by
 * role (admins and members see the workspace's events; a guest only those of projects they are on), filtered by
 * project, person, kind and dates; live over the notification stream.
 */
export class ActivityService {
  /** Open streams per user: each new event is read once per listener with that listener's scope. */
  private readonly listeners = new Map<Listener, { userId: string; deviceId: string }>();
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(
    private readonly events: DomainEventRepository,
    private readonly devices: DeviceRepository,
    private readonly log: { error(details: object, message: string): void },
  ) {}

  /** Refuses (404/403) unless the user may read the workspace's feed; answers their scope. */
  async scope(userId: string, deviceId: string): Promise<Pick<FeedFilter, 'deviceId' | 'onTeamOf'>> {
    const grant = await callerGrant(userId, deviceId, (device, user) => this.devices.findMembership(device, user));
    authorize('activity.read', grant);
    return { deviceId, onTeamOf: grant.role === 'guest' ? userId : null };
  }

  async list(userId: string, deviceId: string, query: ActivityQuery): Promise<ActivityList> {
    const scope = await this.scope(userId, deviceId);
    const rows = await this.events.feed(
      {
        ...scope,
        ...(query.projectId ? { projectId: query.projectId } : {}),
        ...(query.actorId ? { actorId: query.actorId } : {}),
        ...(query.kind ? { kind: query.kind } : {}),
        ...(query.from ? { from: new Date(`${query.from}T00:00:00Z`) } : {}),
        ...(query.to ? { to: new Date(Date.parse(`${query.to}T00:00:00Z`) + dayMs) } : {}),
        ...(query.before ? { before: query.before } : {}),
      },
      query.limit + 1,
    );
    const page = rows.slice(0, query.limit);
    return {
      items: page.map(toItem),
      nextBefore: rows.length > query.limit ? page[page.length - 1]!.event.id : null,
      ...(await this.events.facets(scope)),
    };
  }

  /** Relays events committed by any process to the open streams that may see them. */
  async startRelay(): Promise<void> {
    this.unsubscribe = await this.events.subscribe((ids) => {
      for (const [listener, { userId, deviceId }] of this.listeners)
        this.scope(userId, deviceId)
          .then((scope) => this.events.feed({ ...scope, ids }, ids.length))
          .then((rows) => {
            for (const row of [...rows].reverse()) listener(toItem(row));
          })
          .catch((error: unknown) => this.log.error({ err: error, userId, ids }, 'activity relay failed'));
    });
  }

  async stopRelay(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** A live stream of one user's feed in one workspace; answers the function that ends it. */
  subscribe(userId: string, deviceId: string, listener: Listener): () => void {
    this.listeners.set(listener, { userId, deviceId });
    return () => void this.listeners.delete(listener);
  }
}
