import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { productName } from '../lib/page-layout';
import type { AccountRepository, AccountRow } from './account.repository';
import { passwordProblems } from './password-policy';

/** How long a mailed sign-up confirmation link works. */
export const signUpConfirmationHours = 24;

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

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

  constructor(
    private readonly accounts: AccountRepository,
    private readonly send: (mail: OutgoingMail) => Promise<void>,
  ) {}

  /**
   * Sign-up: answers the same whether or not the address has an account (no enumeration). A new address
   * gets a confirmation link (the account is created only when it is used); the owner of an existing
   * account gets a mail saying someone tried, and nothing changes. Both cost one argon2 hash.
   */
  async signUp(
    input: { email: string; fullName: string; password: string },
    link: { interactionUid: string | null; confirmUrl: (token: string) => string; signInUrl: string },
  ): Promise<{ email: string }> {
    const { email, fullName } = this.checkSignUp(input);
    const passwordHash = await hash(input.password, argonOptions);
    if (await this.accounts.findByEmail(email)) {
      await this.send({
        to: email,
        subject: `Someone tried to create an ${productName} account with your e-mail address`,
        text: `Hello,\n\nsomeone (perhaps you) tried to create a new ${productName} account with this e-mail address. It has an account already, which stays as it is.\n\nIf it was you, sign in with your password:\n${link.signInUrl}\n\nIf it was not you, you can ignore this message.\n`,
      });
      return { email };
    }
    const token = randomBytes(32).toString('base64url');
    await this.accounts.insertSignUp({
      tokenHash: hashToken(token),
      email,
      fullName,
      passwordHash,
      interactionUid: link.interactionUid,
      expiresAt: new Date(Date.now() + signUpConfirmationHours * 60 * 60 * 1000),
    });
    await this.send({
      to: email,
      subject: `Confirm your e-mail address for ${productName}`,
      text: `Hello ${fullName},\n\nto finish creating your ${productName} account, open this link:\n${link.confirmUrl(token)}\n\nThe link works for ${signUpConfirmationHours} hours. If you did not ask for an account, you can ignore this message.\n`,
    });
    return { email };
  }

  /** The sign-up's fields, normalised, or an AccountError naming the field. */
  checkSignUp(input: { email: string; fullName: string; password: string }): { email: string; fullName: string } {
    const email = normaliseEmail(input.email);
    const fullName = input.fullName.trim().replace(/\s+/g, ' ');
    if (!emailPattern.test(email) || email.length > 254)
      throw new AccountError('email', ['Enter a valid e-mail address.']);
    if (fullName.length === 0) throw new AccountError('fullName', ['Enter your full name.']);
    if (fullName.length > 120) throw new AccountError('fullName', ['Use at most 120 characters for your name.']);
    const problems = passwordProblems(input.password, { email });
    if (problems.length > 0) throw new AccountError('password', problems);
    return { email, fullName };
  }

  /** The pending sign-up of a mailed token (unexpired), or null. */
  async pendingSignUp(token: string): Promise<{ email: string; interactionUid: string | null } | null> {
    const signUp = await this.accounts.findSignUp(hashToken(token));
    return signUp ? { email: signUp.email, interactionUid: signUp.interactionUid } : null;
  }

  /**
   * Creates the account of a confirmed sign-up. The token proves the mailbox; the browser proves it is the
   * one that signed up (`sameSignIn`) or the password chosen at sign-up does: a link clicked by the
   * address's owner for a sign-up someone else started does not hand that someone the account.
   */
  async confirmSignUp(token: string, proof: { sameSignIn: boolean; password: string }): Promise<AccountRow> {
    const signUp = await this.accounts.findSignUp(hashToken(token));
    if (!signUp) throw new AccountError('form', [invalidConfirmationMessage]);
    if (!proof.sameSignIn && !(await verify(signUp.passwordHash, proof.password).catch(() => false)))
      throw new AccountError('password', ['Enter the password you chose when you created the account.']);
    const created = await this.accounts.insert({
      email: signUp.email,
      fullName: signUp.fullName,
      passwordHash: signUp.passwordHash,
    });
    await this.accounts.deleteSignUps(signUp.email);
    if (!created) throw new AccountError('form', ['This e-mail address has an account already. Sign in instead.']);
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

export const invalidConfirmationMessage =
  'This confirmation link is not valid or has expired. Create your account again to get a new one.';

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
