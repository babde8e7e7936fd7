import { LANDMARKS, ORGANS } from '@insilico/anatomy';
import {
  cohortEndpoints,
  cohortStatusSchema,
  pathOf,
  roomNameTakenMessage,
  type CreateRoom,
  type Room,
  type RoomListQuery,
  type RoomPage,
  type RoomScene,
  type RoomShareList,
  type RoomView,
  type SaveRoomSceneBody,
} from '@insilico/contracts';
import { decideProject, type ProjectAction } from '../policies/project.policy';
import type { BlobStore } from '../repositories/blob.repository';
import type { RoomListRow, RoomRepository } from '../repositories/room.repository';
import type { UnitOfWork } from '../repositories/unit-of-work';
import type { CohortService } from './cohort.service';
import type { ImagingPatientService, RoomAnatomy } from './imaging-patient.service';
import { ServiceError } from './errors';
import { projectEvent } from '../events/kinds';
import { removePictureFiles } from './picture-files';
import type { ProjectAccessGrant, ProjectAccessService } from './project-access.service';
import { parseSsmInstance, type SsmService } from './ssm.service';
import { defaultRoomName } from './room-names';
import { modelUrl, toRoom } from './room.mapper';

export const roomNotFoundMessage = 'This room does not exist in this project.';

/** A room the caller may act on, with the project grant that allowed it. */
export interface RoomGrant {
  access: ProjectAccessGrant;
  row: RoomListRow;
}

const landmarkNames: ReadonlySet<string> = new Set(LANDMARKS);
const organNames: ReadonlySet<string> = new Set(ORGANS);
const thorax = ['left_lung', 'rib_cage', 'right_lung'] as const;

/**
 * Rooms of a project (issue 5 items 7–8): list with filters, create on a patient of the project's cohorts or on one
 * of its SSMs (issue 18), rename,
 * delete, share with the team, and the scene (placements of the project's ready device versions, view settings,
 * the patient's anatomy). Reading needs `project.read`, every change `project.work` (project.policy.ts).
 */
export class RoomService {
  constructor(
    private readonly repository: RoomRepository,
    private readonly projects: ProjectAccessService,
    private readonly cohorts: CohortService,
    private readonly blobs: BlobStore,
    private readonly log: { warn(details: object, message: string): void },
    private readonly unitOfWork: UnitOfWork,
    /** Rooms on statistical shape models (issue 18); without it only patient rooms. */
    private readonly ssms: SsmService | null = null,
    /** Rooms on patients of imaging cohorts (issue 19); without it only virtual patients and SSMs. */
    private readonly imaging: ImagingPatientService | null = null,
  ) {}

  /** Loads a room of the project after the project policy allowed the action; 404 for a room of another project. */
  async require(
    action: ProjectAction,
    userId: string,
    deviceId: string,
    projectId: string,
    roomId: string,
  ): Promise<RoomGrant> {
    const access = await this.projects.require(action, userId, deviceId, projectId);
    const row = await this.repository.find(projectId, roomId);
    if (!row) throw new ServiceError(404, 'room_not_found', roomNotFoundMessage);
    return { access, row };
  }

  async list(userId: string, deviceId: string, projectId: string, query: RoomListQuery): Promise<RoomPage> {
    const access = await this.projects.require('project.read', userId, deviceId, projectId);
    const [{ rows, total }, patients, ssms, cohorts] = await Promise.all([
      this.repository.list(projectId, query, { offset: (query.page - 1) * query.pageSize, limit: query.pageSize }),
      this.repository.patientFacets(projectId),
      this.repository.ssmFacets(projectId),
      this.repository.projectCohorts(projectId),
    ]);
    return {
      items: await this.present(deviceId, rows),
      total,
      page: query.page,
      pageSize: query.pageSize,
      facets: { patients, ssms },
      cohorts: cohorts.map((cohort) => ({ ...cohort, status: cohortStatusSchema.parse(cohort.status) })),
      canEdit: decideProject('project.work', access.standing).allowed,
    };
  }

  async get(userId: string, deviceId: string, projectId: string, roomId: string): Promise<Room> {
    const { row } = await this.require('project.read', userId, deviceId, projectId, roomId);
    return this.presentOne(deviceId, row);
  }

