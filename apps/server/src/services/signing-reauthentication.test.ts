import {
  reauthenticationExpiredMessage,
  reauthenticationNotFreshMessage,
  reauthenticationOtherAccountMessage,
  signatureWithPasswordMessage,
} from '@insilico/contracts';
import { describe, expect, it, vi } from 'vitest';
import type { SigningReauthenticationRow } from '../repositories/signing-reauthentication.repository';
import type { UserRow } from '../repositories/user.repository';
import type { DesignHistoryService, SignableRecord } from './design-history.service';
import { signingSessionKey } from './design-history.service';
import {
  authTimeToleranceSeconds,
  reauthenticationProblem,
  SigningReauthenticationService,
  withSignedMarker,
  type SigningIssuer,
} from './signing-reauthentication.service';

const user = { id: 'u-1', issuer: 'https://login.example.com', subject: 'sub-1' } as UserRow;
const startedAt = new Date('2026-11-28T15:00:00.000Z');
const startedAtSeconds = startedAt.getTime() / 1000;
const identity = (changes: Partial<{ issuer: string; subject: string; authTime: number | null }> = {}) => ({
  issuer: user.issuer,
  subject: user.subject,
  authTime: startedAtSeconds + 20,
  ...changes,
});

describe('reauthenticationProblem', () => {
  it('accepts a sign-in of the same person made after the signing began', () => {
    expect(reauthenticationProblem(identity(), user, startedAt)).toBeNull();
    expect(reauthenticationProblem(identity({ authTime: startedAtSeconds }), user, startedAt)).toBeNull();
  });

  it('allows the issuer’s clock to be a few seconds behind, no more', () => {
    const edge = startedAtSeconds - authTimeToleranceSeconds;
    expect(reauthenticationProblem(identity({ authTime: edge }), user, startedAt)).toBeNull();
    expect(reauthenticationProblem(identity({ authTime: startedAtSeconds - 600 }), user, startedAt)).toBe(
      reauthenticationNotFreshMessage,
    );
  });

  it('refuses a token without auth_time', () => {
    expect(reauthenticationProblem(identity({ authTime: null }), user, startedAt)).toBe(
      reauthenticationNotFreshMessage,
    );
  });

  it('refuses another person, or the same subject at another issuer', () => {
    expect(reauthenticationProblem(identity({ subject: 'sub-2' }), user, startedAt)).toBe(
      reauthenticationOtherAccountMessage,
    );
    expect(reauthenticationProblem(identity({ issuer: 'https://other.example.com' }), user, startedAt)).toBe(
      reauthenticationOtherAccountMessage,
    );
  });
});

