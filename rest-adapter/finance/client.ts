import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import type { Express, NextFunction, Request, Response } from 'express';
import { DEFAULT_BASE_PATH, DEFAULT_CLIENT_DIR } from '../../clients/finance-web/build';
import type { Config } from '../../lib/config';
import { htmlSecurityHeaders } from '../../lib/security-headers';

/**
 * The finance web client (clients/finance-web, built by `npm run build` into dist/finance-web) served
 * at FRONTEND_URL's path (default /app/): hashed assets are cached for a year, everything else is
 * revalidated, and any other path under it answers index.html (the client routes with the History API).
 */
export function financeClientPath(config: Pick<Config, 'FRONTEND_URL'>): string {
  const path = config.FRONTEND_URL ? new URL(config.FRONTEND_URL).pathname : DEFAULT_BASE_PATH;
  // a client on a host of its own (path /) leaves the node's root to the API
  if (path === '/') return DEFAULT_BASE_PATH;
  return path.endsWith('/') ? path : `${path}/`;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/**
 * `apiBase`: the client is served apart from its node (the frontend image), and this is the node's
 * origin: the page names it (`<meta name="finance-api-base">`, read by clients/finance-web/src/api/client.ts)
 * and its Content-Security-Policy lets the page call it.
 */
export function serveFinanceClient(app: Express, config: Pick<Config, 'FRONTEND_URL'>, directory = DEFAULT_CLIENT_DIR, opts: { apiBase?: string } = {}): void {
  const mount = financeClientPath(config);
  const apiOrigin = opts.apiBase ? new URL(opts.apiBase).origin : undefined;
  const headers = htmlSecurityHeaders(apiOrigin ? { 'connect-src': [apiOrigin] } : {});
  let index: string | undefined;
  const indexHtml = () => {
    // the build names its own base path; served elsewhere, the page's <base href> says where it is
    index ??= readFileSync(join(directory, 'index.html'), 'utf8')
      .replace(/<base href="[^"]*"/, `<base href="${mount}"`)
      .replace('</head>', apiOrigin ? `  <meta name="finance-api-base" content="${apiOrigin}" />\n  </head>` : '</head>');
    return index;
  };

  app.get(mount.slice(0, -1), (req, res) => res.redirect(301, mount + (req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '')));
  app.use(mount, (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (!existsSync(join(directory, 'index.html'))) {
      res.status(503).type('text/plain').setHeader('cache-control', 'no-store').send('The web client is not built here: run `npm run build`.\n');
      return;
    }
    const relative = normalize(decodeURIComponent(req.path)).replace(/^[/\\]+/, '');
    const file = join(directory, relative);
    const inside = relative !== '' && !relative.split(sep).includes('..') && file.startsWith(directory + sep);
    if (inside && relative !== 'index.html' && existsSync(file) && statSync(file).isFile()) {
      res.setHeader('cache-control', relative.startsWith(`assets${sep}`) ? IMMUTABLE : REVALIDATE);
      res.sendFile(file, { dotfiles: 'deny', cacheControl: false });
      return;
    }
    // a missing file with an extension is a 404; any other path is a page of the client
    if (extname(relative)) {
      res.status(404).type('text/plain').send('Not found\n');
      return;
    }
    headers(req, res, () => {
      res.setHeader('cache-control', REVALIDATE);
      res.type('html').send(indexHtml());
    });
  });
}