  async create(userId: string, deviceId: string, projectId: string, input: CreateRoom): Promise<Room> {
    await this.projects.require('project.work', userId, deviceId, projectId);
    const subject = 'ssmId' in input ? await this.ssmSubject(userId, deviceId, projectId, input.ssmId) : null;
    const patient = 'cohortId' in input ? await this.patientSubject(projectId, input.cohortId, input.patientId) : null;
    const imaging = 'imagingDatasetId' in input ? await this.imagingSubject(projectId, input) : null;
    const base = subject?.name ?? ('patientId' in input ? input.patientId : '');
    const name = input.name ?? defaultRoomName(base, await this.repository.namesStartingWith(projectId, base));
    const room = await this.unitOfWork.run(async ({ rooms, events }) => {
      const inserted = await rooms.insert({
        projectId,
        name,
        cohortId: patient?.cohortId ?? null,
        patientIndex: patient?.patientIndex ?? null,
        ssmId: subject?.id ?? null,
        imagingDatasetId: imaging?.datasetId ?? null,
        imagingPatient: imaging?.id ?? null,
        createdBy: userId,
        scene: {},
      });
      if (inserted)
        events.record({
          ...projectEvent(userId, deviceId, projectId, 'room.created', { type: 'room', id: inserted.id }),
          after: {
            name,
            cohortId: patient?.cohortId ?? null,
            patientId: patient ? ('patientId' in input ? input.patientId : null) : null,
            ssmId: subject?.id ?? null,
            ...(imaging ? { imagingDatasetId: imaging.datasetId, patientId: imaging.id } : {}),
          },
        });
      return inserted;
    });
    if (!room) throw new ServiceError(409, 'room_name_taken', roomNameTakenMessage);
    return this.get(userId, deviceId, projectId, room.id);
  }

  /** A patient of one of the project's ready cohorts. */
  private async patientSubject(projectId: string, cohortId: string, patientId: string) {
    const cohort = await this.repository.projectCohort(projectId, cohortId);
    if (!cohort)
      throw new ServiceError(422, 'cohort_not_in_project', 'Choose a patient of one of this project’s cohorts.');
    if (cohort.status !== 'ready')
      throw new ServiceError(
        409,
        'cohort_not_ready',
        'The patients of this cohort are still being prepared. You get a notification when they are ready.',
      );
    const patientIndex = await this.repository.patientIndex(cohort.id, patientId);
    if (patientIndex === null)
      throw new ServiceError(422, 'patient_not_in_cohort', `Cohort ${cohort.name} has no patient ${patientId}.`);
    return { cohortId: cohort.id, patientIndex };
  }

  /** A patient of one of the project's ready imaging cohorts (the user's own data). */
  private async imagingSubject(projectId: string, input: { imagingDatasetId: string; patientId: string }) {
    if (!this.imaging)
      throw new ServiceError(
        422,
        'imaging_cohort_not_in_project',
        'Choose a patient of one of this project’s cohorts.',
      );
    return this.imaging.roomSubject(projectId, input.imagingDatasetId, input.patientId);
  }

  /** One of the project's SSMs, ready (a room shows its shapes). */
  private async ssmSubject(userId: string, deviceId: string, projectId: string, ssmId: string) {
    if (!this.ssms) throw new ServiceError(422, 'ssm_not_in_project', 'Choose one of this project’s SSMs.');
    const ssm = await this.ssms.get(userId, deviceId, projectId, ssmId).catch((error: unknown) => {
      if (error instanceof ServiceError && error.status === 404)
        throw new ServiceError(422, 'ssm_not_in_project', 'Choose one of this project’s SSMs.');
      throw error;
    });
    if (ssm.status !== 'ready')
      throw new ServiceError(
        409,
        'ssm_not_ready',
        ssm.status === 'failed'
          ? 'This shape model could not be built, so it has no shapes to show.'
          : 'This shape model is still being built. You get a notification when it is ready.',
      );
    return ssm;
  }

  async rename(userId: string, deviceId: string, projectId: string, roomId: string, name: string): Promise<Room> {
    const { row } = await this.require('project.work', userId, deviceId, projectId, roomId);
    if (row.room.name !== name) {
      if (await this.repository.nameTaken(projectId, name, roomId))
        throw new ServiceError(409, 'room_name_taken', roomNameTakenMessage);
      try {
        await this.unitOfWork.run(async ({ rooms, events }) => {
          await rooms.rename(roomId, name);
          events.record({
            ...projectEvent(userId, deviceId, projectId, 'room.renamed', { type: 'room', id: roomId }),
            before: { name: row.room.name },
            after: { name },
          });
        });
      } catch (error) {
        // Another rename to the same name won the race: the unique index says so.
        if (await this.repository.nameTaken(projectId, name, roomId))
          throw new ServiceError(409, 'room_name_taken', roomNameTakenMessage);
        throw error;
      }
    }
    return this.get(userId, deviceId, projectId, roomId);
  }

  /** Deletes the room with its placements, shares and screenshots (rows, then the screenshots' bytes). */
  async remove(userId: string, deviceId: string, projectId: string, roomId: string): Promise<void> {
    const { row } = await this.require('project.work', userId, deviceId, projectId, roomId);
    const files = await this.unitOfWork.run(async ({ rooms, events }) => {
      const deleted = await rooms.delete(roomId);
      events.record({
        ...projectEvent(userId, deviceId, projectId, 'room.deleted', { type: 'room', id: roomId }),
        before: { name: row.room.name },
      });
      return deleted;
    });
    await removePictureFiles(this.blobs, files, this.log);
  }

