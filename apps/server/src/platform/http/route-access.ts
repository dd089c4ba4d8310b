import type { Action, PermissionName } from '@app/contracts';
import type { FastifyRequest } from 'fastify';
import type { AuthContext } from './authentication';
import { unauthorized } from './http-errors';

/** What a route needs: nothing, a signed-in user, or a permission (core-inbox §6). */
export type RouteAccess =
  | 'public'
  | 'authenticated'
  | { action: Exclude<Action, 'manage'>; subject: PermissionName };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/** Shorthand for a permission requirement. */
export const permission = (
  subject: PermissionName,
  action: Exclude<Action, 'manage'> = 'READ',
): RouteAccess => ({
  action,
  subject,
});

/** The caller of a route that declared it needs one. */
export function callerOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}
