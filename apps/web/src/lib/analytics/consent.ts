import { analyticsConsentCookie } from '@insilico/contracts/analytics';

/**
 * The consent of spec §7: events are recorded and sent only while the analytics cookie exists. Giving consent sets
 * it for a year; withdrawing removes it. A "no" is remembered in localStorage (no cookie for a refusal), so the
 * banner asks once; the choice can be changed in My account at any time (docs/decisions/analytics.md).
 */
const declinedKey = 'insilico.analytics.declined';
const yearSeconds = 365 * 24 * 60 * 60;
const listeners = new Set<() => void>();

export type ConsentChoice = 'given' | 'declined' | 'unset';

export function hasAnalyticsConsent(): boolean {
  return document.cookie.split(';').some((part) => part.trim().startsWith(`${analyticsConsentCookie}=`));
}

export function consentChoice(): ConsentChoice {
  if (hasAnalyticsConsent()) return 'given';
  return safeGet(declinedKey) === '1' ? 'declined' : 'unset';
}

export function setAnalyticsConsent(given: boolean): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  if (given) {
    document.cookie = `${analyticsConsentCookie}=1; Path=/; Max-Age=${yearSeconds}; SameSite=Lax${secure}`;
    safeRemove(declinedKey);
  } else {
    document.cookie = `${analyticsConsentCookie}=; Path=/; Max-Age=0; SameSite=Lax${secure}`;
    safeSet(declinedKey, '1');
  }
  for (const listener of [...listeners]) listener();
}

/** For useSyncExternalStore: called after every change of the choice in this tab. */
export function subscribeConsent(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function safeGet(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}
function safeSet(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Without storage the banner asks again next visit; nothing is recorded either way.
  }
}
function safeRemove(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // As above.
  }
}
