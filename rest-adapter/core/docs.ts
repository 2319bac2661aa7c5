import type { Express } from 'express';

const REDOC_BUNDLE = require.resolve('redoc/bundles/redoc.standalone.js');

/**
 * The OpenAPI document and a ReDoc page rendering it, served from npm packages only
 * (no CDN, no web fonts).
 */
export function mountApiDocs(app: Express, opts: { openapiPath: string; docsPath: string; title: string; document: () => Record<string, unknown> }) {
  let cached: string | undefined;
  app.get(opts.openapiPath, (_req, res) => {
    cached ??= JSON.stringify(opts.document());
    res.type('application/json').send(cached);
  });
  const bundlePath = `${opts.docsPath}redoc.standalone.js`;
  app.get(bundlePath, (_req, res) => res.sendFile(REDOC_BUNDLE, { maxAge: '1d' }));
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title}: API reference</title><style>body{margin:0}</style></head>
<body><redoc spec-url="${opts.openapiPath}" hide-download-button="false"></redoc><script src="${bundlePath}"></script></body></html>`;
  app.get(opts.docsPath, (_req, res) => res.type('html').send(html));
  // without its trailing slash: redirect, as the route table's paths do
  if (opts.docsPath.endsWith('/')) app.get(opts.docsPath.slice(0, -1), (_req, res) => res.redirect(301, opts.docsPath));
}
