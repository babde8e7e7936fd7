import {
  cohortNotInWorkspaceMessage,
  imagingDatasetNotInProjectMessage,
  projectStageNotInWorkspaceMessage,
  questionNotInWorkspaceMessage,
  projectTitleProblem,
  projectTitleTakenMessage,
  teamNoMatchMessage,
  type CreatedProject,
  type CreateProjectBody,
  type ProjectTitleCheck,
} from '@insilico/contracts';
import type { DeviceRepository } from '../repositories/device.repository';
import type { LinkedRows } from '../repositories/project-creation.repository';
import type { UnitOfWork } from '../repositories/unit-of-work';
import { ServiceError } from './errors';
import { projectEvent } from '../events/kinds';
import { authorize } from './authorize';
import type { SsmService } from './ssm.service';
import { callerGrant } from './caller-grant';

export const versionNotInWorkspaceMessage = 'No such device version in this device workspace.';
export const previousProjectNotInWorkspaceMessage = 'No such project in this device workspace.';

const titleTaken = () => new ServiceError(409, 'project_title_taken', projectTitleTakenMessage);

/**
 * Creating a project (issue 5 item 1): the title rule of spec §5, a stage of the workspace, and cohorts, device
 * versions, question and team that all belong to the workspace, and SSMs configured in the wizard (issue 18);
 * written in one transaction together with the SSMs' build jobs and the removal of the creator's draft. The creator is always on the team. A device version still processing is
 * linked through its target project and joins when its job marks it ready (spec §4).
 */
export class ProjectCreationService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly devices: DeviceRepository,
    private readonly ssms: SsmService,
  ) {}

  /** The title step asks before it moves on: the spec message, the taken message, or null. */
  async checkTitle(userId: string, deviceId: string, name: string): Promise<ProjectTitleCheck> {
    await this.authorize(userId, deviceId);
    const problem = projectTitleProblem(name);
    if (problem) return { problem };
    const taken = await this.unitOfWork.repositories.projectCreation.titleTaken(deviceId, name.trim());
    return { problem: taken ? projectTitleTakenMessage : null };
  }

  /** `ssms` may be left out by in-process callers (benches, the operator's tools): none then. */
  async create(
    userId: string,
    deviceId: string,
    input: Omit<CreateProjectBody, 'ssms'> & { ssms?: CreateProjectBody['ssms'] },
  ): Promise<CreatedProject> {
    await this.authorize(userId, deviceId);
    const titleProblem = projectTitleProblem(input.name);
    if (titleProblem) throw new ServiceError(422, 'invalid_title', titleProblem);
    const name = input.name.trim();
    const device = await this.devices.findById(deviceId);
    if (!device?.developmentStages.includes(input.developmentStage))
      throw new ServiceError(422, 'invalid_stage', projectStageNotInWorkspaceMessage);
    const team = [...new Set([userId, ...input.teamUserIds])];
    // The SSMs of the wizard (issue 18): checked before the transaction (their patients are read), queued in it.
    const ssms = await this.ssms.prepareForNewProject(deviceId, input.cohortIds, input.ssms ?? []);

    const created = await this.unitOfWork.run(async (tx) => {
      const { projectCreation: repository, imaging, events } = tx;
      if (await repository.titleTaken(deviceId, name)) throw titleTaken();
      const linked = await repository.linked(deviceId, {
        cohortIds: input.cohortIds,
        versionIds: input.versionIds,
        userIds: team,
        questionId: input.questionId,
        basedOnProjectId: input.basedOnProjectId,
      });
      checkLinked(input, team, userId, linked);
      const project = await repository.insertProject({
        deviceId,
        name,
        developmentStage: input.developmentStage,
        questionId: input.questionId,
        basedOnProjectId: input.basedOnProjectId,
        createdBy: userId,
      });
      // A project of the same title committed since the check above.
      if (!project) throw titleTaken();
      await repository.addMembers(project.id, team, userId);
      await repository.addCohorts(project.id, input.cohortIds, userId);
      // Each SSM in progress with its build job; a refusal below rolls them back with the project.
      for (const ssm of ssms) await this.ssms.enqueueBuild(tx, { userId, deviceId, projectId: project.id }, ssm);
      const attached = await imaging.attachToProject(deviceId, userId, input.imagingDatasetIds, project.id);
      if (attached !== input.imagingDatasetIds.length)
        throw new ServiceError(404, 'imaging_dataset_not_found', imagingDatasetNotInProjectMessage);
      const ready = linked.versions.filter((version) => version.status === 'ready').map((version) => version.id);
      await repository.addVersions(project.id, ready, userId);
      await repository.targetVersions(
        project.id,
        linked.versions.filter((version) => version.status !== 'ready').map((version) => version.id),
      );
      await repository.drafts.delete(userId, deviceId);
      events.record({
        ...projectEvent(userId, deviceId, project.id, 'project.created'),
        after: {
          name,
          developmentStage: input.developmentStage,
          questionId: input.questionId,
          team,
          cohortIds: input.cohortIds,
          versionIds: input.versionIds,
          imagingDatasetIds: input.imagingDatasetIds,
          ssms: ssms.map((ssm) => ssm.name),
        },
      });
      return project;
    });

    // The team hears it from the project.created event (services/project-notifications.ts).
    return { id: created.id };
  }

  private async authorize(userId: string, deviceId: string): Promise<void> {
    authorize(
      'project.create',
      await callerGrant(userId, deviceId, (device, user) => this.devices.findMembership(device, user)),
    );
  }
}

