import type { SupportPerson, SupportRepository } from '../repositories/support.repository';
import { ServiceError } from './errors';

/**
 * Who is support staff (`users.is_support`). Operators only — the loopback operator route and
 * `npm run operator -- support-staff` — never through the API.
 */
export class SupportStaffService {
  constructor(private readonly repository: SupportRepository) {}

  /** Grants or withdraws the flag for every account with this e-mail (a person must have signed in once). */
  async set(email: string, isSupport: boolean): Promise<SupportPerson[]> {
    const changed = await this.repository.setSupportStaff(email.trim(), isSupport);
    if (changed.length === 0)
      throw new ServiceError(404, 'not_found', `Nobody with the e-mail ${email} has signed in yet.`);
    return changed;
  }

  async list(): Promise<SupportPerson[]> {
    return this.repository.listSupportStaff();
  }
}
