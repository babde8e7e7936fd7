import type { AnalyticsUploadForm } from '@insilico/contracts/analytics';

/**
 * An external ingestion of the same protocol (ANALYTICS_URL): the form our ingestion accepted is sent on unchanged
 * (same key, same checksum). The browser never calls it: the CSP allows our own origin only.
 */
export class AnalyticsForwardRepository {
  constructor(
    private readonly url: string,
    private readonly timeoutMs = 30_000,
  ) {}

  /** The external answer; status 0 when it could not be reached in time. */
  async send(form: AnalyticsUploadForm): Promise<{ status: number; body: string }> {
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        body: new URLSearchParams(form),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      return { status: response.status, body: await response.text() };
    } catch {
      return { status: 0, body: '' };
    }
  }
}
