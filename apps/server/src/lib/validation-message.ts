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

/** One validation issue as fastify's zod provider reports it (`params.errors` holds a union's branches). */
export interface ValidationIssue {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: unknown;
}

interface BranchIssue {
  code?: string;
  path?: (string | number)[];
  message?: string;
  errors?: BranchIssue[][];
}

/**
 * A union that no branch accepts is reported as one issue at the union's own path, its branches' issues hidden in
 * `params.errors` with paths relative to it; a person (and the client that shows a message under a field) needs
 * them at the fields. Each such issue is replaced by its branches' issues at their full paths, the branch that came
 * closest (fewest issues) first, so its sentence becomes the answer's message; nested unions likewise.
 */
export function expandUnionIssues(issues: readonly ValidationIssue[]): ValidationIssue[] {
  return issues.flatMap((issue) => {
    const branches = (issue.params as { errors?: unknown } | undefined)?.errors;
    if (issue.keyword !== 'invalid_union' || !Array.isArray(branches)) return [issue];
    return expandBranches(branches as BranchIssue[][], issue.instancePath === '/' ? '' : (issue.instancePath ?? ''));
  });
}

function expandBranches(branches: BranchIssue[][], base: string): ValidationIssue[] {
  const ordered = [...branches].sort((a, b) => a.length - b.length);
  const seen = new Set<string>();
  const expanded: ValidationIssue[] = [];
  for (const branch of ordered)
    for (const issue of branch) {
      const instancePath = `${base}${(issue.path ?? []).map((part) => `/${part}`).join('')}`;
      if (issue.code === 'invalid_union' && Array.isArray(issue.errors)) {
        expanded.push(...expandBranches(issue.errors, instancePath));
        continue;
      }
      const key = `${instancePath} ${issue.message ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      expanded.push({ keyword: issue.code, instancePath: instancePath || '/', message: issue.message, params: {} });
    }
  return expanded;
}
