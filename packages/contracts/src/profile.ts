import { z } from 'zod';
import { userProfileSchema } from './auth';
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
