import { apiKeyCredential, inboundMailCredential } from '../../subgraphs/predictions/access/credential';
import { detailErrorShape } from '../core/errors';
import { mountApiDocs } from '../core/docs';
import { buildOpenApi } from '../core/openapi';
import type { Surface } from '../core/surface';
import { mountDashboard } from './dashboard';
import { mountFavicon } from './favicon';
import { predictionErrors } from './errors';
import { API_VERSION, DOCS_PATH, OPENAPI_PATH, predictionRoutes } from './routes';
import { errorBody } from './schemas';

const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

export function predictionOpenApi(surface: Surface): Record<string, unknown> {
  return buildOpenApi(surface, {
    securitySchemes: {
      apiKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' },
    },
    security: { apiKey: [{ apiKey: [] }], adminKey: [{ apiKey: [] }], none: [] },
    errorSchema: errorBody,
    responseHeaders: {
      'X-RateLimit-Limit': { description: "Requests allowed per UTC day on this key's plan (absent for unlimited keys).", schema: { type: 'integer' } },
      'X-RateLimit-Remaining': { description: 'Requests left today.', schema: { type: 'integer' } },
      'X-RateLimit-Reset': { description: 'When the count resets (00:00 UTC), as Unix time in seconds.', schema: { type: 'integer' } },
    },
    errorHeaders: {
      401: { 'WWW-Authenticate': { description: 'The credential this API expects: `Bearer realm="api"`.', schema: { type: 'string' } } },
      429: { 'Retry-After': { description: 'Seconds until the quota resets (00:00 UTC).', schema: { type: 'integer' } } },
    },
  });
}

/** The prediction API's REST surface (port 8080). */
export const predictionSurface: Surface = {
  product: 'predictions',
  title: 'Match Prediction API',
  version: API_VERSION,
  description: [
    'Football match predictions from a model trained on real results.',
    '',
    "Every request carries `Authorization: Bearer <API_KEY>`. Each API request counts once against the key's daily quota",
    '(Free 50, Pro 5,000, Enterprise per key), which resets at 00:00 UTC. Responses carry `X-RateLimit-Limit`,',
    '`X-RateLimit-Remaining` and `X-RateLimit-Reset`; past the quota the answer is 429 with `Retry-After`.',
    'A missing, malformed, unknown or revoked key gets 401 with `WWW-Authenticate: Bearer`.',
    'Errors have the body `{"detail": "<message>", "code": "<code>"}`. A request refused for its input (400) after its key was verified',
    "counts like any other and carries the same headers. An answer that is the server's fault (5xx, e.g. 503 `model_not_ready`) does not count:",
    'its unit is given back before it is sent, and its `X-RateLimit-Remaining` says so.',
    '',
    'Keys: apply with the form at `/apply/`, or by e-mail with the subject `API Access Request` to the mailbox that `GET /api/` names',
    '(`apply.email`; `api-access@localhost` unless configured, taken by the built-in SMTP receiver in `apply.smtp`).',
    '',
    'Lists are the next fixtures from now; a match that kicked off without a result is awaiting it (`/api/fixtures/<match_id>/`)',
    'and leaves them. `GET /api/predictions/history/` is the track record.',
  ].join('\n'),
  routes: predictionRoutes,
  credentials: [apiKeyCredential, inboundMailCredential],
  catalogue: predictionErrors,
  errorShape: detailErrorShape,
  cors: {
    origins: '*',
    allowHeaders: ['authorization', 'content-type', 'x-request-id'],
    exposeHeaders: [...RATE_LIMIT_HEADERS, 'retry-after', 'x-request-id'],
  },
  passHeaders: [...RATE_LIMIT_HEADERS, 'retry-after', 'www-authenticate'],
  openapi: () => predictionOpenApi(predictionSurface),
  pages(app) {
    mountApiDocs(app, { openapiPath: OPENAPI_PATH, docsPath: DOCS_PATH, title: 'Match Prediction API', document: () => predictionOpenApi(predictionSurface) });
    mountDashboard(app);
    mountFavicon(app);
  },
};
