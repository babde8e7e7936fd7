import { createQuestionSchema } from '@insilico/contracts';
import { describe, expect, it } from 'vitest';
import { generalValidationMessage, validationMessage } from './validation-message';

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
