import { isDevelopment, type Config } from '../../../../lib/config';
import { CLIENT_HEADERS } from '../../kernel/contract';
import { PROVIDER_CREDENTIALS } from '../../kernel/provider-credentials';
import { SANDBOX_PROVIDERS, sandboxAllowed, sandboxProvidersSelected } from '../../kernel/sandbox';
import { FRAMEWORK_SECRET_KEY_LENGTH, type NodeSecrets } from '../../kernel/secrets';

export { CLIENT_HEADERS };

/**
 * The finance node's system checks, as Django's check framework reports them: `<app>.<E|W|I><nnn>`,
 * a message and a hint. `npm run cli -- finance:check` prints them and exits 1 on any error; the
 * node runs them at start-up, logs them and shows them in GET /api/v1/node/. Licence errors
 * (app.E001–E004) make the node read-only; the other errors are reported, the node still starts.
 */
export interface CheckMessage {
  id: string;
  level: 'ERROR' | 'WARNING' | 'INFO';
  msg: string;
  hint?: string;
}

/** What the contract documents for every check id (README, finance:check --list). */
export const CHECK_CATALOGUE: Record<string, string> = {
  'app.E001': 'Licence token missing or a placeholder (node read-only)',
  'app.E002': 'Licence public key missing or the default (node read-only)',
  'app.E003': 'Licence token does not verify: bad signature, wrong audience, malformed (node read-only)',
  'app.E004': 'Licence token expired or not valid yet (node read-only)',
  'app.E005': 'DEBUG is true in production',
  'app.E006': 'FRAMEWORK_SECRET_KEY missing in production, or not 64 characters',
  'app.E007': 'SERVER_JWT_KEY missing in production, shorter than 32 characters, or equal to FRAMEWORK_SECRET_KEY',
  'app.E008': 'A CSRF_TRUSTED_ORIGINS or CORS_ALLOWED_ORIGINS entry is not an origin (scheme://host[:port])',
  'app.E009': 'The object store cannot be written: KYC document uploads answer 503 storage_unavailable',
  'app.E010':
    "Licence signed by a key the node does not trust: not one it carries (vendor-keys.pem, the registry's key of `npm start`, VENDOR_PUBLIC_KEY in production), nor in development the first licence's (node read-only)",
  'app.E011': 'Production node without a vendor key (none built in, no VENDOR_PUBLIC_KEY): it installs no licence (node read-only)',
  'app.W001': 'Licence token expires within 14 days',
  'app.W002': 'CORS_ALLOWED_HEADERS is set: the name is CORS_ALLOW_HEADERS, the misspelt one is ignored',
  'app.W003': 'CORS_ALLOW_HEADERS lacks some of the seven client headers: browser preflights fail',
  'app.W004': 'A secret key was generated for development (set it for production)',
  'app.W005': 'ALLOWED_HOSTS allows any host (*) in production',
  'app.W006': 'CORS_ALLOWED_ORIGINS is empty: browser clients on other origins are refused',
  'app.W007': 'FRONTEND_URL is unset, or its origin is not in CORS_ALLOWED_ORIGINS',
  'app.W008': 'VENDOR_LICENSE_ENGINE_URL is set without VENDOR_API_KEY: finance:activate cannot register',
  'app.W009': 'PORT is not 8000, the contract default',
  'app.W010': 'A provider is configured (its URL, KYC_PROVIDER=sumsub) but a credential it needs is neither set nor in the admin console',
  'app.W011': 'An offline sandbox provider is active in production (ALLOW_SANDBOX_PROVIDERS)',
  'app.W013': 'Development: the node carries no vendor key and trusts the key of its first licence (pinned on first use; production never does)',
  'app.W012': 'A provider is not configured and its offline sandbox is disabled in production: its calls answer 503',
  'app.I001': 'Datastores: how DATABASE_URL/POSTGRES_*, REDIS_PASSWORD and CELERY_* are used',
  'app.I002': 'The assistant has no provider key: it answers 501 (not configured)',
  'app.I003': 'No brokerage credentials: the equities brokerage runs in paper mode',
};

