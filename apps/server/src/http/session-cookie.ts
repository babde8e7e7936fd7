import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Cookie of the server-side session; `__Host-` over https (no Domain, Path=/, Secure). */
export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-session' : 'session';
}

export interface SessionCookieSettings {
  secure: boolean;
  maxAgeSeconds: number;
}

export function readSessionToken(request: FastifyRequest, settings: SessionCookieSettings): string | null {
  const value = request.cookies[sessionCookieName(settings.secure)];
  return value && value.length <= 128 ? value : null;
}

export function setSessionCookie(reply: FastifyReply, token: string, settings: SessionCookieSettings): void {
  reply.setCookie(sessionCookieName(settings.secure), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: settings.secure,
    maxAge: settings.maxAgeSeconds,
  });
}

export function clearSessionCookie(reply: FastifyReply, settings: SessionCookieSettings): void {
  reply.clearCookie(sessionCookieName(settings.secure), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: settings.secure,
  });
}
