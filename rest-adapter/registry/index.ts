import { envelopeErrorShape } from '../core/errors';
import { mountApiDocs } from '../core/docs';
import { buildOpenApi } from '../core/openapi';
import type { Surface } from '../core/surface';
import { downloadTokenCredential, licenceKeyCredential, workspaceSessionCredential } from '../../subgraphs/registry/licensing/credential';
import { registryErrors } from './errors';
import { API_VERSION, DOCS_PATH, OPENAPI_PATH, registryRoutes } from './routes';
import { errorBody } from './schemas';

const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

const DESCRIPTION = `Licences, releases, update checks, compose manifests, artifact downloads and deployment nodes.

**Credentials.** Licence key in the header \`x-license-key: LIC-XXXX-XXXX-XXXX\` (or the query parameter \`licenseKey\`; prefer the
header, query strings end up in logs). Downloads also take a single-use \`?token=\` from authorize (the token wins when both are sent).
The public key and presigned object links need none.

**Answers.** Success: \`{"success": true, "data": …}\`. Errors: \`{"success": false, "error": {"code", "message"}}\` (plus \`details\`
for 400, 403 and 422). Codes:

| Status | Code | When |
|---|---|---|
| 400 | INVALID | Missing or invalid parameter or body field (\`details\` names it); unsupported manifest format |
| 400 | PARSE_ERROR | Malformed JSON |
| 401 | UNAUTHORIZED | Licence key missing or malformed (\`WWW-Authenticate: License\`) |
| 401 | LICENSE_NOT_FOUND | Unknown licence key |
| 401 | DOWNLOAD_TOKEN_INVALID | Unknown download token |
| 403 | LICENSE_SUSPENDED / LICENSE_REVOKED / LICENSE_EXPIRED | The licence may not be used |
| 403 | FORBIDDEN | Maintenance expired: the release was published after the licence's maintenance end (\`details.reason\` MAINTENANCE_EXPIRED). Earlier releases keep working |
| 403 | PRODUCT_NOT_LICENSED | check-update for another product than the licence's |
| 403 | DOWNLOAD_TOKEN_MISMATCH | The token is for another artifact |
| 403 | SIGNATURE_INVALID / LINK_EXPIRED | A presigned object link was changed or has expired |
| 404 | PRODUCT_NOT_FOUND / RELEASE_NOT_FOUND / ARTIFACT_NOT_FOUND / DEPLOYMENT_NOT_FOUND / NOT_FOUND | Unknown |
| 409 | ARTIFACT_NOT_UPLOADED | The artifact's bytes are not there yet |
| 410 | RELEASE_YANKED | The release was withdrawn |
| 410 | DOWNLOAD_TOKEN_USED / DOWNLOAD_TOKEN_EXPIRED | Authorize the download again |
| 422 | NODE_LIMIT_EXCEEDED | Every seat of the plan is held by an alive node |
| 429 | RATE_LIMITED | More than REGISTRY_RATE_LIMIT requests (300 by default) in the licence's current minute; \`Retry-After\` says when |

**Rate limit.** Each licence has REGISTRY_RATE_LIMIT requests per minute (fixed one-minute windows, counted in PostgreSQL, so exact
across processes); every answer to a licence carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`.

**Channels.** stable; rc sees rc and stable; beta sees beta, rc and stable; alpha sees all four; dev sees only dev.

**Deployments.** A node holds a seat while alive. It heartbeats every \`heartbeatIntervalSeconds\` (six hours by default, per plan); after
two missed intervals plus the plan's drift (five minutes by default) it is dead and its seat is free; a heartbeat revives it if a seat is free.`;

export function registryOpenApi(surface: Surface): Record<string, unknown> {
  const licenceKey: Record<string, string[]>[] = [{ licenceKey: [] }, { licenceKeyQuery: [] }];
  return buildOpenApi(surface, {
    securitySchemes: {
      licenceKey: { type: 'apiKey', in: 'header', name: 'x-license-key', description: 'Licence key LIC-XXXX-XXXX-XXXX' },
      licenceKeyQuery: { type: 'apiKey', in: 'query', name: 'licenseKey', description: 'The licence key as a query parameter (alternative)' },
      downloadToken: { type: 'apiKey', in: 'query', name: 'token', description: 'Single-use download token from authorize' },
      workspaceSession: { type: 'apiKey', in: 'cookie', name: 'workspace_session', description: 'Customer workspace session (sign in at /workspace/login/)' },
    },
    security: { licenceKey, downloadTokenOrLicenceKey: [{ downloadToken: [] }, ...licenceKey], workspaceSession: [{ workspaceSession: [] }], none: [] },
    errorSchema: errorBody,
    statusText: {
      401: 'Licence key (or token) missing, malformed or unknown',
      403: 'Licence suspended, revoked or expired; maintenance expired (FORBIDDEN); link changed or expired',
      410: 'Gone: release yanked, or download token used or expired',
      416: 'Range not satisfiable',
      422: 'NODE_LIMIT_EXCEEDED',
      429: 'Rate limit of the licence reached (see Retry-After)',
    },
    responseHeaders: {
      'X-RateLimit-Limit': { description: 'Requests allowed per minute for this licence.', schema: { type: 'integer' } },
      'X-RateLimit-Remaining': { description: 'Requests left in the current minute.', schema: { type: 'integer' } },
      'X-RateLimit-Reset': { description: 'When the window resets, as Unix time in seconds.', schema: { type: 'integer' } },
    },
  });
}

/** The licence registry's REST surface (port 8090). */
export const registrySurface: Surface = {
  product: 'registry',
  title: 'Licence Registry',
  version: API_VERSION,
  description: DESCRIPTION,
  routes: registryRoutes,
  credentials: [licenceKeyCredential, downloadTokenCredential, workspaceSessionCredential],
  catalogue: registryErrors,
  // the API is cross-origin by design (licence keys, no cookies); only the workspace's cookie pages need CSRF protection
  csrf: (config) => ({ trustedOrigins: config.CSRF_TRUSTED_ORIGINS, pathPrefix: '/workspace/' }),
  errorShape: envelopeErrorShape,
  cors: {
    origins: '*',
    allowHeaders: ['x-license-key', 'content-type', 'x-request-id', 'range', 'if-none-match', 'if-range'],
    exposeHeaders: [...RATE_LIMIT_HEADERS, 'retry-after', 'x-request-id', 'content-disposition', 'content-length', 'content-range', 'etag', 'location'],
  },
  passHeaders: [...RATE_LIMIT_HEADERS, 'retry-after', 'www-authenticate'],
  openapi: () => registryOpenApi(registrySurface),
  pages(app) {
    mountApiDocs(app, { openapiPath: OPENAPI_PATH, docsPath: DOCS_PATH, title: 'Licence Registry', document: () => registryOpenApi(registrySurface) });
  },
};
