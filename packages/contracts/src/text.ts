import { z } from 'zod';

/**
 * The one string schema of the contracts (issue 14): every string of every payload is `text()`, requests and answers
 * alike, so no field depends on someone judging whether it is input. U+0000 (NUL) is refused with a message:
 * PostgreSQL cannot store it in a text column and no keyboard types it; refused here, it answers 400 instead of
 * failing in the database (500). A field's own rules (trimming, length, its message) chain after it.
 */
export const nulCharacterMessage = 'Text cannot contain the character U+0000 (NUL). Remove it and try again.';

/** Matches a text without U+0000 (in the OpenAPI document as the field's `pattern`). */
export const noNulCharacter = /^[^\0]*$/;

export function text() {
  return z.string().regex(noNulCharacter, nulCharacterMessage);
}
