import { financeGate } from './gate';
import type { Config } from '../../lib/config';
import type { CorsPolicy } from '../../lib/http';
import { CLIENT_HEADERS } from '../../subgraphs/finance/kernel/contract';
import { adminSessionCredential, nodeTokenCredential } from '../../subgraphs/finance/identity/credential';
import { redocBundle, redocPage, swaggerUiRoutes } from '../core/docs';
import { detailErrorShape } from '../core/errors';
import { buildOpenApi } from '../core/openapi';
import type { Route } from '../core/route';
import { IDEMPOTENCY_HEADER, type Surface } from '../core/surface';
import { kycAdminRoutes } from './admin/kyc';
import { commerceAdminRoutes } from './admin/commerce';
import { investingAdminRoutes } from './admin/investing';
import { adminAppIndexRoute, adminRoutes } from './admin/routes';
import { consolePages } from '../console/pages';
import { serveFinanceClient } from './client';
import { financeErrors } from './errors';
import { OPENAPI_PATH, REDOC_PATH, SWAGGER_PATH, apiRoutes } from './routes';
import { errorBody } from './schemas';
import type { ResultOf } from './operation';

/** The response headers that name the node on every response of the surface (values: APP_NAME, APP_VERSION). */
export const APP_NAME_HEADER = 'X-App-Name';
export const APP_VERSION_HEADER = 'X-App-Version';

const TITLE = 'Finance Platform Node';
const REDOC_BUNDLE_PATH = `${REDOC_PATH}redoc.standalone.js`;
const swaggerUi = swaggerUiRoutes({ path: SWAGGER_PATH, openapiPath: OPENAPI_PATH, title: TITLE });

let openapi: Record<string, unknown> | undefined;

/** OpenAPI 3 of this surface, from its route table, with the headers every response carries. */
export function financeOpenApi(): Record<string, unknown> {
  if (openapi) return openapi;
  const doc = buildOpenApi(financeSurface, {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Authorization: Bearer <ACCESS_TOKEN> from POST /api/login/' },
      session: { type: 'apiKey', in: 'cookie', name: 'sessionid', description: 'Admin console session (superusers), from /admin/login/' },
    },
    security: { bearer: [{ bearer: [] }], session: [{ session: [] }], none: [] },
    errorSchema: errorBody,
    // no per-credential quota here: the throttled routes (sign-in) list their 429
    rateLimited: false,
  });
  const headers = {
    [APP_NAME_HEADER]: { description: 'APP_NAME: the name of this node', schema: { type: 'string' } },
    [APP_VERSION_HEADER]: { description: 'APP_VERSION: the version of this node', schema: { type: 'string' } },
    'X-Request-ID': { description: "The request's id: the client's X-Request-ID when sane, else generated; also in the logs", schema: { type: 'string' } },
  };
  // the admin console, as Django's: a browser without a session is sent to the sign-in page (302), never a 401
  for (const route of financeSurface.routes) {
    if (route.security !== 'session' || route.documented === false) continue;
    const op = (doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)[route.path.replace(/:([A-Za-z_]+)/g, '{$1}')][
      route.method.toLowerCase()
    ];
    delete op.responses['401'];
    op.responses['302'] ??= {
      description: 'Not signed in: redirect to the sign-in page (`/admin/login/?next=<this page>`)',
      headers: { Location: { description: 'The sign-in page', schema: { type: 'string' } } },
    };
  }
  for (const ops of Object.values(doc.paths as Record<string, Record<string, { responses: Record<string, { headers?: object }> }>>)) {
    for (const op of Object.values(ops)) for (const r of Object.values(op.responses)) r.headers = { ...headers, ...(r.headers ?? {}) };
  }
  openapi = doc;
  return doc;
}

/** Paths of features the node offers only once configured at run time, and what says whether they are. */
const CONFIGURED_FEATURES: { path: string; configured: (state: FeatureState) => boolean }[] = [
  { path: '/api/assistant/', configured: (s) => s.assistantConfigured },
];

/** Whether the features configured at run time are: the AssistantConfigured operation's answer. */
type FeatureState = ResultOf<'AssistantConfigured'>;

const served = new Map<string, Record<string, unknown>>();

/**
 * The document this node serves: the full one (financeOpenApi, the one the web client's types are
 * generated from) without the paths of features it does not offer now (the assistant without a
 * provider key: its key can arrive at run time, so the state is read per request). One document per
 * state, built once.
 */
export function servedFinanceOpenApi(state: FeatureState): Record<string, unknown> {
  const hidden = CONFIGURED_FEATURES.filter((f) => !f.configured(state)).map((f) => f.path);
  const id = hidden.join(' ');
  let doc = served.get(id);
  if (!doc) {
    const full = financeOpenApi();
    const paths = Object.fromEntries(Object.entries(full.paths as Record<string, unknown>).filter(([path]) => !hidden.includes(path)));
    doc = { ...full, paths };
    served.set(id, doc);
  }
  return doc;
}

