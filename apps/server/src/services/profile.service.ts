import type { Profile } from '@insilico/contracts';
import type { UserRepository, UserRow } from '../repositories/user.repository';
import { ServiceError } from './errors';
import { userPictureUrl } from './picture-urls';

/** A profile change, already parsed by its contract schema (`updateProfileSchema`). */
export interface ProfileChanges {
  fullName?: string | undefined;
  jobTitle?: string | null | undefined;
}

/** The signed-in person's own profile (/my-account): name and job title are theirs, the e-mail the issuer's. */
export class ProfileService {
  constructor(private readonly users: UserRepository) {}

  get(user: UserRow): Profile {
    return { email: user.email, fullName: user.fullName, jobTitle: user.jobTitle, pictureUrl: userPictureUrl(user) };
  }

  async update(userId: string, changes: ProfileChanges): Promise<Profile> {
    const updated = await this.users.updateProfile(userId, {
      ...(changes.fullName !== undefined ? { fullName: changes.fullName } : {}),
      ...(changes.jobTitle !== undefined ? { jobTitle: changes.jobTitle } : {}),
    });
    if (!updated) throw new ServiceError(404, 'not_found', 'Your account no longer exists. Please sign in again.');
    return this.get(updated);
  }
}
