import {
  bodyPartProblem,
  companyProblem,
  developmentStagesProblem,
  deviceInfoProblem,
  onboardingStateSchema,
  onboardingSteps,
  type Onboarding,
  type OnboardingComplete,
  type OnboardingState,
  type SaveOnboarding,
} from '@insilico/contracts';
import { mayCreateWorkspace } from '../policies/workspace.policy';
import type { UnitOfWork } from '../repositories/unit-of-work';
import { refuseProblems, type DeviceService } from './device.service';
import { validationMessage } from '../lib/validation-message';
import { ServiceError } from './errors';
import type { PictureService } from './picture.service';
import type { Actor } from './workspace.mapper';

const emptyState: OnboardingState = {
  bodyPart: null,
  developmentPhase: null,
  deviceInfo: null,
  yourCompany: null,
  yourTeam: [],
  stepActive: 1,
  stepInfo: {},
};

/** The first required step (1–4) the state has not answered, if any. */
function missingStep(state: OnboardingState, before: number): { step: number; header: string } | null {
  const answered = [
    state.bodyPart !== null,
    state.developmentPhase !== null && state.developmentPhase.length > 0,
    state.deviceInfo !== null,
    state.yourCompany !== null,
  ];
  for (let index = 0; index < answered.length && index + 1 < before; index += 1)
    if (!answered[index]) return { step: index + 1, header: onboardingSteps[index]!.header };
  return null;
}

/** The onboarding of spec §2/§3: saved after every step, completed into a workspace. */
export class OnboardingService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly devices: DeviceService,
    private readonly pictures: Pick<PictureService, 'newDevicePictureUrl' | 'adoptNewDevicePicture'>,
  ) {}

  async get(actor: Actor): Promise<Onboarding> {
    const workspaces = await this.unitOfWork.repositories.devices.listForUser(actor.id);
    return {
      state: await this.state(actor.id),
      mayCreateWorkspace: mayCreateWorkspace(actor),
      workspaceCount: workspaces.length,
      devicePicture: await this.pictures.newDevicePictureUrl(actor.id),
    };
  }

  /** Saves the whole state after a step; a step can only be active once the steps before it are answered. */
  async save(actor: Actor, input: SaveOnboarding): Promise<OnboardingState> {
    if (!mayCreateWorkspace(actor))
      throw new ServiceError(403, 'forbidden', 'You may not create a device workspace. Ask for an invitation.');
    const parsed = onboardingStateSchema.safeParse({ ...emptyState, ...input });
    if (!parsed.success)
      throw new ServiceError(400, 'bad_request', validationMessage(parsed.error.issues), parsed.error.issues);
    const state = await this.withDefaultCompany(actor.id, parsed.data);
    refuseProblems([
      state.bodyPart ? bodyPartProblem(state.bodyPart) : null,
      state.developmentPhase ? developmentStagesProblem(state.developmentPhase) : null,
      state.deviceInfo ? deviceInfoProblem(state.deviceInfo) : null,
      state.yourCompany ? companyProblem(state.yourCompany) : null,
    ]);
    const missing = missingStep(state, state.stepActive);
    if (missing) throw new ServiceError(400, 'invalid', `Please complete the step “${missing.header}” first.`);
    const { stepActive, ...rest } = state;
    await this.unitOfWork.repositories.onboarding.save(actor.id, stepActive, rest);
    return state;
  }

  /** Creates the workspace from the saved state (the user becomes its admin) and invites the team. */
  async complete(actor: Actor): Promise<OnboardingComplete> {
    const state = await this.state(actor.id);
    const missing = missingStep(state, 5);
    if (missing) throw new ServiceError(400, 'invalid', `Please complete the step “${missing.header}” first.`);
    const created = await this.devices.create(
      actor,
      {
        bodyParts: [state.bodyPart!],
        developmentStages: state.developmentPhase!,
        deviceInfo: state.deviceInfo!,
        company: state.yourCompany!,
        team: state.yourTeam,
      },
      { clearOnboarding: true },
    );
    // The picture of the Device details step becomes the new workspace's device picture.
    const devicePicture = await this.pictures.adoptNewDevicePicture(actor.id, created.device.deviceId);
    return devicePicture ? { ...created, device: { ...created.device, devicePicture } } : created;
  }

  /**
   * The saved state. A user who has a workspace creates a further one through Add device, which
   * has no company step: the company defaults to that of their selected workspace.
   */
  private async state(userId: string): Promise<OnboardingState> {
    const row = await this.unitOfWork.repositories.onboarding.find(userId);
    const parsed = row
      ? onboardingStateSchema.safeParse({ ...emptyState, ...row.state, stepActive: row.stepActive })
      : null;
    return this.withDefaultCompany(userId, parsed?.success ? parsed.data : emptyState);
  }

  private async withDefaultCompany(userId: string, state: OnboardingState): Promise<OnboardingState> {
    if (state.yourCompany !== null) return state;
    const company = await this.devices.companyOfSelected(userId);
    return company ? { ...state, yourCompany: company } : state;
  }
}
