import { z } from 'zod';
import {
  bodyPartSchema,
  companySchema,
  developmentStageSchema,
  deviceInfoSchema,
  deviceSchema,
  memberRoleSchema,
} from './devices';
import { endpoint } from './endpoint';
import { invitationSchema } from './team';
import { text } from './text';

/** The onboarding has six linear steps; `stepActive` starts at 1. */
export const onboardingStepCount = 6;
export const onboardingSteps = [
  { step: 1, path: '/onboarding/body-part', header: 'Body part' },
  { step: 2, path: '/onboarding/development-phase', header: 'Development stage' },
  { step: 3, path: '/onboarding/device-details', header: 'Device details' },
  { step: 4, path: '/onboarding/your-company', header: 'Your company' },
  { step: 5, path: '/onboarding/your-team', header: 'Your team' },
  { step: 6, path: '/onboarding/complete', header: 'Complete' },
] as const;

export const teamInviteeSchema = z.object({ email: z.email().max(254), role: memberRoleSchema.default('member') });

/**
 * The onboarding state of spec §3, saved on the server after every step (`PUT /api/onboarding`).
 * A step not reached yet is null.
 */
export const onboardingStateSchema = z.object({
  bodyPart: bodyPartSchema.nullable(),
  developmentPhase: z.array(developmentStageSchema).max(3).nullable(),
  deviceInfo: deviceInfoSchema.nullable(),
  yourCompany: companySchema.nullable(),
  yourTeam: z.array(teamInviteeSchema).max(50),
  stepActive: z.number().int().min(1).max(onboardingStepCount),
  /** Free-form per-step notes of the web client (e.g. which steps were visited). */
  stepInfo: z.record(text().max(50), z.union([text().max(500), z.number(), z.boolean(), z.null()])),
});
export type OnboardingState = z.infer<typeof onboardingStateSchema>;

/** `PUT /api/onboarding`: the whole state (missing parts default to empty). */
export const saveOnboardingSchema = onboardingStateSchema.partial().extend({
  stepActive: z.number().int().min(1).max(onboardingStepCount),
});
export type SaveOnboarding = z.input<typeof saveOnboardingSchema>;

/** `GET /api/onboarding`. */
export const onboardingSchema = z.object({
  state: onboardingStateSchema,
  /** Whether this user may create a workspace (otherwise `/onboarding/no-access`). */
  mayCreateWorkspace: z.boolean(),
  /** Workspaces the user belongs to (any status). */
  workspaceCount: z.number().int(),
  /**
   * The device picture uploaded on the Device details step (`PUT /api/onboarding/picture`), or null;
   * the workspace takes it over when the onboarding completes (spec §3 deviceInfo.devicePicture).
   */
  devicePicture: text().nullable(),
});
export type Onboarding = z.infer<typeof onboardingSchema>;

/** `POST /api/onboarding/complete`: the new workspace and the invitations of the team step. */
export const onboardingCompleteSchema = z.object({
  device: deviceSchema,
  invitations: z.array(invitationSchema),
});
export type OnboardingComplete = z.infer<typeof onboardingCompleteSchema>;

/**
 * The onboarding state, saved after every step, and its completion into a workspace
 * (docs/decisions/endpoints-in-contracts.md); its device picture is `pictureEndpoints.uploadNewDevice`.
 */
export const onboardingEndpoints = {
  get: endpoint({ method: 'GET', path: '/api/onboarding', response: { 200: onboardingSchema } }),
  save: endpoint({
    method: 'PUT',
    path: '/api/onboarding',
    body: saveOnboardingSchema,
    response: { 200: onboardingStateSchema },
  }),
  complete: endpoint({ method: 'POST', path: '/api/onboarding/complete', response: { 201: onboardingCompleteSchema } }),
};
