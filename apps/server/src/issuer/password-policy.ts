import { dictionary } from '@zxcvbn-ts/language-common';

/** Spec §5 and §9: at least 8 characters. */
export const minimumPasswordLength = 8;
const maximumPasswordLength = 256;

const characterTypes: readonly { test: RegExp; name: string }[] = [
  { test: /[a-z]/, name: 'lower-case letters (a-z)' },
  { test: /[A-Z]/, name: 'upper-case letters (A-Z)' },
  { test: /[0-9]/, name: 'digits (0-9)' },
  { test: /[^a-zA-Z0-9]/, name: 'special characters (such as ! ? # or a space)' },
];

// ~49,000 passwords ranked by how often they leak (a maintained list from the zxcvbn-ts project).
const commonPasswords = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));

/**
 * Checks a new password against spec §5 (≥ 8 characters, ≥ 3 of the 4 character types) and
 * refuses very common passwords. Answers the problems as sentences a person can act on; empty
 * means acceptable.
 */
export function passwordProblems(password: string, context: { email?: string; fullName?: string } = {}): string[] {
  const problems: string[] = [];
  // Characters as a person counts them (code points): an emoji is one, not the two UTF-16 units of `length`.
  const characters = [...password].length;
  if (characters < minimumPasswordLength) {
    problems.push(`Use at least ${minimumPasswordLength} characters (this one has ${characters}).`);
  }
  if (characters > maximumPasswordLength) {
    problems.push(`Use at most ${maximumPasswordLength} characters.`);
  }
  const present = characterTypes.filter((type) => type.test.test(password));
  if (present.length < 3) {
    const missing = characterTypes.filter((type) => !present.includes(type)).map((type) => type.name);
    const needed = 3 - present.length === 1 ? 'one' : 'two';
    problems.push(
      `Use at least 3 of these 4 kinds of characters: lower-case letters, upper-case letters, digits, special characters. Add ${needed} of: ${missing.join(', ')}.`,
    );
  }
  const lowered = password.toLowerCase();
  if (commonPasswords.has(lowered) || commonPasswords.has(lowered.replace(/[^a-z0-9]+$/, ''))) {
    problems.push('This password is one of the most commonly used and easy to guess. Choose another.');
  }
  const emailName = context.email?.split('@')[0]?.toLowerCase();
  if (emailName && emailName.length >= 4 && lowered.includes(emailName)) {
    problems.push('Do not use your e-mail address in your password.');
  }
  return problems;
}