const isOrigin = (value: string) => {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === value.replace(/\/$/, '');
  } catch {
    return false;
  }
};

/** app.E009 from what the object store says stops its writes (ObjectStore.writeProblem); none when it takes them. */
export function storageChecks(problem: string | undefined): CheckMessage[] {
  if (!problem) return [];
  return [
    {
      id: 'app.E009',
      level: 'ERROR',
      msg: `The object store cannot be written (${problem}): KYC document uploads answer 503 storage_unavailable.`,
      hint: 'Make DATA_DIR/objects a folder this process can write (or check OBJECT_STORE and its S3 settings); nothing is lost meanwhile.',
    },
  ];
}

/** The configuration checks (everything but the licence, which `evaluateLicence` checks). */
/** `held`: the provider credentials the admin console stores, as "provider/name" (they stand in for unset variables). */
export function configurationChecks(config: Config, secrets: NodeSecrets, held: ReadonlySet<string> = new Set()): CheckMessage[] {
  const out: CheckMessage[] = [];
  const production = !isDevelopment(config);
  if (production && config.DEBUG) {
    out.push({ id: 'app.E005', level: 'ERROR', msg: 'DEBUG is true in production.', hint: 'Set DEBUG=false: debug mode must never run in production.' });
  }
  const secret = secrets.frameworkSecretKey;
  if (production && (!secret || secret.length !== FRAMEWORK_SECRET_KEY_LENGTH)) {
    out.push({
      id: 'app.E006',
      level: 'ERROR',
      msg: secret ? `FRAMEWORK_SECRET_KEY has ${secret.length} characters; it must have ${FRAMEWORK_SECRET_KEY_LENGTH}.` : 'FRAMEWORK_SECRET_KEY is not set.',
      hint: 'Generate a unique key: `openssl rand -base64 48` (64 characters). It encrypts provider credentials and 2FA secrets at rest.',
    });
  }
  const jwt = secrets.serverJwtKey;
  if (production && (!jwt || jwt.length < 32 || jwt === secret)) {
    out.push({
      id: 'app.E007',
      level: 'ERROR',
      msg: !jwt
        ? 'SERVER_JWT_KEY is not set.'
        : jwt === secret
          ? 'SERVER_JWT_KEY equals FRAMEWORK_SECRET_KEY.'
          : 'SERVER_JWT_KEY is shorter than 32 characters.',
      hint: 'Set a unique signing key for access tokens per deployment: `openssl rand -base64 48`. Sign-in answers 503 until then.',
    });
  }
  for (const name of secrets.generated) {
    out.push({
      id: 'app.W004',
      level: 'WARNING',
      msg: `${name} is not set; a key was generated for development (${config.DATA_DIR}/finance-secrets.json).`,
      hint: `Set ${name} in production.`,
    });
  }
  const badOrigins = [...config.CSRF_TRUSTED_ORIGINS, ...config.CORS_ALLOWED_ORIGINS].filter((o) => !isOrigin(o));
  if (badOrigins.length) {
    out.push({
      id: 'app.E008',
      level: 'ERROR',
      msg: `Not an origin: ${badOrigins.join(', ')}.`,
      hint: 'CSRF_TRUSTED_ORIGINS and CORS_ALLOWED_ORIGINS list origins with their scheme, e.g. https://app.example.com (no path).',
    });
  }
  if (config.CORS_ALLOWED_HEADERS !== undefined) {
    out.push({
      id: 'app.W002',
      level: 'WARNING',
      msg: 'CORS_ALLOWED_HEADERS is set and ignored: the setting is CORS_ALLOW_HEADERS.',
      hint: 'Rename it to CORS_ALLOW_HEADERS (ALLOW, not ALLOWED).',
    });
  }
  if (config.CORS_ALLOW_HEADERS.length) {
    const given = new Set(config.CORS_ALLOW_HEADERS.map((h) => h.toLowerCase()));
    const missing = CLIENT_HEADERS.filter((h) => !given.has(h.toLowerCase()));
    if (missing.length) {
      out.push({
        id: 'app.W003',
        level: 'WARNING',
        msg: `CORS_ALLOW_HEADERS lacks ${missing.join(', ')}: browser preflights carrying them fail, and with them every client call.`,
        hint: `List all seven client headers: ${CLIENT_HEADERS.join(',')} (unset: exactly these).`,
      });
    }
  }
  if (production && config.ALLOWED_HOSTS.includes('*')) {
    out.push({ id: 'app.W005', level: 'WARNING', msg: 'ALLOWED_HOSTS allows any host.', hint: 'List the host names this node is reached by.' });
  }
  if (!config.CORS_ALLOWED_ORIGINS.length) {
    out.push({
      id: 'app.W006',
      level: 'WARNING',
      msg: 'CORS_ALLOWED_ORIGINS is empty: browser clients on other origins cannot call this node.',
      hint: "List the client's origin (FRONTEND_URL), e.g. https://app.example.com.",
    });
  }
  const frontend = config.FRONTEND_URL ? new URL(config.FRONTEND_URL).origin : undefined;
  if (!frontend || !config.CORS_ALLOWED_ORIGINS.includes(frontend)) {
    out.push({
      id: 'app.W007',
      level: 'WARNING',
      msg: frontend ? `FRONTEND_URL's origin ${frontend} is not in CORS_ALLOWED_ORIGINS.` : 'FRONTEND_URL is not set.',
      hint: 'Set FRONTEND_URL to the public client URL and list its origin in CORS_ALLOWED_ORIGINS and CSRF_TRUSTED_ORIGINS.',
    });
  }
  if (config.VENDOR_LICENSE_ENGINE_URL && !config.VENDOR_API_KEY) {
    out.push({
      id: 'app.W008',
      level: 'WARNING',
      msg: 'VENDOR_LICENSE_ENGINE_URL is set but VENDOR_API_KEY is not.',
      hint: 'VENDOR_API_KEY holds the registry licence key (LIC-XXXX-XXXX-XXXX) that finance:activate registers the node with.',
    });
  }
  if (config.PORT !== 8000) {
    out.push({ id: 'app.W009', level: 'WARNING', msg: `PORT is ${config.PORT}; the node's documented port is 8000.` });
  }
  if (production) out.push(...sandboxChecks(config));
  // providers used for real (not their offline sandbox) whose credential is in neither place: their calls answer 503
  const configured: Record<string, boolean> = {
    banking: Boolean(config.BANKING_PROVIDER_URL),
    card_issuer: Boolean(config.CARD_ISSUER_URL),
    crypto_exchange: Boolean(config.CRYPTO_EXCHANGE_URL),
    kyc: config.KYC_PROVIDER === 'sumsub',
  };
  const env = config as Record<string, unknown>;
  const missing = PROVIDER_CREDENTIALS.filter((c) => configured[c.provider] && !env[c.env] && !held.has(`${c.provider}/${c.name}`));
  if (missing.length) {
    out.push({
      id: 'app.W010',
      level: 'WARNING',
      msg: `Providers configured without a credential: ${missing.map((c) => `${c.provider}/${c.name} (${c.env})`).join(', ')}.`,
      hint: 'Set the environment variable, or save the credential in the admin console (/admin/node/providercredential/); until then those calls fail.',
    });
  }
  out.push({
    id: 'app.I001',
    level: 'INFO',
    msg: datastoreSummary(config),
  });
  if (!config.ASSISTANT_API_KEY && !held.has('assistant/api_key')) {
    out.push({
      id: 'app.I002',
      level: 'INFO',
      msg: 'ASSISTANT_API_KEY is not set and the admin console holds no assistant/api_key: the assistant answers 501 assistant_not_configured.',
    });
  }
  if (
    (!config.BROKERAGE_API_KEY_ID && !held.has('equities_brokerage/key_id')) ||
    (!config.BROKERAGE_API_SECRET_KEY && !held.has('equities_brokerage/secret_key'))
  ) {
    out.push({
      id: 'app.I003',
      level: 'INFO',
      msg: 'BROKERAGE_API_KEY_ID/BROKERAGE_API_SECRET_KEY are not set and the admin console holds no equities_brokerage key_id/secret_key: the equities brokerage runs in paper mode.',
    });
  }
  return out;
}