describe('SigningReauthenticationService', () => {
  const record: SignableRecord = {
    projectId: 'p-1',
    manifestSource: { type: 'event', row: { id: 42 } as SignableRecord['manifestSource']['row'] } as never,
  };
  const token = 'session-token';
  const pending = (changes: Partial<SigningReauthenticationRow> = {}): SigningReauthenticationRow => ({
    stateHash: 'h',
    userId: user.id,
    sessionKey: signingSessionKey(token),
    deviceId: 'd-1',
    recordType: 'event',
    recordId: '42',
    meaning: 'approval',
    nonce: 'n',
    codeVerifier: 'v',
    returnTo: '/design-history',
    createdAt: startedAt,
    expiresAt: new Date(startedAt.getTime() + 300_000),
    ...changes,
  });

  function service(options: { issuer?: SigningIssuer | null; taken?: SigningReauthenticationRow | null; now?: Date }) {
    const designHistory = {
      signable: vi.fn(() => Promise.resolve(record)),
      refuseSignedAlready: vi.fn(() => Promise.resolve()),
      writeSignature: vi.fn(() => Promise.resolve({})),
    };
    const repository = {
      insert: vi.fn(() => Promise.resolve()),
      take: vi.fn(() => Promise.resolve(options.taken ?? null)),
    };
    const issuer =
      options.issuer === undefined
        ? {
            authorizationUrl: vi.fn(() => Promise.resolve(new URL('https://login.example.com/authorize?x=1'))),
            exchange: vi.fn(() =>
              Promise.resolve({ ...identity(), email: 'a@example.com', fullName: 'A', idToken: 't' }),
            ),
          }
        : options.issuer;
    const subject = new SigningReauthenticationService({
      issuer,
      repository: repository as never,
      designHistory: designHistory as unknown as DesignHistoryService,
      sessions: { resolveUser: () => Promise.resolve(user) },
      now: () => options.now ?? new Date(startedAt.getTime() + 30_000),
    });
    return { subject, designHistory, repository, issuer };
  }
  const callbackUrl = new URL('http://app.example.com/api/auth/callback?code=c&state=s');

  it('with the embedded issuer, refuses to begin (409: sign with the password) and stores nothing', async () => {
    const { subject, repository } = service({ issuer: null });
    const refusal = await subject
      .begin(user, 'd-1', { record: { type: 'event', id: '42' }, meaning: 'approval' }, token)
      .catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 409, message: signatureWithPasswordMessage });
    expect(repository.insert).not.toHaveBeenCalled();
  });

  it('asks the issuer for a fresh sign-in and keeps the signing bound to the session, not the state itself', async () => {
    const { subject, repository, issuer } = service({});
    await subject.begin(user, 'd-1', { record: { type: 'event', id: '42' }, meaning: 'approval' }, token);
    expect(issuer!.authorizationUrl).toHaveBeenCalledWith(expect.anything(), { freshSignIn: true });
    const [secrets] = vi.mocked(issuer!.authorizationUrl).mock.calls[0]!;
    const [row] = vi.mocked(repository.insert).mock.calls[0] as unknown as [SigningReauthenticationRow];
    expect(row).toMatchObject({ sessionKey: signingSessionKey(token), recordId: '42', nonce: secrets.nonce });
    expect(row.stateHash).not.toBe(secrets.state);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(300_000);
  });

  it('leaves a callback that is not a signing’s to the sign-in (null)', async () => {
    const { subject, designHistory } = service({ taken: null });
    expect(await subject.complete(token, callbackUrl)).toBeNull();
    expect(designHistory.writeSignature).not.toHaveBeenCalled();
  });

  it('refuses an expired signing before the issuer is asked', async () => {
    const { subject, issuer, designHistory } = service({
      taken: pending(),
      now: new Date(startedAt.getTime() + 301_000),
    });
    await expect(subject.complete(token, callbackUrl)).rejects.toMatchObject({
      status: 400,
      message: reauthenticationExpiredMessage,
    });
    expect(issuer!.exchange).not.toHaveBeenCalled();
    expect(designHistory.writeSignature).not.toHaveBeenCalled();
  });

  it('refuses a token whose sign-in predates the signing (an issuer that ignored prompt=login)', async () => {
    const issuer: SigningIssuer = {
      authorizationUrl: vi.fn(),
      exchange: vi.fn(() =>
        Promise.resolve({
          ...identity({ authTime: startedAtSeconds - 3600 }),
          email: 'a@example.com',
          fullName: 'A',
          idToken: 't',
        }),
      ),
    };
    const { subject, designHistory } = service({ issuer, taken: pending() });
    await expect(subject.complete(token, callbackUrl)).rejects.toMatchObject({
      status: 400,
      message: reauthenticationNotFreshMessage,
    });
    expect(issuer.exchange).toHaveBeenCalledWith(
      callbackUrl,
      { state: 's', nonce: 'n', codeVerifier: 'v' },
      { maxAge: 0 },
    );
    expect(designHistory.writeSignature).not.toHaveBeenCalled();
  });

  it('signs with the authentication recorded when the token shows a fresh sign-in of the signer', async () => {
    const { subject, designHistory } = service({ taken: pending() });
    expect(await subject.complete(token, callbackUrl)).toEqual({ location: '/design-history?signed=1' });
    expect(designHistory.writeSignature).toHaveBeenCalledWith(
      user,
      'd-1',
      record,
      { record: { type: 'event', id: '42' }, meaning: 'approval' },
      signingSessionKey(token),
      {
        method: 'issuer',
        issuer: user.issuer,
        authenticatedAt: new Date((startedAtSeconds + 20) * 1000).toISOString(),
      },
    );
  });
});

describe('withSignedMarker', () => {
  it('adds signed=1 to the page to go back to, keeping its path, query and fragment', () => {
    expect(withSignedMarker('/design-history')).toBe('/design-history?signed=1');
    expect(withSignedMarker('/design-history?projectId=p-1&section=review#top')).toBe(
      '/design-history?projectId=p-1&section=review&signed=1#top',
    );
    expect(withSignedMarker('/design-history?signed=0')).toBe('/design-history?signed=1');
  });
});
