import {
  seatsFullMessage,
  subscriptionPlans,
  type SetSubscription,
  type Subscription,
  type SubscriptionPlan,
} from '@insilico/contracts';
import type { SeatUsageRow, SubscriptionRow } from '../repositories/subscription.repository';
import type { Repositories, UnitOfWork } from '../repositories/unit-of-work';
import { ServiceError } from './errors';
import { authorize } from './authorize';
import { callerGrant } from './caller-grant';

/** A workspace as operators see it when they look one up to change its plan. */
export interface WorkspaceOverview extends Subscription {
  companyName: string;
  createdAt: string;
  adminEmails: string[];
}

const notFound = () => new ServiceError(404, 'not_found', 'No such device workspace.');

/**
 * The plan and seats of a device workspace. Seats are taken by members (ok), users waiting for
 * approval and open, unexpired invitations; an invitation beyond the seats is refused.
 */
export class SubscriptionService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async get(userId: string, deviceId: string): Promise<Subscription> {
    const repositories = this.unitOfWork.repositories;
    authorize(
      'subscription.read',
      await callerGrant(userId, deviceId, (device, user) => repositories.devices.findMembership(device, user)),
    );
    const row = await repositories.subscriptions.find(deviceId);
    if (!row) throw notFound();
    return toSubscription(row, await repositories.subscriptions.usage(deviceId, this.now()));
  }

  /** Operators only (loopback route, CLI): never reachable with a browser session. */
  async set(change: SetSubscription): Promise<Subscription> {
    const subscriptions = this.unitOfWork.repositories.subscriptions;
    const row = await subscriptions.update(change.deviceId, { plan: change.plan, seats: change.seats });
    if (!row) throw notFound();
    return toSubscription(row, await subscriptions.usage(row.deviceId, this.now()));
  }

  /** Operators only: every workspace with its plan, seats and admins. */
  async overview(): Promise<WorkspaceOverview[]> {
    const subscriptions = this.unitOfWork.repositories.subscriptions;
    const rows = await subscriptions.listAll();
    const now = this.now();
    return Promise.all(
      rows.map(async (row) => ({
        ...toSubscription(row, await subscriptions.usage(row.deviceId, now)),
        companyName: row.companyName,
        createdAt: row.createdAt.toISOString(),
        adminEmails: row.adminEmails,
      })),
    );
  }
}

/**
 * Refuses (409 `seats_full`) a further invitation when every seat is taken. Locks the workspace
 * row, so call it inside the transaction that creates the invitation.
 */
export async function ensureSeatFree(repositories: Repositories, deviceId: string, now: Date): Promise<void> {
  const row = await repositories.subscriptions.findForUpdate(deviceId);
  if (!row) throw notFound();
  const usage = await repositories.subscriptions.usage(deviceId, now);
  if (seatsUsed(usage) >= row.seats) throw new ServiceError(409, 'seats_full', seatsFullMessage(row.seats));
}

function seatsUsed(usage: SeatUsageRow): number {
  return usage.members + usage.pendingApproval + usage.openInvitations;
}

function toSubscription(row: SubscriptionRow, usage: SeatUsageRow): Subscription {
  const used = seatsUsed(usage);
  return {
    deviceId: row.deviceId,
    deviceName: row.deviceName,
    // A plan name written outside this code reads as the default plan rather than failing the page.
    plan: subscriptionPlans.find((plan): plan is SubscriptionPlan => plan === row.plan) ?? 'team',
    seats: row.seats,
    seatsUsed: used,
    seatsAvailable: Math.max(0, row.seats - used),
    usage,
  };
}
