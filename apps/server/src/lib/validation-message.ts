/**
 * The message of a 400 for input the schemas refuse. Our contracts give people's messages to the rules a person can
 * break (e.g. "Enter the question of interest.", the spec's messages); those are full sentences ending with a full
 * stop, while zod's own messages ("Invalid input: expected string, received undefined") are not. The first
 * sentence found is the answer's message; otherwise a general one. Every issue stays in `details`.
 */
export const generalValidationMessage = 'Some of what was sent is not valid.';

export function validationMessage(issues: readonly { message?: string }[]): string {
  return issues.find((issue) => issue.message?.trim().endsWith('.'))?.message?.trim() ?? generalValidationMessage;
}