  /** The project team (without the caller) and whether the room is shared with each. */
  async shareList(userId: string, deviceId: string, projectId: string, roomId: string): Promise<RoomShareList> {
    await this.require('project.read', userId, deviceId, projectId, roomId);
    const [team, shares] = await Promise.all([this.repository.team(projectId), this.repository.shares([roomId])]);
    const sharedAt = new Map(shares.map((share) => [share.userId, share.sharedAt]));
    return {
      items: team
        .filter((person) => person.userId !== userId)
        .map((person) => ({
          userId: person.userId,
          name: person.name,
          email: person.email,
          shared: sharedAt.has(person.userId),
          sharedAt: sharedAt.get(person.userId)?.toISOString() ?? null,
        })),
    };
  }

  /** Shares the room with members of the project team; each newly shared person is notified (from the event). */
  async share(
    userId: string,
    deviceId: string,
    projectId: string,
    roomId: string,
    userIds: readonly string[],
  ): Promise<RoomShareList> {
    const { access, row } = await this.require('project.work', userId, deviceId, projectId, roomId);
    const team = await this.repository.team(projectId);
    const onTeam = new Set(team.map((person) => person.userId));
    const wanted = [...new Set(userIds)];
    const outsiders = wanted.filter((id) => !onTeam.has(id));
    if (outsiders.length > 0)
      throw new ServiceError(422, 'not_on_team', 'A room can be shared only with members of the project team.', {
        userIds: outsiders,
      });
    await this.unitOfWork.run(async ({ rooms, events }) => {
      const before = (await rooms.shares([roomId])).map((share) => share.userId);
      const newlyShared = await rooms.share(
        roomId,
        wanted.filter((id) => id !== userId),
        userId,
      );
      if (newlyShared.length > 0)
        events.record({
          ...projectEvent(userId, deviceId, projectId, 'room.shared', { type: 'room', id: roomId }),
          before: { sharedWith: before },
          after: { sharedWith: [...before, ...newlyShared], room: row.room.name, project: access.project.name },
        });
    });
    // Whoever it was newly shared with hears it from the room.shared event (services/project-notifications.ts).
    return this.shareList(userId, deviceId, projectId, roomId);
  }

  async scene(userId: string, deviceId: string, projectId: string, roomId: string): Promise<RoomScene> {
    const { access, row } = await this.require('project.read', userId, deviceId, projectId, roomId);
    const [room, anatomy, placements, versions] = await Promise.all([
      this.presentOne(deviceId, row),
      this.anatomyOf(userId, deviceId, row),
      this.repository.placements(roomId),
      this.repository.readyVersions(projectId),
    ]);
    const saved = (row.room.scene as { view?: Partial<RoomView> }).view ?? {};
    return {
      room,
      anatomy: {
        // A room on an SSM offers the mean and the shape it was saved on (a named instance of the model).
        phases:
          saved.phase && !anatomy.phases.includes(saved.phase) && anatomy.shows(saved.phase)
            ? [...anatomy.phases, saved.phase]
            : anatomy.phases,
        organs: anatomy.organs,
        meshUrlTemplate: anatomy.meshUrlTemplate,
        landmarksUrlTemplate: anatomy.landmarksUrlTemplate,
      },
      // A room never saved shows the heart; the thorax can be switched on (as the patient page does).
      view: { phase: saved.phase ?? null, hiddenOrgans: saved.hiddenOrgans ?? [...thorax] },
      placements: placements.map((placement) => ({
        id: placement.id,
        versionId: placement.versionId,
        versionName: placement.versionName,
        transform: placement.transform as RoomScene['placements'][number]['transform'],
        landmark: placement.landmark,
      })),
      versions: versions.map((version) => ({
        id: version.id,
        name: version.name,
        files: version.files.map((file) => ({
          id: file.id,
          fileName: file.fileName,
          modelUrl: modelUrl(deviceId, version.id, file.id),
        })),
      })),
      canEdit: decideProject('project.work', access.standing).allowed,
    };
  }