const docsRoutes: Route[] = [
  {
    method: 'GET',
    path: OPENAPI_PATH,
    summary: 'Machine-readable schema (OpenAPI 3.1)',
    description:
      'The API of this node as it is configured now: a feature it does not offer is left out (`POST /api/assistant/` while no assistant ' +
      'provider key is set; it appears once one is, without a restart).',
    tags: ['API documentation'],
    security: 'none',
    operationId: 'openapi',
    operation: 'AssistantConfigured',
    respond: (data: FeatureState) => ({ kind: 'json', body: servedFinanceOpenApi(data) }),
    response: { description: 'The OpenAPI document of this surface' },
  },
  {
    method: 'GET',
    path: SWAGGER_PATH,
    summary: 'Interactive API reference (Swagger UI)',
    tags: ['API documentation'],
    security: 'none',
    operationId: 'swaggerUi',
    reply: () => ({ kind: 'html', html: swaggerUi.page }),
    response: { description: 'Swagger UI (HTML)', contentType: 'text/html' },
  },
  {
    method: 'GET',
    path: REDOC_PATH,
    summary: 'Interactive API reference (ReDoc)',
    tags: ['API documentation'],
    security: 'none',
    operationId: 'redoc',
    reply: () => ({ kind: 'html', html: redocPage({ openapiPath: OPENAPI_PATH, bundlePath: REDOC_BUNDLE_PATH, title: TITLE }) }),
    response: { description: 'ReDoc (HTML)', contentType: 'text/html' },
  },
];

/** The browser CORS policy: CORS_ALLOWED_ORIGINS, and CORS_ALLOW_HEADERS (default: the seven client headers). */
export function financeCors(config: Config): CorsPolicy {
  return {
    origins: config.CORS_ALLOWED_ORIGINS,
    // the seven client headers, and the key that makes a money-moving retry safe
    allowHeaders: config.CORS_ALLOW_HEADERS.length ? config.CORS_ALLOW_HEADERS : [...CLIENT_HEADERS, IDEMPOTENCY_HEADER],
    exposeHeaders: ['X-Request-ID', APP_NAME_HEADER, APP_VERSION_HEADER, 'Retry-After', 'WWW-Authenticate'],
  };
}

/** Django's default for ALLOWED_HOSTS in development, and ours when it is unset. */
export const DEFAULT_ALLOWED_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/** The finance node's REST surface (port 8000, PORT). */
export const financeSurface: Surface = {
  product: 'finance',
  title: TITLE,
  version: '1.0.0',
  description: [
    'A self-hosted node of a cross-border money and investing platform.',
    '',
    'Sign in with `POST /api/login/` and send `Authorization: Bearer <access>`. Amounts are decimal strings with their currency (`{"amount": "10.50", "currency": "EUR"}`).',
    'Errors: `{"detail": "<message>", "code": "<code>"}`. Without a valid licence the node is read-only: writes answer 403 `licence_read_only` (sign-in still works).',
    'During maintenance, API routes answer 503 `maintenance` with `Retry-After` and `"maintenance": true`; probes, `/api/v1/node/`, `/api/v1/config/*` and `/admin/` stay up.',
    'A module switched off in the settings record answers 403 `module_disabled` (with `module`) on its reads and writes alike: its lists and records as well as its changes; a list serving two modules (the virtual accounts of the IBAN and African rails, and their credits) shows the rows of the module still on, and answers 403 only when both are off.',
    'Every response carries `X-App-Name` and `X-App-Version` (APP_NAME, APP_VERSION) and `X-Request-ID`.',
    "`GET /api/v1/node/` answers anyone the node's identity, version and licence state; the deployment, the licence's claims and the system checks are for administrators (an admin console session).",
    'Browsers: origins in CORS_ALLOWED_ORIGINS may send the seven client headers; state-changing requests from a browser must come from the node itself or from CSRF_TRUSTED_ORIGINS.',
  ].join('\n'),
  // the console's modules register their pages; the kit answers a page before any pattern that covers it (/admin/<app>/)
  routes: [
    ...apiRoutes,
    ...docsRoutes,
    ...consolePages([
      { name: 'kyc', pages: kycAdminRoutes },
      { name: 'commerce', pages: commerceAdminRoutes },
      { name: 'console', pages: adminRoutes },
      { name: 'investing', pages: investingAdminRoutes },
      { name: 'apps', pages: [adminAppIndexRoute] },
    ]),
  ],
  openapi: () => financeOpenApi(),
  credentials: [nodeTokenCredential, adminSessionCredential],
  catalogue: financeErrors,
  errorShape: detailErrorShape,
  cors: financeCors,
  responseHeaders: (config) => ({ [APP_NAME_HEADER]: config.APP_NAME, [APP_VERSION_HEADER]: config.APP_VERSION }),
  allowedHosts: (config) => (config.ALLOWED_HOSTS.length ? config.ALLOWED_HOSTS : DEFAULT_ALLOWED_HOSTS),
  csrf: (config) => ({ trustedOrigins: config.CSRF_TRUSTED_ORIGINS }),
  passHeaders: ['retry-after', 'www-authenticate'],
  gate: financeGate,
  pages(app, config) {
    app.locals.siteName = config.APP_NAME;
    for (const [path, file] of swaggerUi.assets) app.get(path, (_req, res) => res.sendFile(file, { maxAge: '1d' }));
    serveFinanceClient(app, config);
    app.get(REDOC_BUNDLE_PATH, (_req, res) => res.type('application/javascript').setHeader('cache-control', 'public, max-age=86400').send(redocBundle()));
  },
};
