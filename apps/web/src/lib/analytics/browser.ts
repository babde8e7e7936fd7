import {
  analyticsConfigSchema,
  analyticsEndpoints,
  type AnalyticsEventPropertiesOf,
  type AnalyticsEventType,
} from '@insilico/contracts/analytics';
import { AnalyticsClient, Identify, type AnalyticsStorage, type AnalyticsTransport } from './client';
import { hasAnalyticsConsent, subscribeConsent } from './consent';

/**
 * The app's one analytics client in the browser: the key comes from `analyticsEndpoints.config` (asked only once
 * consent exists), uploads go to our own origin with fetch, the page-hide flush with sendBeacon.
 */
const transport: AnalyticsTransport = {
  async post(url, body, signal) {
    try {
      const response = await fetch(url, { method: 'POST', body, signal, credentials: 'same-origin' });
      return { status: response.status, body: await response.text() };
    } catch {
      return { status: 0, body: '' };
    }
  },
  beacon: (url, body) => navigator.sendBeacon(url, body),
};

function storage(): AnalyticsStorage {
  try {
    return window.localStorage;
  } catch {
    const memory = new Map<string, string>();
    return { getItem: (key) => memory.get(key) ?? null, setItem: (key, value) => void memory.set(key, value) };
  }
}

let started: Promise<AnalyticsClient | null> | null = null;
/** The client once started (sign-out needs it synchronously, before the page goes). */
let current: AnalyticsClient | null = null;
/** The signed-in user as the app last said (undefined: not said yet); applied as soon as the client exists. */
let pendingUser: { email: string | null; identityProvider?: 'embedded' | 'external' } | undefined;

/**
 * A user id other than the stored one (none after a sign-out) is a new sign-in for analytics: 'signed in' is
 * recorded, with an identify of the sign-in kind.
 */
function applyUser(client: AnalyticsClient): void {
  if (pendingUser === undefined || client.userId === pendingUser.email) return;
  client.setUserId(pendingUser.email);
  if (!pendingUser.email) return;
  client.logEvent('signed in', {});
  if (pendingUser.identityProvider)
    client.identify(new Identify().set('identityProvider', pendingUser.identityProvider));
}

function start(): Promise<AnalyticsClient | null> {
  started ??= (async () => {
    const response = await fetch(analyticsEndpoints.config.path, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`analytics configuration: status ${response.status}`);
    const config = analyticsConfigSchema.parse(await response.json());
    const client = new AnalyticsClient({
      url: config.url,
      apiKey: config.key,
      hasConsent: hasAnalyticsConsent,
      transport,
      storage: storage(),
      language: navigator.language,
    });
    applyUser(client);
    const flush = () => client.flushWithBeacon();
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') flush();
    });
    // Withdrawn: nothing more leaves this page, and what waited is forgotten at once.
    subscribeConsent(() => client.setOptOut(!hasAnalyticsConsent()));
    current = client;
    return client;
  })().catch(() => {
    started = null; // asked again with the next event
    return null;
  });
  return started;
}

/** Records a product event (nothing at all without consent). */
export function track<T extends AnalyticsEventType>(type: T, properties: AnalyticsEventPropertiesOf<T>): void {
  if (!hasAnalyticsConsent()) return;
  void start().then((client) => client?.logEvent(type, properties));
}

/** For a promise chain: records the event from the result, then hands the result on unchanged. */
export function trackAfter<R, T extends AnalyticsEventType>(
  type: T,
  properties: (result: R) => AnalyticsEventPropertiesOf<T>,
): (result: R) => R {
  return (result) => {
    track(type, properties(result));
    return result;
  };
}

/** The signed-in user's e-mail (spec §7: the user id). */
export async function setAnalyticsUser(
  email: string | null,
  identityProvider?: 'embedded' | 'external',
): Promise<void> {
  pendingUser = { email, identityProvider };
  if (!hasAnalyticsConsent()) return;
  const client = await start();
  if (client) applyUser(client);
}

/**
 * Sign-out, before the page leaves: what waits goes by beacon while the session still exists (the page-hide flush
 * would come after the sign-out answer), and the next user of this browser is someone new for analytics.
 */
export function forgetAnalyticsUser(): void {
  pendingUser = { email: null };
  current?.flushWithBeacon();
  current?.setUserId(null);
}
