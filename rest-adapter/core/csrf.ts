import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { cookieValue } from '../../lib/credentials';
import { requestScheme, setCookie } from './cookies';

/**
 * Cross-site request forgery protection of a surface, as Django does it:
 *
 * - Origin check: a state-changing request (POST, PUT, PATCH, DELETE) that carries an `Origin`
 *   header (every browser sends one) must come from the surface's own origin or from one of
 *   `trustedOrigins` (CSRF_TRUSTED_ORIGINS); anything else is 403 `csrf_failed`.
 * - Token check, for the routes marked `csrf: true` (the forms of a cookie session): the request
 *   carries the token of the `csrftoken` cookie back in the form field `csrfmiddlewaretoken` or the
 *   `X-CSRFToken` header (double submit; the cookie is SameSite=Lax, so another site cannot read or send it).
 */
export interface CsrfPolicy {
  /** Origins (scheme://host[:port]) allowed to send state-changing requests besides the surface's own. */
  trustedOrigins: string[];
  /**
   * Only paths under this prefix are protected (a surface whose API is cross-origin by design, such as
   * the registry's, protects only its cookie pages). Default: every path.
   */
  pathPrefix?: string;
}

/** Whether the policy covers the request's path. */
export const protects = (policy: CsrfPolicy, req: Request) => !policy.pathPrefix || req.path.startsWith(policy.pathPrefix);

export const CSRF_COOKIE = 'csrftoken';
export const CSRF_FIELD = 'csrfmiddlewaretoken';
export const CSRF_HEADER = 'x-csrftoken';
const TOKEN_BYTES = 32;
const COOKIE_MAX_AGE = 365 * 24 * 3600;

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const isUnsafe = (method: string) => UNSAFE.has(method);

/** The request's own origin, as the browser names it (behind a proxy: X-Forwarded-Proto). */
export function requestOrigin(req: Request): string {
  return `${requestScheme(req)}://${req.headers.host ?? ''}`;
}

/** Why an unsafe request's Origin is refused, or undefined when it is acceptable. */
export function originRefusal(req: Request, policy: CsrfPolicy): string | undefined {
  const origin = req.headers.origin;
  if (!isUnsafe(req.method) || origin === undefined) return undefined;
  if (origin === requestOrigin(req) || policy.trustedOrigins.includes(origin)) return undefined;
  return `CSRF Failed: Origin checking failed - ${origin} does not match any trusted origins.`;
}

/** The request's CSRF token: the cookie's, else a new one set on the response. */
export function csrfToken(req: Request, res: Response): string {
  const given = cookieValue(req.headers.cookie, CSRF_COOKIE);
  if (given && /^[A-Za-z0-9_-]{43}$/.test(given)) return given;
  const existing = res.locals.csrfToken as string | undefined;
  if (existing) return existing;
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  res.locals.csrfToken = token;
  // readable by the page's own scripts (X-CSRFToken), as Django's; SameSite keeps other sites from sending it
  setCookie(req, res, { name: CSRF_COOKIE, value: token, maxAgeSeconds: COOKIE_MAX_AGE, httpOnly: false, sameSite: 'Lax' });
  return token;
}

/** Why the request's CSRF token is refused, or undefined when it matches its cookie. */
export function tokenRefusal(req: Request): string | undefined {
  const cookie = cookieValue(req.headers.cookie, CSRF_COOKIE);
  if (!cookie) return 'CSRF Failed: CSRF cookie not set.';
  const body = req.body as Record<string, unknown> | undefined;
  const field = body && typeof body === 'object' ? body[CSRF_FIELD] : undefined;
  const header = req.headers[CSRF_HEADER];
  const given = typeof field === 'string' ? field : typeof header === 'string' ? header : undefined;
  if (!given) return 'CSRF Failed: CSRF token missing.';
  const a = Buffer.from(given);
  const b = Buffer.from(cookie);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return 'CSRF Failed: CSRF token incorrect.';
  return undefined;
}
