import type { Orm } from '../db/client';
import { AuthAttemptRepository } from './auth-attempt.repository';
import { DeviceRepository } from './device.repository';
import { InvitationRepository } from './invitation.repository';
import { MailRepository } from './mail.repository';
import { OnboardingRepository } from './onboarding.repository';
import { SubscriptionRepository } from './subscription.repository';

/** The repositories of the device-workspace domain, all on one connection or transaction. */
export interface WorkspaceRepositories {
  devices: DeviceRepository;
  invitations: InvitationRepository;
  onboarding: OnboardingRepository;
  mail: MailRepository;
  subscriptions: SubscriptionRepository;
  /** The sign-in throttle's counts (invitation links that are not valid). */
  authAttempts: AuthAttemptRepository;
}

function repositoriesOn(orm: Orm): WorkspaceRepositories {
  return {
    devices: new DeviceRepository(orm),
    invitations: new InvitationRepository(orm),
    onboarding: new OnboardingRepository(orm),
    mail: new MailRepository(orm),
    subscriptions: new SubscriptionRepository(orm),
    authAttempts: new AuthAttemptRepository(orm),
  };
}

/**
 * Gives services the domain's repositories, and runs a unit of work in one transaction
 * (everything in `work` must use the repositories it is handed, never the outer ones).
 */
export class WorkspaceStore {
  readonly repositories: WorkspaceRepositories;

  constructor(private readonly orm: Orm) {
    this.repositories = repositoriesOn(orm);
  }

  async transaction<T>(work: (repositories: WorkspaceRepositories) => Promise<T>): Promise<T> {
    return this.orm.transaction(async (tx) => work(repositoriesOn(tx)));
  }
}
