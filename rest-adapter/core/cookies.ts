import type { Request, Response } from 'express';
import type { Cookie } from './route';

/** Sets a cookie (HttpOnly and SameSite=Lax unless the cookie says otherwise; Secure over HTTPS). */
export function setCookie(req: Request, res: Response, cookie: Cookie): void {
  const parts = [`${cookie.name}=${encodeURIComponent(cookie.value)}`, `Path=${cookie.path ?? '/'}`];
  if (cookie.maxAgeSeconds !== undefined) {
    parts.push(`Max-Age=${cookie.maxAgeSeconds}`);
    if (cookie.maxAgeSeconds === 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  }
  if (cookie.httpOnly ?? true) parts.push('HttpOnly');
  parts.push(`SameSite=${cookie.sameSite ?? 'Lax'}`);
  if (cookie.secure ?? requestScheme(req) === 'https') parts.push('Secure');
  res.append('set-cookie', parts.join('; '));
}

/** http or https, as the client used it (behind a proxy: X-Forwarded-Proto). */
export function requestScheme(req: Request): string {
  const forwarded = req.headers['x-forwarded-proto'];
  const proto = typeof forwarded === 'string' ? forwarded.split(',')[0].trim() : undefined;
  return proto === 'https' || proto === 'http' ? proto : req.protocol;
}
