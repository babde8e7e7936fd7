/**
 * The one error type services throw for expected refusals; routes turn it into
 * `{ error: { code, message, details? } }` with the matching HTTP status.
 */
export class ServiceError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 410 | 412 | 413 | 415 | 416 | 422 | 428 | 429 | 503,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}
