import { z } from 'zod';
import { dataRegions, isCountryCode, isUsStateCode, unitedStatesCode } from './countries';
import { text } from './text';

/** Device types (spec §3); `other` needs its free-text specification in `deviceTypeOther`. */
export const deviceTypes = [
  'artificial_heart',
  'cannula',
  'catheter',
  'endoscope',
  'pacemaker',
  'stent',
  'stent_graft',
  'valve_chord_replacement',
  'valve_repair',
  'valve_replacement',
  'other',
] as const;
export type DeviceType = (typeof deviceTypes)[number];
export const deviceTypeSchema = z.enum(deviceTypes);

/** Body parts (spec §3): only `heart_and_thorax` can be chosen; the others are shown disabled. */
export const bodyParts = [
  { key: 'heart_and_thorax', enabled: true },
  { key: 'spinal', enabled: false },
  { key: 'abdominal', enabled: false },
  { key: 'head_and_neck', enabled: false },
  { key: 'arms', enabled: false },
  { key: 'legs', enabled: false },
  { key: 'dental', enabled: false },
] as const;
export type BodyPart = (typeof bodyParts)[number]['key'];
export const bodyPartSchema = z.enum(bodyParts.map((part) => part.key) as [BodyPart, ...BodyPart[]]);

/** Development stages (spec §3): animal testing is shown as not available. */
export const developmentStages = [
  { key: 'concept_and_design_feasibility', camelKey: 'conceptAndDesignFeasibility', available: true },
  { key: 'animal_testing', camelKey: 'animalTesting', available: false },
  { key: 'clinical_trial', camelKey: 'clinicalTrial', available: true },
] as const;
export type DevelopmentStage = (typeof developmentStages)[number]['key'];
export const developmentStageSchema = z.enum(
  developmentStages.map((stage) => stage.key) as [DevelopmentStage, ...DevelopmentStage[]],
);

/** Roles in a device workspace (spec §3, §6); `member` is the default. */
export const memberRoles = ['member', 'admin', 'guest'] as const;
export type MemberRole = (typeof memberRoles)[number];
export const memberRoleSchema = z.enum(memberRoles);
export const defaultMemberRole: MemberRole = 'member';

/** Membership status (spec §3, §4): invited → pending_approval → ok. */
export const membershipStatuses = ['invited', 'pending_approval', 'ok'] as const;
export type MembershipStatus = (typeof membershipStatuses)[number];
export const membershipStatusSchema = z.enum(membershipStatuses);

export const dataRegionSchema = z.enum(dataRegions);

/** The no-permission message of spec §6. */
export const noPermissionMessage =
  'You do not have permission to access this project. Contact your device company admin to check whether you have been added to this device or project.';

/**
 * Refusals of workspace pages and actions to a role that may not use them. Spec §6's message speaks of "this project";
 * these pages are not about a project, so their refusal names the workspace and what the role may not do
 * (docs/decisions/role-refusals.md). Server and web show the same words.
 */
export const roleRefusalMessages = {
  team: 'Guests do not see the team of a device workspace. Contact your device company admin if you need to know who works in it.',
  subscription:
    'Guests do not see the subscription of a device workspace. Contact your device company admin about plans and seats.',
  cohortOrder:
    'Guests cannot order patient cohorts in this device workspace. Contact your device company admin to check your role in this device.',
} as const;

/** A required, trimmed text of at most `max` characters. */
const requiredText = (max: number) => text().trim().min(1).max(max);

/** Device details as typed in onboarding / add device / manage device. */
export const deviceInfoSchema = z.object({
  deviceName: requiredText(100),
  deviceType: deviceTypeSchema,
  deviceTypeOther: text().trim().max(100).nullable().optional(),
});
export type DeviceInfo = z.infer<typeof deviceInfoSchema>;

/** The company behind a device workspace. `country` is an ISO 3166-1 alpha-2 code. */
export const companySchema = z.object({
  companyName: requiredText(200),
  country: text().trim().toUpperCase().length(2),
  state: text().trim().toUpperCase().max(2).nullable().optional(),
  streetAddress: requiredText(200),
  city: requiredText(100),
  zipCode: requiredText(20),
});
export type Company = z.infer<typeof companySchema>;

