import { z } from 'zod';
import { deviceParamsSchema } from './devices';
import { endpoint } from './endpoint';
import { text } from './text';

/** Subscription plans of a device workspace; an operator sets the plan and its seats. */
export const subscriptionPlans = ['trial', 'team', 'enterprise'] as const;
export const subscriptionPlanSchema = z.enum(subscriptionPlans);
export type SubscriptionPlan = z.infer<typeof subscriptionPlanSchema>;

export const subscriptionPlanLabels: Record<SubscriptionPlan, string> = {
  trial: 'Trial',
  team: 'Team',
  enterprise: 'Enterprise',
};

/** The most seats an operator may set (a guard against typos, not a product limit). */
export const maxSeats = 10_000;

/** `GET /api/devices/:deviceId/subscription` (/subscriptions). */
export const subscriptionSchema = z.object({
  deviceId: text(),
  deviceName: text(),
  plan: subscriptionPlanSchema,
  seats: z.number().int(),
  /** Every seat taken: members (ok), users waiting for approval, open unexpired invitations. */
  seatsUsed: z.number().int(),
  /** Seats still free; 0 when an operator lowered the seats below those in use. */
  seatsAvailable: z.number().int(),
  usage: z.object({
    members: z.number().int(),
    pendingApproval: z.number().int(),
    openInvitations: z.number().int(),
  }),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/** The operator's change of a workspace's plan and seats. */
export const setSubscriptionSchema = z.object({
  deviceId: z.uuid(),
  plan: subscriptionPlanSchema,
  seats: z.number().int().min(1).max(maxSeats),
});
export type SetSubscription = z.infer<typeof setSubscriptionSchema>;

/** The refusal of an invitation beyond the seats (see docs/decisions/subscriptions-and-seats.md). */
export function seatsFullMessage(seats: number): string {
  return `All ${seats} seats of your plan are in use. Remove a member or contact support to add seats.`;
}

/** The plan and seats of a device workspace, /subscriptions (docs/decisions/endpoints-in-contracts.md). */
export const subscriptionEndpoints = {
  get: endpoint({
    method: 'GET',
    path: '/api/devices/:deviceId/subscription',
    params: deviceParamsSchema,
    response: { 200: subscriptionSchema },
  }),
};
