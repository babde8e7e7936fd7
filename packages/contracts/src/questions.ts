import { z } from 'zod';
import { text } from './text';

/**
 * Questions of interest (issue 5 item 2): the question a project answers, with the optional ASME V&V 40 fields
 * (context of use, model influence, decision consequence) from which the model risk level follows. The matrix
 * and its source are in docs/decisions/question-of-interest-risk.md.
 */

/** The three grades V&V 40 uses for both model influence and decision consequence. */
export const vv40Grades = ['low', 'medium', 'high'] as const;
export type Vv40Grade = (typeof vv40Grades)[number];
export const vv40GradeSchema = z.enum(vv40Grades);

/** Model risk levels 1 (lowest) to 5 (highest) of the V&V 40 example risk matrix. */
export type ModelRiskLevel = 1 | 2 | 3 | 4 | 5;

/**
 * The model risk level of ASME V&V 40-2018 (Figure 5-1, the example model risk matrix, reproduced in the FDA
 * guidance on computational modeling credibility, 2023): each grade step of either axis raises the level by one,
 * so low × low is 1, high × high is 5, and the two axes weigh equally.
 */
export function modelRiskLevel(influence: Vv40Grade, consequence: Vv40Grade): ModelRiskLevel {
  return (vv40Grades.indexOf(influence) + vv40Grades.indexOf(consequence) + 1) as ModelRiskLevel;
}

/** The level when both axes are known, otherwise null (both fields are optional). */
export function modelRiskOf(question: {
  modelInfluence: Vv40Grade | null;
  decisionConsequence: Vv40Grade | null;
}): ModelRiskLevel | null {
  const { modelInfluence, decisionConsequence } = question;
  return modelInfluence && decisionConsequence ? modelRiskLevel(modelInfluence, decisionConsequence) : null;
}

export const vv40GradeLabels: Readonly<Record<Vv40Grade, string>> = { low: 'Low', medium: 'Medium', high: 'High' };

export const questionMaxLength = 500;
export const contextOfUseMaxLength = 2000;
export const questionRequiredMessage = 'Enter the question of interest.';
export const questionTooLongMessage = `The question can have at most ${questionMaxLength} characters.`;
export const contextOfUseTooLongMessage = `The context of use can have at most ${contextOfUseMaxLength} characters.`;

/** `POST /api/devices/:deviceId/questions-of-interest`. */
export const createQuestionSchema = z.object({
  question: text().trim().min(1, questionRequiredMessage).max(questionMaxLength, questionTooLongMessage),
  contextOfUse: text()
    .trim()
    .max(contextOfUseMaxLength, contextOfUseTooLongMessage)
    .nullable()
    .optional()
    // An empty context of use is no context of use.
    .transform((value) => (value ? value : null)),
  modelInfluence: vv40GradeSchema.nullable().default(null),
  decisionConsequence: vv40GradeSchema.nullable().default(null),
});
export type CreateQuestion = z.input<typeof createQuestionSchema>;
export type CreateQuestionBody = z.infer<typeof createQuestionSchema>;

export const questionSchema = z.object({
  id: text(),
  question: text(),
  contextOfUse: text().nullable(),
  modelInfluence: vv40GradeSchema.nullable(),
  decisionConsequence: vv40GradeSchema.nullable(),
  /** Derived from influence × consequence; null while either is unknown. */
  modelRiskLevel: z.number().int().min(1).max(5).nullable(),
  createdBy: z.object({ id: text(), fullName: text() }).nullable(),
  createdAt: text(),
  /** Projects of the workspace that use the question. */
  projectCount: z.number().int(),
});
export type Question = z.infer<typeof questionSchema>;

export const questionListSchema = z.object({ items: z.array(questionSchema) });
export type QuestionList = z.infer<typeof questionListSchema>;
