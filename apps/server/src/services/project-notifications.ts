import { projectStatusSchema, type ProjectStatus } from '@insilico/contracts';
import type { CommittedEvent } from '../events/domain-event';
import type { ProjectRepository } from '../repositories/project.repository';
import type { NotificationService } from './notification.service';
import { projectStatsPath } from './project.service';

const statusWords: Record<ProjectStatus, string> = {
  active: 'reactivated',
  completed: 'completed',
  abandoned: 'abandoned',
};

interface Log {
  error(details: object, message: string): void;
}

/**
 * Notifications as a subscriber of the domain events (issue 20): a status move tells the project's team (except
 * whoever made it), a new team member hears they were added. Posted once per event and person (dedupe key).
 */
export class ProjectNotifications {
  constructor(
    private readonly projects: ProjectRepository,
    private readonly notifications: NotificationService,
    private readonly log: Log,
  ) {}

  /** The unit of work's subscriber: runs after the commit; failures are logged, the change stands. */
  readonly onEvents = async (events: readonly CommittedEvent[]): Promise<void> => {
    for (const event of events)
      await this.handle(event).catch((error: unknown) =>
        this.log.error({ err: error, eventId: event.id }, 'project notification failed'),
      );
  };

  private async handle(event: CommittedEvent): Promise<void> {
    if (!event.deviceId || !event.projectId) return;
    const after = (event.after ?? {}) as { status?: unknown; name?: unknown; memberId?: unknown };
    const link = projectStatsPath(event.deviceId, event.projectId);
    const name = typeof after.name === 'string' ? after.name : '';
    if (event.action === 'project.status_changed') {
      const status = projectStatusSchema.parse(after.status);
      const team = await this.projects.teams(event.deviceId, [event.projectId]);
      for (const member of team) {
        if (member.userId === event.actorId) continue;
        await this.notifications.post({
          userId: member.userId,
          kind: 'project.status',
          title: `Project ${name} was ${statusWords[status]}`,
          link,
          dedupeKey: `event:${event.id}`,
        });
      }
    }
    if (event.action === 'project.member_added' && typeof after.memberId === 'string')
      await this.notifications.post({
        userId: after.memberId,
        kind: 'project.team',
        title: `You were added to the project ${name}`,
        link,
        dedupeKey: `event:${event.id}`,
      });
  }
}
