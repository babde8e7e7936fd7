import { z } from 'zod';
import { text } from './text';

/** Body of every non-2xx API answer: `{ error: { code, message, details? } }`. */
export const apiErrorSchema = z.object({
  error: z.object({
    code: text(),
    message: text(),
    details: z.unknown().optional(),
  }),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

/** Stable machine codes of the API's errors; the message is for people. */
export const errorCodes = {
  badRequest: 'bad_request',
  unauthenticated: 'unauthenticated',
  forbidden: 'forbidden',
  crossOrigin: 'cross_origin',
  notFound: 'not_found',
  conflict: 'conflict',
  maintenance: 'maintenance',
  internal: 'internal',
} as const;
