import { describe, expect, it } from 'vitest';
import { createQuestionSchema, modelRiskLevel, modelRiskOf, vv40Grades, type Vv40Grade } from './questions';

describe('modelRiskLevel (ASME V&V 40 example model risk matrix)', () => {
  // The whole 3 × 3 matrix, written out: rows are model influence, columns decision consequence.
  const matrix: Record<Vv40Grade, Record<Vv40Grade, number>> = {
    low: { low: 1, medium: 2, high: 3 },
    medium: { low: 2, medium: 3, high: 4 },
    high: { low: 3, medium: 4, high: 5 },
  };

  it.each(vv40Grades.flatMap((influence) => vv40Grades.map((consequence) => [influence, consequence] as const)))(
    'influence %s × consequence %s',
    (influence, consequence) => {
      expect(modelRiskLevel(influence, consequence)).toBe(matrix[influence][consequence]);
    },
  );

  it('weighs both axes equally and rises with each of them', () => {
    for (const a of vv40Grades) for (const b of vv40Grades) expect(modelRiskLevel(a, b)).toBe(modelRiskLevel(b, a));
    expect(modelRiskLevel('low', 'low')).toBe(1);
    expect(modelRiskLevel('high', 'high')).toBe(5);
  });

  it('is open while either grade is missing', () => {
    expect(modelRiskOf({ modelInfluence: null, decisionConsequence: 'high' })).toBeNull();
    expect(modelRiskOf({ modelInfluence: 'low', decisionConsequence: null })).toBeNull();
    expect(modelRiskOf({ modelInfluence: 'medium', decisionConsequence: 'medium' })).toBe(3);
  });
});

describe('createQuestionSchema', () => {
  it('trims, turns an empty context of use into none and defaults the grades', () => {
    expect(createQuestionSchema.parse({ question: '  Does it seal? ', contextOfUse: '  ' })).toEqual({
      question: 'Does it seal?',
      contextOfUse: null,
      modelInfluence: null,
      decisionConsequence: null,
    });
  });

  it('refuses an empty question with its message', () => {
    const result = createQuestionSchema.safeParse({ question: '  ' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Enter the question of interest.');
  });
});
