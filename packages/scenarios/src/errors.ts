import type { ParameterIssue } from './parameters';

/** Input a person must correct: every issue with its message (the server answers 4xx, nothing is queued). */
export class ScenarioError extends Error {
  override readonly name = 'ScenarioError';
  constructor(readonly issues: readonly ParameterIssue[]) {
    super(issues.map((i) => i.message).join(' '));
  }
}
