import type { FastifyRequest } from 'fastify';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The workspace a request's path addresses (`/api/devices/:deviceId/…`), when its id is a well-formed UUID; the
 * session lookup reads the caller's membership of it in the same statement (docs/decisions/session-and-membership.md).
 */
export function addressedWorkspace(request: FastifyRequest): string | undefined {
  const params = request.params as { deviceId?: unknown } | undefined;
  const deviceId = params?.deviceId;
  return typeof deviceId === 'string' && uuidPattern.test(deviceId) ? deviceId : undefined;
}
