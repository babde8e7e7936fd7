import { createQuestionSchema } from '@insilico/contracts';
import { describe, expect, it } from 'vitest';
import { expandUnionIssues, generalValidationMessage, validationMessage } from './validation-message';

describe('validationMessage', () => {
  it('answers the contract’s own message for a rule a person broke', () => {
    const result = createQuestionSchema.safeParse({ question: '   ' });
    expect(result.success).toBe(false);
    expect(validationMessage(result.error!.issues)).toBe('Enter the question of interest.');
  });

  it('answers the general message when only zod’s technical messages exist', () => {
    const result = createQuestionSchema.safeParse({ question: 42, modelInfluence: 'extreme' });
    expect(result.success).toBe(false);
    expect(validationMessage(result.error!.issues)).toBe(generalValidationMessage);
  });

  it('takes the first person’s message when several issues exist', () => {
    expect(validationMessage([{ message: 'Invalid input' }, { message: 'Name the room.' }, { message: 'X.' }])).toBe(
      'Name the room.',
    );
    expect(validationMessage([])).toBe(generalValidationMessage);
  });
});

describe('expandUnionIssues', () => {
  it("puts a union's branch issues at their fields, the closest branch first, nested unions too", () => {
    const union = {
      keyword: 'invalid_union',
      instancePath: '/',
      message: 'Invalid input',
      params: {
        errors: [
          [
            { code: 'invalid_type', path: ['cohortId'], message: 'Invalid input: expected string, received undefined' },
            { code: 'invalid_format', path: ['name'], message: 'Enter a room name.' },
            {
              code: 'invalid_type',
              path: ['patientId'],
              message: 'Invalid input: expected string, received undefined',
            },
          ],
          [
            { code: 'invalid_format', path: ['name'], message: 'Enter a room name.' },
            {
              code: 'invalid_union',
              path: ['point'],
              errors: [[{ code: 'invalid_type', path: ['landmark'], message: 'Enter a landmark.' }]],
            },
          ],
        ],
      },
    };
    const other = { keyword: 'too_small', instancePath: '/list', message: 'Too small' };
    const expanded = expandUnionIssues([union, other]);
    expect(expanded.map((issue) => [issue.instancePath, issue.message])).toEqual([
      ['/name', 'Enter a room name.'],
      ['/point/landmark', 'Enter a landmark.'],
      ['/cohortId', 'Invalid input: expected string, received undefined'],
      ['/patientId', 'Invalid input: expected string, received undefined'],
      ['/list', 'Too small'],
    ]);
    expect(validationMessage(expanded)).toBe('Enter a room name.');
  });
});
