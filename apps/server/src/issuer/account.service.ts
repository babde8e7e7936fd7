import { hash, verify } from '@node-rs/argon2';
import type { AccountRepository, AccountRow } from './account.repository';
import { passwordProblems } from './password-policy';

/** argon2id (the library's default algorithm) with OWASP's recommended minimum cost. */
const argonOptions = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export class AccountError extends Error {
  constructor(
    readonly field: 'email' | 'fullName' | 'password' | 'currentPassword' | 'form',
    readonly problems: string[],
  ) {
    super(problems.join(' '));
  }
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Sign-up, sign-in and password change of the embedded issuer's local accounts. */
export class AccountService {
  // A real hash of a random password: verifying against it costs as much as a real check, so
  // response times do not reveal which e-mail addresses have accounts.
  private readonly decoyHash = hash(`decoy-${Math.random()}`, argonOptions);

  constructor(private readonly accounts: AccountRepository) {}

  async signUp(input: { email: string; fullName: string; password: string }): Promise<AccountRow> {
    const email = normaliseEmail(input.email);
    const fullName = input.fullName.trim().replace(/\s+/g, ' ');
    if (!emailPattern.test(email) || email.length > 254)
      throw new AccountError('email', ['Enter a valid e-mail address.']);
    if (fullName.length === 0) throw new AccountError('fullName', ['Enter your full name.']);
    if (fullName.length > 120) throw new AccountError('fullName', ['Use at most 120 characters for your name.']);
    const problems = passwordProblems(input.password, { email });
    if (problems.length > 0) throw new AccountError('password', problems);
    const created = await this.accounts.insert({
      email,
      fullName,
      passwordHash: await hash(input.password, argonOptions),
    });
    if (!created)
      throw new AccountError('email', ['An account with this e-mail address already exists. Sign in instead.']);
    return created;
  }

  /** The account for these credentials, or null. */
  async authenticate(emailInput: string, password: string): Promise<AccountRow | null> {
    const account = await this.accounts.findByEmail(normaliseEmail(emailInput));
    if (!account) {
      await verify(await this.decoyHash, password).catch(() => false);
      return null;
    }
    return (await verify(account.passwordHash, password)) ? account : null;
  }

  async changePassword(input: { email: string; currentPassword: string; newPassword: string }): Promise<void> {
    const account = await this.authenticate(input.email, input.currentPassword);
    if (!account) throw new AccountError('currentPassword', ['The e-mail address or current password is not correct.']);
    if (input.newPassword === input.currentPassword)
      throw new AccountError('password', ['Choose a password different from your current one.']);
    const problems = passwordProblems(input.newPassword, { email: account.email });
    if (problems.length > 0) throw new AccountError('password', problems);
    await this.accounts.updatePassword(account.id, await hash(input.newPassword, argonOptions));
  }

  async findById(id: string): Promise<AccountRow | null> {
    return this.accounts.findById(id);
  }
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
