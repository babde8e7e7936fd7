import { z } from 'zod';
import { userProfileSchema } from './auth';
import { endpoint } from './endpoint';
import { text } from './text';

export const fullNameMaxLength = 100;
export const jobTitleMaxLength = 100;

export const fullNameRequiredMessage = 'Please enter your full name.';

/** `GET /api/me/profile`: what /my-account edits; the e-mail comes from the identity and is read-only. */
export const profileSchema = userProfileSchema.pick({ email: true, fullName: true, jobTitle: true, pictureUrl: true });
export type Profile = z.infer<typeof profileSchema>;

/** `PATCH /api/me/profile`: any of full name and job title (an empty job title clears it). */
export const updateProfileSchema = z
  .object({
    fullName: text().trim().min(1, fullNameRequiredMessage).max(fullNameMaxLength),
    jobTitle: text()
      .trim()
      .max(jobTitleMaxLength)
      .nullable()
      .transform((value) => (value ? value : null)),
  })
  .partial()
  .refine((value) => Object.keys(value).length > 0, 'Nothing to change.');
export type UpdateProfile = z.input<typeof updateProfileSchema>;

export const userParamsSchema = z.object({ userId: z.uuid() });

/** The signed-in person's profile, /my-account (docs/decisions/endpoints-in-contracts.md). */
export const profileEndpoints = {
  get: endpoint({ method: 'GET', path: '/api/me/profile', response: { 200: profileSchema } }),
  update: endpoint({
    method: 'PATCH',
    path: '/api/me/profile',
    body: updateProfileSchema,
    response: { 200: profileSchema },
  }),
};