/** Refuses ids of another workspace (404, as if they did not exist) and links that cannot be made (422/409). */
function checkLinked(
  input: Omit<CreateProjectBody, 'ssms'>,
  team: string[],
  creatorId: string,
  linked: LinkedRows,
): void {
  const missing = (wanted: string[], found: { id: string }[]) =>
    wanted.filter((id) => !found.some((row) => row.id === id));

  const missingCohorts = missing(input.cohortIds, linked.cohorts);
  if (missingCohorts.length > 0)
    throw new ServiceError(404, 'cohort_not_found', cohortNotInWorkspaceMessage, { cohortIds: missingCohorts });
  const failedCohort = linked.cohorts.find((cohort) => cohort.status === 'failed');
  if (failedCohort)
    throw new ServiceError(
      422,
      'cohort_failed',
      `The patient cohort ${failedCohort.name} could not be prepared. Choose another cohort or order it again.`,
    );

  const missingVersions = missing(input.versionIds, linked.versions);
  if (missingVersions.length > 0)
    throw new ServiceError(404, 'version_not_found', versionNotInWorkspaceMessage, { versionIds: missingVersions });
  const failedVersion = linked.versions.find((version) => version.status === 'failed');
  if (failedVersion)
    throw new ServiceError(
      422,
      'version_failed',
      `The device version ${failedVersion.name} could not be processed. Choose another version or upload it again.`,
    );
  // The schema holds one target project per version: a version processing for another project waits for it.
  const claimed = linked.versions.find((version) => version.status !== 'ready' && version.targetProjectId !== null);
  if (claimed)
    throw new ServiceError(
      409,
      'version_claimed',
      `The device version ${claimed.name} is still being processed for another project. Add it once it is ready.`,
    );

  const notMembers = team.filter(
    (id) => id !== creatorId && !linked.members.some((member) => member.userId === id && member.status === 'ok'),
  );
  if (notMembers.length > 0)
    throw new ServiceError(422, 'not_in_workspace', teamNoMatchMessage, { userIds: notMembers });

  if (input.questionId !== null && !linked.questionFound)
    throw new ServiceError(404, 'question_not_found', questionNotInWorkspaceMessage);
  if (input.basedOnProjectId !== null && !linked.basedOnFound)
    throw new ServiceError(404, 'project_not_found', previousProjectNotInWorkspaceMessage);
}
