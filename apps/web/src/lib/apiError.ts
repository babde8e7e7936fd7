/**
 * A failed API request. `status` is the HTTP status, or 0 when the server could not be reached
 * (spec §7, §8); `code` and `message` come from the `{ error: { code, message } }` body when present.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly details: unknown;

  constructor(status: number, code: string, message: string, details?: unknown) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** Codes the client produces itself, beside the server's own (`errorCodes` in contracts). */
export const clientErrorCodes = {
  network: 'network',
  invalidResponse: 'invalid_response',
  http: 'http_error',
} as const;
