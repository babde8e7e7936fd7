import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { alreadySignedMessage } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { stubApi } from '../../../../test/helpers/stubApi';
import { SignDialog } from './SignDialog';

const entryId = '33333333-3333-4333-8333-333333333333';
const providerAddress = 'https://login.example.com/authorize?prompt=login&max_age=0&state=s';
let answer: Response;
const posted: { path: string; body: unknown }[] = [];
const assign = vi.fn<(url: string) => void>();

function renderDialog(method: 'password' | 'issuer') {
  renderWithProviders(
    <SignDialog
      deviceId="d-1"
      record={{ type: 'entry', id: entryId }}
      recordTitle="Sizing range"
      signerName="Ada Admin"
      needsEmail
      method={method}
      onClose={() => {}}
      onSigned={() => {}}
    />,
  );
}

beforeEach(() => {
  posted.length = 0;
  assign.mockReset();
  answer = jsonResponse(201, { location: providerAddress, expiresAt: '2026-11-28T16:05:00.000Z' });
  vi.stubGlobal('location', { ...window.location, pathname: '/design-history', search: '?projectId=p-1', assign });
  stubApi((url, init) => {
    posted.push({ path: url.pathname, body: JSON.parse(String(init?.body)) as unknown });
    return answer;
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SignDialog with an external identity provider', () => {
  it('asks for no password and sends the signer to the provider’s sign-in with the meaning chosen', async () => {
    renderDialog('issuer');
    expect(screen.queryByLabelText(/Password/)).toBeNull();
    expect(screen.queryByLabelText(/E-mail/)).toBeNull();
    expect(screen.getByText(/sign in there again to confirm that it is you/)).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Approved'));
    fireEvent.click(screen.getByRole('button', { name: 'Continue to sign in' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(providerAddress));
    expect(posted).toEqual([
      {
        path: '/api/devices/d-1/design-history/signatures/reauthentication',
        body: {
          record: { type: 'entry', id: entryId },
          meaning: 'approval',
          returnTo: '/design-history?projectId=p-1',
        },
      },
    ]);
    // It stays busy while the browser leaves for the provider.
    expect(screen.getByRole('button', { name: 'Continue to sign in' }).hasAttribute('disabled')).toBe(true);
  });

  it('shows the server’s refusal and stays on the page', async () => {
    answer = jsonResponse(409, { error: { code: 'already_signed', message: alreadySignedMessage } });
    renderDialog('issuer');
    fireEvent.click(screen.getByRole('button', { name: 'Continue to sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe(alreadySignedMessage);
    expect(assign).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Continue to sign in' }).hasAttribute('disabled')).toBe(false);
  });

  it('asks for the password (and the e-mail at first) with the embedded issuer', () => {
    renderDialog('password');
    expect(screen.getByLabelText(/Password/)).toBeTruthy();
    expect(screen.getByLabelText(/E-mail/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign' })).toBeTruthy();
  });
});
