import type { ReactElement, ReactNode } from 'react';
import { render, type RenderResult } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { ThemeProvider } from '@mui/material/styles';
import { swrConfig } from '../../src/app/swrConfig';
import { theme } from '../../src/app/theme';

/** The app's SWR settings with a fresh cache per test, no automatic error retries, and the theme. */
export function TestProviders({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <SWRConfig value={{ ...swrConfig, provider: () => new Map(), shouldRetryOnError: false }}>{children}</SWRConfig>
    </ThemeProvider>
  );
}

export function renderWithProviders(ui: ReactElement): RenderResult {
  return render(ui, { wrapper: TestProviders });
}

/** A `Response` with a JSON body. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export const testUser = {
  id: 'u-1',
  email: 'ada@example.com',
  fullName: 'Ada Lovelace',
  jobTitle: 'Lead engineer',
  pictureUrl: null,
  identityProvider: 'embedded',
  passwordChangeUrl: '/oidc/password',
  createdAt: '2026-03-05T12:00:00.000Z',
} as const;

/** The workspace `GET /api/me/selected-device` answers in page tests: d-1, its admin. */
export const testSelectedDevice = {
  deviceId: 'd-1',
  deviceName: 'Valve X',
  devicePicture: null,
  datetimeCreation: '2026-03-05T12:00:00.000Z',
  role: 'admin',
  userStatus: 'ok',
  isAdmin: true,
} as const;