  /** Replaces the saved scene: placements of ready versions of the project, and the view settings. */
  async saveScene(
    userId: string,
    deviceId: string,
    projectId: string,
    roomId: string,
    input: SaveRoomSceneBody,
  ): Promise<RoomScene> {
    const { row } = await this.require('project.work', userId, deviceId, projectId, roomId);
    const anatomy = await this.anatomyOf(userId, deviceId, row);
    const { view } = input;
    if (view.phase !== null && !anatomy.shows(view.phase))
      throw new ServiceError(
        422,
        'unknown_phase',
        row.room.ssmId
          ? `Shape ${view.phase} is not one this room shows.`
          : `Patient ${row.patientId ?? ''} has no images for the phase ${view.phase}.`,
      );
    const unknownOrgans = view.hiddenOrgans.filter(
      (organ) => !organNames.has(organ) && !anatomy.organs.includes(organ),
    );
    if (unknownOrgans.length > 0)
      throw new ServiceError(422, 'unknown_organ', `Unknown organ: ${unknownOrgans.join(', ')}.`);
    const ready = new Set((await this.repository.readyVersions(projectId)).map((version) => version.id));
    const placements = input.placements.map((placement, index) => {
      if (!ready.has(placement.versionId))
        throw new ServiceError(
          422,
          'version_not_placeable',
          'Only device versions of this project that have finished processing can be placed.',
          { index, versionId: placement.versionId },
        );
      const { landmark } = placement;
      if (landmark !== null && !landmarkNames.has(landmark) && !anatomy.landmarks?.has(landmark))
        throw new ServiceError(422, 'unknown_landmark', `Unknown landmark: ${landmark}.`, { index });
      return { versionId: placement.versionId, transform: { ...placement.transform }, landmark };
    });
    await this.unitOfWork.run(async ({ rooms, events }) => {
      await rooms.replacePlacements(roomId, placements, userId);
      await rooms.touch(roomId, {
        ...row.room.scene,
        view: { phase: view.phase, hiddenOrgans: [...new Set(view.hiddenOrgans)] },
      });
      events.record({
        ...projectEvent(userId, deviceId, projectId, 'room.scene_saved', { type: 'room', id: roomId }),
        after: { placements, view },
      });
    });
    return this.scene(userId, deviceId, projectId, roomId);
  }

  /**
   * What the room shows, with its mesh and landmark URLs: the patient with its mesh phases, read through the cohort
   * API's own check (guests read the cohorts of the projects they are on), the SSM's shapes through the SSM API's,
   * or an imaging patient's delivered surfaces through the imaging cohort API's.
   */
  private async anatomyOf(
    userId: string,
    deviceId: string,
    row: RoomListRow,
  ): Promise<RoomAnatomy & { landmarks?: ReadonlySet<string> }> {
    const { cohortId, ssmId, projectId, imagingDatasetId, imagingPatient } = row.room;
    if (imagingDatasetId !== null && imagingPatient !== null && this.imaging) {
      const anatomy = await this.imaging.roomAnatomy(userId, deviceId, projectId, imagingDatasetId, imagingPatient);
      return { ...anatomy, landmarks: new Set(anatomy.patient.landmarks.map((l) => l.name)) };
    }
    if (ssmId !== null && this.ssms) {
      const anatomy = await this.ssms.roomAnatomy(userId, deviceId, projectId, ssmId);
      const { phases, organs, meshUrlTemplate, landmarksUrlTemplate, modeCount } = anatomy;
      // Any shape within ±3 SD may be shown, not only the listed mean.
      const shows = (shape: string) => parseSsmInstance(shape, modeCount) !== null;
      return { phases, organs: [...organs], meshUrlTemplate, landmarksUrlTemplate, shows };
    }
    if (cohortId === null || row.patientId === null)
      throw new ServiceError(409, 'no_anatomy', 'This room shows neither a patient nor a shape model.');
    const patient = await this.cohorts.patient(userId, deviceId, cohortId, row.patientId);
    const patientPath = pathOf(cohortEndpoints.patient, {
      deviceId,
      cohortId: patient.cohortId,
      patientId: patient.id,
    });
    const phases = patient.meshes.phases;
    return {
      phases,
      shows: (phase: string) => phases.includes(phase),
      organs: patient.meshes.organs,
      meshUrlTemplate: `${patientPath}/meshes/{phase}`,
      landmarksUrlTemplate: `${patientPath}/meshes/{phase}/landmarks`,
    };
  }

  private async presentOne(deviceId: string, row: RoomListRow): Promise<Room> {
    const [room] = await this.present(deviceId, [row]);
    return room!;
  }

  private async present(deviceId: string, rows: readonly RoomListRow[]): Promise<Room[]> {
    const ids = rows.map((row) => row.room.id);
    const [placementCounts, screenshots, shares, simulated] = await Promise.all([
      this.repository.placementCounts(ids),
      this.repository.screenshotSummaries(ids),
      this.repository.shares(ids),
      this.repository.simulated(ids),
    ]);
    return rows.map((row) =>
      toRoom(deviceId, row, {
        placementCount: placementCounts.get(row.room.id) ?? 0,
        hasSimulation: simulated.has(row.room.id),
        screenshots: screenshots.get(row.room.id),
        sharedWith: shares
          .filter((share) => share.roomId === row.room.id)
          .map((share) => ({ id: share.userId, name: share.name })),
      }),
    );
  }
}
