import { modelRiskOf, type CreateQuestionBody, type Question, type QuestionList } from '@insilico/contracts';
import type { DeviceRepository } from '../repositories/device.repository';
import type { QuestionListRow, QuestionRepository } from '../repositories/question.repository';
import type { UnitOfWork } from '../repositories/unit-of-work';
import { workspaceEvent } from '../events/kinds';
import { authorize } from './authorize';
import { callerGrant } from './caller-grant';

/**
 * Questions of interest of a workspace (issue 5 item 2), reusable across its projects. Reading and writing them
 * belongs to creating projects (`project.create`); guests meet a question only through their projects.
 */
export class QuestionService {
  constructor(
    private readonly repository: QuestionRepository,
    private readonly devices: DeviceRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async list(userId: string, deviceId: string): Promise<QuestionList> {
    await this.authorize(userId, deviceId);
    return { items: (await this.repository.list(deviceId)).map(toQuestion) };
  }

  async create(userId: string, deviceId: string, input: CreateQuestionBody): Promise<Question> {
    await this.authorize(userId, deviceId);
    const row = await this.unitOfWork.run(async (tx) => {
      const inserted = await tx.questions.insert({ deviceId, createdBy: userId, ...input });
      tx.events.record({
        ...workspaceEvent(userId, deviceId, 'question.created', { type: 'question', id: inserted.id }),
        after: { ...input },
      });
      return inserted;
    });
    // Read back with the author's name, as the list shows it.
    const created = await this.repository.find(deviceId, row.id);
    return toQuestion(created ?? { question: row, creatorName: null, projectCount: 0 });
  }

  private async authorize(userId: string, deviceId: string): Promise<void> {
    authorize(
      'project.create',
      await callerGrant(userId, deviceId, (device, user) => this.devices.findMembership(device, user)),
    );
  }
}

function toQuestion(row: QuestionListRow): Question {
  const { question } = row;
  const grade = (value: string | null) => (value === 'low' || value === 'medium' || value === 'high' ? value : null);
  const modelInfluence = grade(question.modelInfluence);
  const decisionConsequence = grade(question.decisionConsequence);
  return {
    id: question.id,
    question: question.question,
    contextOfUse: question.contextOfUse,
    modelInfluence,
    decisionConsequence,
    modelRiskLevel: modelRiskOf({ modelInfluence, decisionConsequence }),
    createdBy: question.createdBy ? { id: question.createdBy, fullName: row.creatorName ?? '' } : null,
    createdAt: question.createdAt.toISOString(),
    projectCount: row.projectCount,
  };
}
