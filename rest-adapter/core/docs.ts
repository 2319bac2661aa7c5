import type { Express } from 'express';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { htmlSecurityHeaders } from '../../lib/security-headers';

const REDOC_BUNDLE = require.resolve('redoc/bundles/redoc.standalone.js');
/** ReDoc's footer shows a logo from Redocly's CDN: offline it must come from here (an inline SVG). */
const REDOC_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const INLINE_LOGO = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>')}`;
let redocScript: string | undefined;

/** The ReDoc standalone bundle, without any request off this machine. */
export function redocBundle(): string {
  redocScript ??= readFileSync(REDOC_BUNDLE, 'utf8').split(REDOC_CDN_LOGO).join(INLINE_LOGO);
  return redocScript;
}

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
  app.get(bundlePath, (_req, res) => res.type('application/javascript').setHeader('cache-control', 'public, max-age=86400').send(redocBundle()));
  const html = redocPage({ openapiPath: opts.openapiPath, bundlePath, title: opts.title });
  // ReDoc runs its search index in a worker it builds from a blob
  app.get(opts.docsPath, htmlSecurityHeaders({ 'worker-src': ['blob:'] }), (_req, res) => res.type('html').send(html));
  // without its trailing slash: redirect, as the route table's paths do
  if (opts.docsPath.endsWith('/')) app.get(opts.docsPath.slice(0, -1), (_req, res) => res.redirect(301, opts.docsPath));
}

const SWAGGER_UI_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png', 'favicon-16x16.png'];

/** Swagger UI (swagger-ui-dist, served from this process: no CDN) at `path`, rendering `openapiPath`. */
export function swaggerUiRoutes(opts: { path: string; openapiPath: string; title: string }): {
  page: string;
  assets: Map<string, string>;
  file: (name: string) => string;
} {
  const dir = dirname(require.resolve('swagger-ui-dist/package.json'));
  const assets = new Map(SWAGGER_UI_FILES.map((name) => [`${opts.path}${name}`, join(dir, name)]));
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title}: Swagger UI</title>
<link rel="stylesheet" href="${opts.path}swagger-ui.css"><link rel="icon" type="image/png" href="${opts.path}favicon-32x32.png">
<style>body{margin:0}</style></head>
<body><div id="swagger-ui"></div>
<script src="${opts.path}swagger-ui-bundle.js"></script><script src="${opts.path}swagger-ui-standalone-preset.js"></script>
<script>window.ui = SwaggerUIBundle({ url: ${JSON.stringify(opts.openapiPath)}, dom_id: '#swagger-ui', deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout', validatorUrl: null });</script>
</body></html>`;
  return { page, assets, file: (name) => join(dir, name) };
}

/** The ReDoc page for `openapiPath`, its bundle served at `bundlePath` (see REDOC_BUNDLE). */
export function redocPage(opts: { openapiPath: string; bundlePath: string; title: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title}: API reference</title><style>body{margin:0}</style></head>
<body><redoc spec-url="${opts.openapiPath}" hide-download-button="false"></redoc><script src="${opts.bundlePath}"></script></body></html>`;
}
