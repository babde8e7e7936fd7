import { projectStatusSchema, type ProjectStatus } from '@insilico/contracts';
import type { CommittedEvent } from '../events/domain-event';
import type { EventSubscriber } from '../events/event-relay';
import type { ProjectRepository } from '../repositories/project.repository';
import type { NotificationService } from './notification.service';
import { projectStatsPath } from './project.service';
import { roomPagePath } from './room.mapper';

const statusWords: Record<ProjectStatus, string> = {
  active: 'reactivated',
  completed: 'completed',
  abandoned: 'abandoned',
};

/**
 * Notifications as a subscriber of the domain events (issue 20): a status move tells the project's team (except
 * whoever made it), a new team member hears they were added (also the team a project is created with), someone a
 * room is shared with hears it. Posted once per event and person (dedupe key).
 */
export class ProjectNotifications implements EventSubscriber {
  constructor(
    private readonly projects: ProjectRepository,
    private readonly notifications: NotificationService,
  ) {}

  readonly name = 'project-notifications';

  /** One committed event, from the event relay (events/event-relay.ts): throws to have it delivered again. */
  async handle(event: CommittedEvent): Promise<void> {
    if (!event.deviceId || !event.projectId) return;
    const after = (event.after ?? {}) as { status?: unknown; name?: unknown; memberId?: unknown; team?: unknown };
    const link = projectStatsPath(event.deviceId, event.projectId);
    const name = typeof after.name === 'string' ? after.name : '';
    if (event.action === 'project.status_changed') {
      const status = projectStatusSchema.parse(after.status);
      const team = await this.projects.teams(event.deviceId, [event.projectId]);
      for (const member of team) {
        // Somebody who left the workspace hears nothing more of its projects (rows from before they left teams too).
        if (member.userId === event.actorId || member.status !== 'ok') continue;
        await this.notifications.post({
          userId: member.userId,
          kind: 'project.status',
          title: `Project ${name} was ${statusWords[status]}`,
          link,
          dedupeKey: `event:${event.id}`,
        });
      }
    }
    if (event.action === 'project.created' && Array.isArray(after.team))
      // Each added user is told (not the creator).
      for (const userId of after.team.filter((id): id is string => typeof id === 'string' && id !== event.actorId))
        await this.notifications.post({
          userId,
          kind: 'project.member_added',
          title: `You were added to the project ${name}`,
          link,
          dedupeKey: `project-member-added:${event.projectId}`,
        });
    if (event.action === 'room.shared') await this.roomShared(event);
    if (event.action === 'project.member_added' && typeof after.memberId === 'string')
      await this.notifications.post({
        userId: after.memberId,
        kind: 'project.team',
        title: `You were added to the project ${name}`,
        link,
        dedupeKey: `event:${event.id}`,
      });
  }

  /** Whoever a room was newly shared with hears it from the sharer (once per room and person). */
  private async roomShared(event: CommittedEvent): Promise<void> {
    const before = (event.before ?? {}) as { sharedWith?: string[] };
    const after = (event.after ?? {}) as { sharedWith?: string[]; room?: string; project?: string };
    const earlier = new Set(before.sharedWith ?? []);
    const added = (after.sharedWith ?? []).filter((id) => !earlier.has(id));
    if (added.length === 0) return;
    const team = await this.projects.teams(event.deviceId!, [event.projectId!]);
    const sharer = team.find((person) => person.userId === event.actorId)?.fullName ?? 'A team member';
    for (const recipient of added)
      await this.notifications.post({
        userId: recipient,
        kind: 'room.shared',
        title: `${sharer} shared the room ${after.room ?? ''} with you`,
        body: `Project ${after.project ?? ''}`,
        link: roomPagePath(event.deviceId!, event.projectId!, event.objectId),
        dedupeKey: `room-shared:${event.objectId}:${recipient}`,
      });
  }
}
