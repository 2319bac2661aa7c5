import { z } from 'zod';

/** Response and request schemas of the finance node's REST surface (OpenAPI at /swagger.json). */
export const money = z.object({
  amount: z.string().describe('Decimal string, e.g. "10.50" (never a float)'),
  currency: z.string().describe('ISO 4217 code (or a crypto asset code)'),
});

export const errorBody = z.object({
  detail: z.string().describe('What went wrong'),
  code: z
    .string()
    .describe(
      'not_authenticated, token_not_valid, no_active_account, permission_denied, licence_read_only, module_disabled, maintenance, throttled, otp_required, otp_invalid, otp_enrolment_required, csrf_failed, disallowed_host, invalid, …',
    ),
  errors: z.record(z.string(), z.array(z.string())).optional().describe('Per-field messages (400)'),
  error: z.string().optional().describe('The account routes (/api/auth/…, /api/v1/profile/): the code again, as sign-up forms read it'),
  fields: z.record(z.string(), z.string()).optional().describe('The account routes: one message per field (validation_error, username_taken)'),
  maintenance: z.literal(true).optional().describe('Set on maintenance answers (503)'),
  checks: z
    .array(z.union([z.string(), z.object({ subgraph: z.string(), ready: z.boolean(), database: z.boolean(), pending_migrations: z.array(z.string()) })]))
    .optional()
    .describe('licence_read_only: the failing licence checks, e.g. ["app.E001"]; /readyz: the readiness of each subgraph'),
  module: z.string().optional().describe('module_disabled: the module that is switched off'),
  enrolment_token: z.string().optional().describe('otp_enrolment_required: a 10-minute token for the 2FA enrolment endpoints only'),
  expires_in: z.number().int().optional(),
  required: z.string().optional().describe('kyc_required: the level the operation needs'),
  level: z.string().optional().describe("kyc_required: the caller's level"),
  limit: z.unknown().optional().describe('limit_exceeded: the limit'),
  currency: z.string().optional().describe('limit_exceeded: its currency'),
  remaining: z.unknown().optional().describe('limit_exceeded: what is left of it'),
  period: z.string().optional().describe('limit_exceeded: its period'),
  state: z.string().optional().describe('kyc_invalid_state, kyc_verification_exists, kyc_basic_required: the state of the verification'),
  id: z.string().optional().describe('kyc_verification_exists: the verification'),
  status: z.string().optional().describe('invalid_state: the current status'),
  available: z.unknown().optional().describe('out_of_stock: what is in stock'),
  price: z.unknown().optional().describe('price_changed: the price now'),
});

export const loginBody = z.object({
  username: z.string().describe('User name'),
  password: z.string().describe('Password'),
  otp: z
    .string()
    .regex(/^\d{6}$/)
    .optional()
    .describe('The 6-digit code of the authenticator app: required for users enrolled in 2FA (the "Enforce 2FA on login" toggle makes enrolment mandatory)'),
  recovery_code: z.string().max(40).optional().describe('Instead of `otp`: one of the recovery codes of a user enrolled in 2FA (each works once)'),
});

export const loginResponse = z.object({
  access: z.string().describe('The access token: send `Authorization: Bearer <access>`'),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().describe('Seconds until the token expires; then sign in again (no refresh token)'),
});

export const balanceResponse = z.object({
  balances: z.array(
    z.object({
      currency: z.string(),
      available: money.describe('What can be spent: posted minus pending debits'),
      posted: money.describe('Credits minus debits of posted transfers'),
      pending: money.describe('Posted plus pending transfers in both directions'),
    }),
  ),
});

export const check = z.object({
  id: z.string().describe('app.E001 …'),
  level: z.enum(['ERROR', 'WARNING', 'INFO']),
  message: z.string(),
  hint: z.string().nullable(),
});

const adminOnly = 'Administrators only (admin console session); absent for anyone else';

export const nodeResponse = z.object({
  name: z.string().describe('APP_NAME'),
  version: z.string().describe('APP_VERSION'),
  hostname: z.string().optional().describe(adminOnly),
  deployment_id: z.string().nullable().optional().describe(`The id the licence registry gave this node. ${adminOnly}`),
  read_only: z.boolean().describe('true while the licence check fails: writes answer 403 licence_read_only'),
  maintenance: z.boolean(),
  licence: z.object({
    status: z.enum(['valid', 'missing', 'invalid', 'expired']),
    valid: z.boolean(),
    source: z.string().optional().describe(adminOnly),
    installed_at: z.string().nullable().optional().describe(adminOnly),
    checks: z.array(z.string()).describe('Ids of the failing licence checks (app.E001 …)'),
    issuer: z.string().nullable().optional().describe(adminOnly),
    key_id: z.string().nullable().optional().describe(adminOnly),
    issued_at: z.string().nullable().optional().describe(adminOnly),
    expires_at: z.string().nullable(),
    claims: z
      .object({
        licence_id: z.string(),
        organisation_id: z.string(),
        organisation_name: z.string(),
        product: z.string(),
        plan: z.string(),
        max_nodes: z.number(),
        maintenance_until: z.string(),
        entitlements: z.array(z.string()),
        status: z.string(),
      })
      .nullable()
      .optional()
      .describe(adminOnly),
  }),
  checks: z.array(check).optional().describe(`Every system check with its message and hint. ${adminOnly}`),
  registry: z
    .object({
      url: z.string().optional().describe(adminOnly),
      last_heartbeat_at: z.string().nullable(),
      last_heartbeat_status: z
        .string()
        .nullable()
        .describe('healthy, degraded or unknown as this node reported itself; unreachable; or the refusal (e.g. license_revoked: no more updates)'),
    })
    .nullable()
    .describe('The licence registry this node reports to, and how its last heartbeat went (null: not registered)'),
});

export const featureFlags = z.record(z.string(), z.union([z.boolean(), z.string()])).describe('The sixteen toggles of the settings record, and updated_at');

export const publicConfig = z.object({
  app: z.object({ name: z.string(), version: z.string() }),
  branding: z
    .record(z.string(), z.string())
    .describe(
      'organisation_name, legal_entity, logo_url, favicon_url, color_primary, color_secondary, color_accent, support_email, support_phone, terms_url, privacy_url. ' +
        '`logo_url`: the uploaded logo, `/api/v1/config/logo/?v=<version>` (GET it: the image), or empty when there is none.',
    ),
  modules: z.record(z.string(), z.boolean()),
  banking_rails: z.array(z.object({ rail: z.string(), currencies: z.array(z.string()), module: z.string() })),
  brokerage: z.object({ provider: z.string(), fractional_shares: z.boolean() }),
  kyc: z.object({ required: z.boolean(), enhanced_required: z.boolean() }),
  auth: z.object({ enforce_2fa: z.boolean(), signup: z.enum(['open', 'invite_only']) }),
  maintenance: z.object({ active: z.boolean(), message: z.string() }),
  read_only: z.boolean(),
  development: z
    .object({ outbox: z.string().describe('Path of the development outbox page: the mails and text messages the node "sent"') })
    .nullable()
    .describe('Development mode only (null in production): what a client may show developers, e.g. a link to the outbox beside "check your mail"'),
});

export const readiness = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.array(z.object({ subgraph: z.string(), ready: z.boolean(), database: z.boolean(), pending_migrations: z.array(z.string()) })),
});
