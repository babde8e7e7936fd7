import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../repositories/user.repository';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, set by `requireUser`. */
    user?: UserRow;
  }
}

export type ResolveUser = (request: FastifyRequest) => Promise<UserRow | null>;

/** preHandler of every route that needs a signed-in user: 401 otherwise (spec §6). */
export function requireUser(resolve: ResolveUser) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const user = await resolve(request);
    if (!user) {
      return reply.code(401).send({ error: { code: 'unauthenticated', message: 'Please sign in.' } });
    }
    request.user = user;
  };
}

/** The user a `requireUser`-guarded handler runs for. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new Error('route is missing its requireUser preHandler');
  return request.user;
}
