import { z } from 'zod';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../lib/errors';
import { detailErrorShape } from '../core/errors';
import type { Reply, Route, RouteError } from '../core/route';
import * as schemas from './schemas';
import { accountRoutes } from './routes/account';
import { devOutboxRoutes } from './routes/dev-outbox';
import { devOutboxPath } from '../../subgraphs/finance/kernel/contract';
import { kycRoutes } from './routes/kyc';
import { bankingRoutes } from './routes/banking';
import { cardRoutes } from './routes/cards';
import { cryptoRoutes } from './routes/crypto';
import { commerceRoutes } from './routes/commerce';
import { investingRoutes } from './routes/investing';
import { paymentsRoutes } from './routes/payments';
import { publicLogoRoute } from './routes/branding';
import { route, type ResultOf } from './operation';

export const OPENAPI_PATH = '/swagger.json';
export const SWAGGER_PATH = '/swagger/';
export const REDOC_PATH = '/redoc/';

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/enforce2fa/, 'enforce_2fa');
const snakeKeys = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [snake(k), v]));

/** A probe's 503 says when to ask again, as every 503 of the system does. */
const retryAfter = (ok: boolean): Record<string, string> => (ok ? {} : { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) });

/** Kubernetes probe semantics: 200/503 by status alone; `?verbose` lists the checks for humans. */
function probe(name: string, checks: { name: string; ok: boolean }[], verbose: boolean): Reply {
  const ok = checks.every((c) => c.ok);
  if (verbose) {
    const lines = [...checks.map((c) => `[${c.ok ? '+' : '-'}]${c.name} ${c.ok ? 'ok' : 'failed'}`), `${name} check ${ok ? 'passed' : 'failed'}`];
    return { kind: 'text', status: ok ? 200 : 503, body: `${lines.join('\n')}\n`, headers: retryAfter(ok) };
  }
  return { kind: 'json', status: ok ? 200 : 503, body: { status: ok ? 'ok' : 'unavailable' }, headers: retryAfter(ok) };
}

const probeQuery = z.object({ verbose: z.string().optional().describe('Any value: one line per check, as text') });
const verbose = (query: unknown) => (query as { verbose?: string }).verbose !== undefined;

/** One finance subgraph's readiness: every field of the Readiness operation selects the same. */
type Readiness = ResultOf<'Readiness'>[keyof ResultOf<'Readiness'>];

function readinessReply(checks: Readiness[], isVerbose: boolean): Reply {
  if (isVerbose)
    return probe(
      'readyz',
      checks.map((c) => ({ name: `${c.subgraph}-database`, ok: c.ready })),
      true,
    );
  const ok = checks.length > 0 && checks.every((c) => c.ready);
  return {
    kind: 'json',
    status: ok ? 200 : 503,
    headers: retryAfter(ok),
    body: {
      // not ready is an error answer like any 503 of the surface: detail and code, with the checks
      ...(ok ? {} : { detail: 'Not ready: a database does not answer or a migration is pending.', code: 'unavailable' }),
      status: ok ? 'ok' : 'unavailable',
      checks: checks.map((c) => ({ subgraph: c.subgraph, ready: c.ready, database: c.database, pending_migrations: c.pendingMigrations })),
    },
  };
}

function featuresOf(s: ResultOf<'FeatureFlags'>['nodeSettings']) {
  return snakeKeys(s);
}

/**
 * The node's record: `checks` is null unless the caller is an administrator (the subgraph decides); `deployment` is the
 * registry's last word on this node (its URL for administrators only), null while it is not registered.
 */
type NodeInfoData = ResultOf<'NodeInfo'>['nodeInfo'];

const registryBody = (d: NodeInfoData['deployment']) =>
  d ? { ...(d.registryUrl ? { url: d.registryUrl } : {}), last_heartbeat_at: d.lastHeartbeatAt, last_heartbeat_status: d.lastHeartbeatStatus } : null;