/** In production: each sandbox provider the configuration selects, active (allowed by ALLOW_SANDBOX_PROVIDERS) or disabled. */
function sandboxChecks(config: Config): CheckMessage[] {
  return sandboxProvidersSelected(config).map((p) =>
    sandboxAllowed(config, p)
      ? {
          id: 'app.W011',
          level: 'WARNING' as const,
          msg: `The sandbox ${p} provider is active in production (${SANDBOX_PROVIDERS[p]}; ALLOW_SANDBOX_PROVIDERS allows it): it has no real counterparty.`,
          hint: 'Configure the real provider, and take it out of ALLOW_SANDBOX_PROVIDERS.',
        }
      : {
          id: 'app.W012',
          level: 'WARNING' as const,
          msg: `The ${p} provider is not configured (${SANDBOX_PROVIDERS[p]}) and its sandbox is disabled in production: its calls answer 503.`,
          hint: `Configure the provider, or set ALLOW_SANDBOX_PROVIDERS=${p} to run its sandbox on purpose.`,
        },
  );
}

function datastoreSummary(config: Config): string {
  const db =
    config.databaseFrom === 'POSTGRES_*'
      ? `POSTGRES_DB/POSTGRES_USER/POSTGRES_PASSWORD (host ${config.POSTGRES_HOST ?? '127.0.0.1'})`
      : config.databaseFrom === 'DATABASE_URL'
        ? 'DATABASE_URL'
        : 'the embedded PostgreSQL';
  const unused = [
    config.REDIS_PASSWORD ? 'REDIS_PASSWORD' : undefined,
    config.CELERY_BROKER_URL ? 'CELERY_BROKER_URL' : undefined,
    config.CELERY_RESULT_BACKEND ? 'CELERY_RESULT_BACKEND' : undefined,
  ].filter(Boolean);
  return (
    `Database: ${db}. No Redis and no Celery: the node caches in memory (evicted in every process by PostgreSQL NOTIFY) and runs background tasks as PostgreSQL jobs (pg-boss)` +
    (unused.length
      ? `; ${unused.join(', ')} ${unused.length === 1 ? 'is' : 'are'} accepted and not used.`
      : '; REDIS_PASSWORD and CELERY_* are accepted and not used.')
  );
}

/** Django's `check` output: grouped ERRORS / WARNINGS / INFOS, `?: (id) msg` and a tab-indented HINT, then the count. */
export function formatChecks(messages: readonly CheckMessage[], silenced: readonly string[]): string {
  const shown = messages.filter((m) => !silenced.includes(m.id));
  const silencedCount = messages.length - shown.length;
  if (!shown.length) return `System check identified no issues (${silencedCount} silenced).`;
  const lines = ['System check identified some issues:'];
  for (const [level, title] of [
    ['ERROR', 'ERRORS'],
    ['WARNING', 'WARNINGS'],
    ['INFO', 'INFOS'],
  ] as const) {
    const group = shown.filter((m) => m.level === level);
    if (!group.length) continue;
    lines.push('', `${title}:`);
    for (const m of group) lines.push(`?: (${m.id}) ${m.msg}${m.hint ? `\n\tHINT: ${m.hint}` : ''}`);
  }
  lines.push('', `System check identified ${shown.length} issue${shown.length === 1 ? '' : 's'} (${silencedCount} silenced).`);
  return lines.join('\n');
}
