import type { CommittedEvent } from '../events/domain-event';
import type { EventSubscriber } from '../events/event-relay';
import type { Repositories } from '../repositories/unit-of-work';
import type { NotificationService } from './notification.service';
import { acceptInvitationPath, activeAdmins, pendingNews, roleWithArticle } from './team.service';

/**
 * Notifications of a workspace's team as a subscriber of the domain events (issue 20): when someone accepts an
 * invitation, the active admins hear that they wait for approval (the mail goes out in the acceptance's own
 * transaction); when an admin approves them, they hear they can work in the workspace (the waiting page may be
 * closed by then).
 */
export class TeamNotifications implements EventSubscriber {
  constructor(
    private readonly repositories: Pick<Repositories, 'devices'>,
    private readonly notifications: Pick<NotificationService, 'post'>,
  ) {}

  readonly name = 'team-notifications';

  /** One committed event, from the event relay (events/event-relay.ts): throws to have it delivered again. */
  async handle(event: CommittedEvent): Promise<void> {
    if (!event.deviceId) return;
    if (event.action === 'team.invitation_accepted') await this.pending(event, event.deviceId);
    if (event.action === 'team.member_approved') await this.approved(event, event.deviceId);
  }

  private async pending(event: CommittedEvent, deviceId: string): Promise<void> {
    const role = (event.before as { role?: string } | null)?.role ?? 'member';
    const device = await this.repositories.devices.findById(deviceId);
    const person = (await this.repositories.devices.listMembers(deviceId)).find((m) => m.userId === event.actorId);
    if (!device || !person) return;
    const news = pendingNews(device, person, role);
    for (const admin of await activeAdmins(this.repositories, deviceId))
      await this.notifications.post({
        userId: admin.userId,
        kind: 'team.pending',
        title: news.title,
        body: news.body,
        link: news.link,
        dedupeKey: `event:${event.id}`,
      });
  }

  private async approved(event: CommittedEvent, deviceId: string): Promise<void> {
    const role = (event.after as { role?: string } | null)?.role ?? 'member';
    const device = await this.repositories.devices.findById(deviceId);
    // Its link is the waiting page, which selects the workspace and opens it.
    await this.notifications.post({
      userId: event.objectId,
      kind: 'team.accepted',
      title: `You can now work in "${device?.name ?? 'the device workspace'}"`,
      body: `An admin accepted you as ${roleWithArticle(role)}.`,
      link: `${acceptInvitationPath}?device=${deviceId}`,
      dedupeKey: `event:${event.id}`,
    });
  }
}
