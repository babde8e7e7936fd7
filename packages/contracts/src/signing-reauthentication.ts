import { z } from 'zod';
import { signatureMeanings, signedRecordSchema } from './design-history';
import { text } from './text';

/**
 * Electronic signatures with an external identity provider (issue 20 item 5, 21 CFR Part 11 §11.200): there is no
 * password to re-enter here, so a fresh sign-in at the provider stands in. `POST
 * /api/devices/:deviceId/design-history/signatures/reauthentication` checks that the caller may sign the record and
 * answers the provider's address (`prompt=login`, `max_age=0`, a state and a nonce of this signing); the provider
 * asks for the sign-in components and sends the browser back to the app's callback, which signs the record when the
 * ID token shows a sign-in made after the signing began, by the person signed in here.
 */

/**
 * The query parameter the callback adds to the page it sends the browser back to when the record was signed
 * (`signed=1`): the page shows its confirmation there.
 */
export const signedReturnParam = 'signed';

/** How long a signing may wait for the provider's sign-in (the address answered stops working after it). */
export const reauthenticationSeconds = 5 * 60;

export const signatureWithIssuerMessage =
  'Your sign-in is managed by your organisation’s identity provider: sign by signing in there again (“Continue to sign in”).';
export const signatureWithPasswordMessage =
  'Sign with your password: this workspace’s own sign-in confirms your signature.';
export const reauthenticationExpiredMessage =
  'This signing has expired or was started in another browser or session. Nothing was signed: sign again from the design history.';
export const reauthenticationOtherAccountMessage =
  'You signed in at your organisation’s sign-in page as someone other than the person signed in here. Nothing was signed.';
export const reauthenticationNotFreshMessage =
  'Your organisation’s sign-in page did not ask for your sign-in again, so nothing was signed. Sign again and enter your credentials there.';
export const reauthenticationCancelledMessage =
  'The sign-in for your signature was not completed at your organisation’s sign-in page. Nothing was signed.';
export const reauthenticationFailedMessage =
  'The sign-in for your signature could not be verified. Nothing was signed.';

/** What is to be signed, and where the browser comes back to (a path of the app; the design history otherwise). */
export const reauthenticationRequestSchema = z.object({
  record: signedRecordSchema,
  meaning: z.enum(signatureMeanings),
  returnTo: text().max(2000).optional(),
});
export type ReauthenticationRequest = z.infer<typeof reauthenticationRequestSchema>;

/** The provider's sign-in address for this signing, and when it stops working (UTC, ISO 8601). */
export const reauthenticationSchema = z.object({
  location: text(),
  expiresAt: text(),
});
export type Reauthentication = z.infer<typeof reauthenticationSchema>;
