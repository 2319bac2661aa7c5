import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

type Directives = Record<string, string[]>;

/**
 * The pages' Content-Security-Policy: everything from this origin only, no plugins, no framing by
 * other sites, forms post here. Inline styles are allowed (the pages and their bundles use them);
 * inline scripts only by hash (see `inlineScriptHashes`).
 */
const BASE: Directives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'worker-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/**
 * helmet's headers for an HTML page (Content-Security-Policy, X-Frame-Options: DENY,
 * X-Content-Type-Options: nosniff, Referrer-Policy, Cross-Origin-Opener-Policy, …), with the page's
 * own additions to the policy. HSTS is the surface's, for every response (`strictTransportSecurity`).
 */
export function htmlSecurityHeaders(extra: Directives = {}): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const directives: Directives = { ...BASE };
  for (const [name, values] of Object.entries(extra)) directives[name] = [...(directives[name] ?? []), ...values];
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives },
    strictTransportSecurity: false,
    frameguard: { action: 'deny' },
    // not helmet's no-referrer: under it a browser sends `Origin: null` with a same-origin form post,
    // which the CSRF origin check (rightly) refuses; same-origin keeps referrers from leaving the site
    referrerPolicy: { policy: 'same-origin' },
  }) as unknown as (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
}

/** `'sha256-…'` sources for every inline <script> of a page, so the CSP admits exactly those. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    hashes.push(`'sha256-${createHash('sha256').update(match[1], 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/**
 * Strict-Transport-Security (helmet's hsts) for every response of a surface: `on` always, `auto` on
 * requests that came over TLS (`req.secure`: TLS here, or X-Forwarded-Proto: https from a trusted
 * proxy), `off` never (lib/config.ts HSTS, HSTS_MAX_AGE_SECONDS).
 */
export function strictTransportSecurity(
  mode: 'auto' | 'on' | 'off',
  maxAgeSeconds: number,
): ((req: IncomingMessage & { secure?: boolean }, res: ServerResponse, next: () => void) => void) | undefined {
  if (mode === 'off') return undefined;
  const hsts = helmet.strictTransportSecurity({ maxAge: maxAgeSeconds, includeSubDomains: false });
  return (req, res, next) => (mode === 'on' || req.secure ? hsts(req, res, next) : next());
}