/** /api/v1/node/: the public part for anyone; the whole record (deployment, claims, checks) when the subgraph answered an administrator. */
function nodeBody(n: NodeInfoData): Record<string, unknown> {
  const identity = { name: n.name, version: n.version, read_only: n.readOnly, maintenance: n.maintenance };
  if (n.checks === null) {
    const l = n.licence;
    return { ...identity, licence: { status: l.status, valid: l.valid, checks: l.checks, expires_at: l.expiresAt }, registry: registryBody(n.deployment) };
  }
  return {
    ...identity,
    hostname: n.hostname,
    deployment_id: n.deploymentId,
    licence: { ...snakeKeys(n.licence), claims: n.licence.claims ? snakeKeys(n.licence.claims) : null },
    checks: n.checks,
    registry: registryBody(n.deployment),
  };
}

/** The finance node's API: one entry per documented path (contract: docs/contracts/finance-node.md §4), plus 2FA and the assistant. */
export const apiRoutes: Route[] = [
  {
    method: 'GET',
    path: '/healthz',
    summary: 'Basic liveness (no dependencies)',
    description: 'Answers while the process serves HTTP; checks no dependency. Exempt from authentication, maintenance and licence read-only mode.',
    tags: ['Probes'],
    security: 'none',
    // a probe reads no credential: whatever an orchestrator or a stranger sends along is ignored
    credentials: [],
    operationId: 'healthz',
    query: probeQuery,
    reply: ({ query }) => probe('healthz', [{ name: 'ping', ok: true }], verbose(query)),
    response: { description: '{"status": "ok"}' },
  },
  {
    method: 'GET',
    path: '/livez',
    summary: 'Liveness probe',
    description: 'The process and its event loop answer. No dependency checks: a database blip must not restart the node.',
    tags: ['Probes'],
    security: 'none',
    // a probe reads no credential: whatever an orchestrator or a stranger sends along is ignored
    credentials: [],
    operationId: 'livez',
    query: probeQuery,
    reply: ({ query }) => probe('livez', [{ name: 'ping', ok: true }], verbose(query)),
    response: { description: '{"status": "ok"}' },
  },
  route({
    method: 'GET',
    path: '/readyz',
    summary: 'Readiness probe',
    description:
      "Ready when the database takes a new connection and answers (the one readiness rule of every surface, docs/operations.md) and every migration of every finance subgraph's schema is applied (one entry of `checks` per subgraph: node, identity, ledger and each module); else 503. Licence, maintenance and read-only states are business states, not readiness.",
    tags: ['Probes'],
    security: 'none',
    // a probe reads no credential: whatever an orchestrator or a stranger sends along is ignored
    credentials: [],
    operation: 'Readiness',
    query: probeQuery,
    response: { description: 'Ready', schema: schemas.readiness },
    // not ready (a database does not answer, a migration is pending) and a fault behind the probe alike: 503, never 500
    errors: [503],
    faults: [503],
    // one field per finance subgraph (the operation is written from the subgraphs by `npm run compose`)
    respond: (data, { query }) => readinessReply(Object.values(data), verbose(query)),
    // a fault behind the probe is unreadiness; a malformed probe request stays the client's mistake
    respondError: (error: RouteError, { query }) =>
      error.status < 500
        ? { kind: 'json', status: error.status, body: detailErrorShape.body(error.status, error.code, error.message, error.fields) }
        : verbose(query)
          ? probe('readyz', [{ name: 'database', ok: false }], true)
          : {
              kind: 'json',
              status: 503,
              headers: retryAfter(false),
              body: { ...(detailErrorShape.body(503, 'unavailable', error.message) as object), status: 'unavailable', checks: [] },
            },
  }),
  route({
    method: 'GET',
    path: '/api/v1/node/',
    summary: 'Node identity and licence status',
    description:
      'No authentication: APP_NAME and APP_VERSION, whether the node is read-only (licence) or in maintenance, and the licence status (`status`, `valid`, ' +
      'the ids of the failing licence checks, `expires_at`). An administrator (admin console session) also gets the host name, the deployment id the ' +
      'registry gave, where the licence comes from with its issuer and claims (organisation, licence id, plan), and every system check with its message ' +
      '(app.E001 …): those name the customer, the host, paths and settings, so an anonymous caller never sees them. `registry`: how the last ' +
      'heartbeat to the licence registry went (e.g. license_revoked: no more updates), with its URL for an administrator.',
    tags: ['Node'],
    security: 'none',
    operation: 'NodeInfo',
    response: { description: 'Node identity', schema: schemas.nodeResponse },
    respond: (data) => ({ kind: 'json', body: nodeBody(data.nodeInfo) }),
  }),
  route({
    method: 'GET',
    path: '/api/v1/config/',
    summary: 'Public configuration: branding, enabled modules, active banking rails',
    description:
      'What a client configures itself from at start-up. Never a secret. No authentication. `auth.signup`: `open` (anyone signs up) or `invite_only` (an invite code is needed). ' +
      '`development`: null in production; in development `{outbox}`, the path of the page listing the mails and text messages the node "sent" (GET /dev/outbox/).',
    tags: ['Configuration'],
    security: 'none',
    operation: 'PublicConfig',
    response: { description: 'Public configuration', schema: schemas.publicConfig },
    respond: (data, input) => {
      const outbox = devOutboxPath(input.config);
      const s = data.nodeSettings;
      return {
        kind: 'json',
        body: {
          app: { name: data.nodeInfo.name, version: data.nodeInfo.version },
          branding: snakeKeys(data.nodeBranding),
          modules: {
            shop: s.shopEnabled,
            investments: s.investmentsEnabled,
            virtual_iban: s.virtualIbanEnabled,
            african_accounts: s.africanAccountsEnabled,
            mobile_money: s.mobileMoneyEnabled,
            disputes: s.disputesEnabled,
            crypto: s.cryptoEnabled,
            fiat_ramps: s.fiatRampsEnabled,
            rewards: s.rewardsEnabled,
          },
          banking_rails: data.nodeBankingRails,
          brokerage: { provider: s.brokerageProvider, fractional_shares: s.fractionalSharesEnabled },
          kyc: { required: s.kycRequired, enhanced_required: s.enhancedKycRequired },
          auth: { enforce_2fa: s.enforce2fa, signup: data.nodeSignupMode },
          maintenance: { active: s.maintenanceMode, message: s.maintenanceMessage },
          read_only: data.nodeInfo.readOnly,
          development: outbox ? { outbox } : null,
        },
      };
    },
  }),
  publicLogoRoute,
  route({
    method: 'GET',
    path: '/api/v1/config/features/',
    summary: 'Feature flags',
    description:
      'The sixteen toggles of the settings record as the admin console last saved them (effective at once). Clients read them at start-up and on refresh.',
    tags: ['Configuration'],
    security: 'none',
    operation: 'FeatureFlags',
    response: { description: 'Feature flags', schema: schemas.featureFlags },
    respond: (data) => ({ kind: 'json', body: featuresOf(data.nodeSettings) }),
  }),
  route({
    method: 'POST',
    path: '/api/login/',
    summary: 'Sign in: an access token',
    description:
      'JSON `{username, password}` (and `otp`, the 6-digit code, for users enrolled in 2FA — or `recovery_code`, one of their recovery codes, each usable once) → ' +
      '`{access, token_type, expires_in}`. Send `Authorization: Bearer <access>` afterwards. Each sign-in is a session (GET /api/auth/sessions/): the token ' +
      'stops working when it ends (POST /api/auth/logout/, logout-all, a password change or reset). ' +
      'Wrong credentials: 401 `no_active_account`; 5 failures of one user name within 15 minutes: 429 `throttled` with Retry-After. With "Enforce 2FA on login" on, ' +
      'a user not enrolled yet gets 403 `otp_enrolment_required` with an `enrolment_token` for the enrolment endpoints. Allowed in licence read-only mode (it changes no data).',
    tags: ['Authentication'],
    security: 'none',
    operation: 'Login',
    body: schemas.loginBody,
    variables: ({ body, req }: { body: z.infer<typeof schemas.loginBody>; req: { headers: Record<string, unknown> } }) => ({
      username: body.username,
      password: body.password,
      otp: body.otp ?? null,
      recoveryCode: body.recovery_code ?? null,
      userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'].slice(0, 500) : null,
    }),
    response: { description: 'Access token', schema: schemas.loginResponse },
    errors: [401, 403, 429, 503],
    respond: (data) => ({ kind: 'json', body: data.access }),
  }),
  route({
    method: 'GET',
    path: '/api/balance/',
    summary: "The caller's balances",
    description: 'One entry per currency the caller holds, from the ledger: available, posted and pending, as decimal strings with their currency.',
    tags: ['Wallet'],
    security: 'bearer',
    operation: 'Balance',
    response: { description: 'Balances', schema: schemas.balanceResponse },
    errors: [403, 503],
    respond: (data) => ({ kind: 'json', body: { balances: data.balances } }),
  }),
  route({
    method: 'POST',
    path: '/api/auth/2fa/enrol/',
    summary: 'Start enrolment in two-factor authentication (TOTP)',
    description:
      'Answers a new secret, its `otpauth://` URI and that URI as a QR code (`qr_code`, an SVG data: URI: scan it with an authenticator app), then confirm with a code. Bearer: an access token, or the `enrolment_token` of a 403 `otp_enrolment_required`. ' +
      'With an access token, JSON `{current_password}` is required: missing or wrong, 400 `validation_error` with `fields.current_password` (guesses are throttled ' +
      'with the sign-in attempts: 429 with Retry-After); the enrolment token (given for the password just checked) needs none. Part of signing in: allowed on a read-only (unlicensed) node too.',
    tags: ['Authentication'],
    security: 'bearer',
    operation: 'StartTotpEnrolment',
    body: z.object({ current_password: z.string().max(1000).nullish() }).optional(),
    variables: ({ body }: { body?: { current_password?: string | null } }) => ({ currentPassword: body?.current_password ?? null }),
    response: {
      status: 201,
      description: 'Secret, otpauth URI and the QR code of that URI',
      schema: z.object({
        secret: z.string(),
        otpauth_uri: z.string(),
        qr_code: z.string().describe('The otpauth URI as a QR code to scan: an SVG image as a `data:image/svg+xml;base64,…` URI'),
      }),
    },
    errors: [400, 409, 429],
    respond: (data) => ({ kind: 'json', status: 201, body: data.startTotpEnrolment }),
  }),
  route({
    method: 'POST',
    path: '/api/auth/2fa/confirm/',
    summary: 'Confirm the enrolment with a code',
    description:
      'JSON `{otp}`: the current 6-digit code. From then on, sign-in needs `otp`. Answers ten one-time `recovery_codes` (shown this once: each signs in ' +
      'once instead of a code, POST /api/login/ with `recovery_code`; POST /api/auth/2fa/recovery-codes/ renews them).',
    tags: ['Authentication'],
    security: 'bearer',
    operation: 'ConfirmTotpEnrolment',
    body: z.object({ otp: z.string().describe('The 6-digit code of the authenticator app') }),
    variables: ({ body }: { body: { otp: string } }) => ({ otp: body.otp }),
    response: { description: 'Enrolled', schema: z.object({ username: z.string(), two_factor_enabled: z.boolean(), recovery_codes: z.array(z.string()) }) },
    errors: [409],
    respond: (data) => ({ kind: 'json', body: data.confirmTotpEnrolment }),
  }),
  route({
    method: 'POST',
    path: '/api/assistant/',
    summary: 'Ask the assistant',
    description:
      'JSON `{question}` → `{answer, model}` from the configured OpenAI-compatible provider (ASSISTANT_API_KEY or the admin console credential ' +
      'assistant/api_key, ASSISTANT_BASE_URL, ASSISTANT_MODEL). With no provider key: 501 `assistant_not_configured` (the node does not offer the ' +
      'assistant; asking again changes nothing). When the provider fails: 503 `assistant_unavailable` with the generic message and Retry-After.',
    tags: ['Assistant'],
    security: 'bearer',
    operation: 'AskAssistant',
    body: z.object({ question: z.string().describe('1 to 4,000 characters') }),
    variables: ({ body }: { body: { question: string } }) => ({ question: body.question }),
    response: { description: 'The answer', schema: z.object({ answer: z.string(), model: z.string() }) },
    // 501 (not configured) is stated in the description, not as a response: the conformance replay runs a node with a provider
    errors: [403, 503],
    respond: (data) => ({ kind: 'json', body: data.askAssistant }),
  }),
  ...accountRoutes,
  ...devOutboxRoutes,
  ...kycRoutes,
  ...bankingRoutes,
  ...cardRoutes,
  ...cryptoRoutes,
  ...commerceRoutes,
  ...investingRoutes,
  ...paymentsRoutes,
];
