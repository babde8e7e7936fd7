import { describe, expect, it } from 'vitest';
import { projectTitleProblem, projectTitleRequiredMessage, projectTitleTooLongMessage } from './project-creation';

describe('projectTitleProblem (spec §5 "Project title")', () => {
  it('takes 1 to 50 characters after trimming', () => {
    expect(projectTitleProblem('A')).toBeNull();
    expect(projectTitleProblem(`  ${'x'.repeat(50)}  `)).toBeNull();
  });

  it('gives the spec message word for word above 50 characters', () => {
    expect(projectTitleProblem('x'.repeat(51))).toBe('Project title is too long. Maximum 50 characters.');
    expect(projectTitleTooLongMessage).toBe('Project title is too long. Maximum 50 characters.');
  });

  it('counts characters as people see them, not UTF-16 units', () => {
    expect(projectTitleProblem('🫀'.repeat(50))).toBeNull();
    expect(projectTitleProblem('🫀'.repeat(51))).toBe(projectTitleTooLongMessage);
  });

  it('asks for a title when it is empty or blank', () => {
    expect(projectTitleProblem('')).toBe(projectTitleRequiredMessage);
    expect(projectTitleProblem(' \t ')).toBe(projectTitleRequiredMessage);
  });
});
