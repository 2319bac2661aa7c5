import { dirname, join } from 'node:path';
import type { Express, Response } from 'express';
import { projectRoot } from '../../lib/paths';

/** The dashboard page (HTML, no API key needed to load it: it asks for one and calls the API with it). */
export const DASHBOARD_PATH = '/dashboard/';

const PAGE_DIR = join(projectRoot(), 'rest-adapter', 'predictions', 'dashboard');
/** Chart.js's self-contained browser bundle, served from node_modules: no CDN, works offline. */
const CHART_JS = join(dirname(require.resolve('chart.js')), 'chart.umd.min.js');

/**
 * Only this origin's scripts, styles and API; no inline script or style, no framing. The page's
 * script reads JSON from the API routes with the key it was given.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const ASSETS: Record<string, { file: string; maxAge: string }> = {
  [DASHBOARD_PATH]: { file: join(PAGE_DIR, 'index.html'), maxAge: '0' },
  [`${DASHBOARD_PATH}dashboard.js`]: { file: join(PAGE_DIR, 'dashboard.js'), maxAge: '0' },
  [`${DASHBOARD_PATH}dashboard.css`]: { file: join(PAGE_DIR, 'dashboard.css'), maxAge: '0' },
  [`${DASHBOARD_PATH}chart.umd.min.js`]: { file: CHART_JS, maxAge: '1d' },
};

function secure(res: Response): void {
  res.setHeader('content-security-policy', DASHBOARD_CSP);
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'no-referrer');
  res.setHeader('x-frame-options', 'DENY');
}

/** Mounts the page and its assets on the prediction surface (before the route table; its JSON paths are unchanged). */
export function mountDashboard(app: Express): void {
  for (const [path, asset] of Object.entries(ASSETS)) {
    app.get(path, (_req, res) => {
      secure(res);
      res.sendFile(asset.file, { maxAge: asset.maxAge });
    });
  }
  app.get(DASHBOARD_PATH.slice(0, -1), (_req, res) => res.redirect(301, DASHBOARD_PATH));
}