// Rules the schemas above cannot say; the server applies them and answers 400 with these messages.

export function bodyPartProblem(part: BodyPart): string | null {
  return part === 'heart_and_thorax' ? null : 'Only Heart and thorax can be chosen for now.';
}

export function developmentStagesProblem(stages: readonly DevelopmentStage[]): string | null {
  if (stages.length === 0) return 'Choose at least one development stage.';
  return stages.includes('animal_testing') ? 'Animal testing is not available yet.' : null;
}

export function deviceInfoProblem(info: DeviceInfo): string | null {
  if (info.deviceType === 'other' && !info.deviceTypeOther?.trim())
    return 'Please specify the device type when you choose Other.';
  if (info.deviceType !== 'other' && info.deviceTypeOther?.trim())
    return 'A device type specification is only given with the device type Other.';
  return null;
}

export function companyProblem(company: Company): string | null {
  if (!isCountryCode(company.country)) return 'Choose the country from the list.';
  if (company.country === unitedStatesCode) {
    if (!company.state) return 'Choose the state for a company in the United States.';
    if (!isUsStateCode(company.state)) return 'Choose the state from the list.';
  } else if (company.state) {
    return 'A state is only given for a company in the United States.';
  }
  return null;
}

/** A workspace as listed for the signed-in user (workspace switcher). */
export const deviceSummarySchema = z.object({
  deviceId: text(),
  deviceName: text(),
  devicePicture: text().nullable(),
  datetimeCreation: text(),
  role: memberRoleSchema,
  userStatus: membershipStatusSchema,
  isAdmin: z.boolean(),
});
export type DeviceSummary = z.infer<typeof deviceSummarySchema>;

export const deviceListSchema = z.object({ items: z.array(deviceSummarySchema) });
export type DeviceList = z.infer<typeof deviceListSchema>;

/** Every field of a device workspace (spec §3 Device). */
export const deviceSchema = deviceSummarySchema.extend({
  deviceType: deviceTypeSchema,
  deviceTypeOther: text().nullable(),
  bodyParts: z.array(bodyPartSchema),
  deviceDevPhase: z.array(developmentStageSchema),
  companyName: text(),
  country: text(),
  countryState: text().nullable(),
  streetAddress: text(),
  city: text(),
  zipCode: text(),
  dataRegion: dataRegionSchema,
  /** False once the workspace holds data: the region is fixed from then on. */
  dataRegionChangeable: z.boolean(),
  /** Members with status ok. */
  deviceUsers: z.number().int(),
});
export type Device = z.infer<typeof deviceSchema>;

/** `POST /api/devices` (add device) and the workspace made at the end of onboarding. */
export const createDeviceSchema = z.object({
  bodyParts: z.array(bodyPartSchema).min(1).max(7),
  developmentStages: z.array(developmentStageSchema).min(1).max(3),
  deviceInfo: deviceInfoSchema,
  company: companySchema,
  /** Proposed from the company's country when not given. */
  dataRegion: dataRegionSchema.optional(),
  team: z
    .array(z.object({ email: z.email().max(254), role: memberRoleSchema.default('member') }))
    .max(50)
    .default([]),
});
export type CreateDevice = z.input<typeof createDeviceSchema>;

/** `PATCH /api/devices/:deviceId` (admins): any subset of the fields. */
export const updateDeviceSchema = z
  .object({
    bodyParts: z.array(bodyPartSchema).min(1).max(7),
    developmentStages: z.array(developmentStageSchema).min(1).max(3),
    deviceInfo: deviceInfoSchema,
    company: companySchema,
    dataRegion: dataRegionSchema,
  })
  .partial()
  .refine((value) => Object.keys(value).length > 0, 'Nothing to change.');
export type UpdateDevice = z.infer<typeof updateDeviceSchema>;

export const deviceParamsSchema = z.object({ deviceId: z.uuid() });

/** `GET|PUT /api/me/selected-device`: the workspace the user works in (persists per user). */
export const selectDeviceSchema = z.object({ deviceId: z.uuid() });
export const selectedDeviceSchema = z.object({ device: deviceSummarySchema.nullable() });
export type SelectedDevice = z.infer<typeof selectedDeviceSchema>;
