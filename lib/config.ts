import { BlockList, isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import { FIAT_CURRENCIES } from './money';
import { operatorKeyProblem } from './operator-keys';
import { projectRoot } from './paths';
import { keyProblem } from './service-keys';

const key = (kind: 'private' | 'public') =>
  z
    .string()
    .superRefine((value, ctx) => {
      const problem = keyProblem(value, kind);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional();
const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const optionalString = (inner: z.ZodString) =>
  z
    .string()
    .trim()
    .transform((s) => (s === '' ? undefined : s))
    .pipe(inner.optional())
    .optional();
/** A comma-separated list (Django settings style): trimmed, empty entries dropped. */
const list = z
  .string()
  .optional()
  .transform((s) =>
    (s ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );
const optionalText = z
  .string()
  .optional()
  .transform((s) => (s === undefined || s.trim() === '' ? undefined : s.trim()));
/** Django-style booleans: true/false, 1/0, yes/no, on/off (any case). */
const flag = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((s, ctx) => {
      if (s === undefined || s.trim() === '') return fallback;
      const v = s.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(v)) return true;
      if (['0', 'false', 'no', 'off'].includes(v)) return false;
      ctx.addIssue({ code: 'custom', message: 'must be true or false' });
      return fallback;
    });
const optionalUrl = z
  .string()
  .trim()
  .transform((s) => (s === '' ? undefined : s))
  .pipe(z.string().url().optional())
  .optional();

/** Every setting the system reads from the environment, validated once at start-up. */
const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().default('127.0.0.1'),
  /** Development mode on a HOST other than loopback: an explicit choice (introspection and the IDE are then open to the network). */
  ALLOW_DEVELOPMENT_ON_NETWORK: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  GATEWAY_PORT: port(4000),
  PREDICTIONS_PORT: port(8080),
  REGISTRY_PORT: port(8090),
  PORT: port(8000),
  DATABASE_URL: optionalUrl,
  DATA_DIR: z.string().default('.data'),
  EMBEDDED_PG_PORT: port(54329),
  /** Connections of each subgraph's pool; at least 2: a start holds one for the migration lock while another migrates. */
  DB_POOL_SIZE: z.coerce.number().int().min(2).max(100).default(10),
  /**
   * Each statement's bound, in ms (PostgreSQL's statement_timeout, and node-postgres's query_timeout
   * for a server that does not answer at all): a request then gets its 503 with Retry-After instead
   * of hanging while the database is frozen. 0: none. Migrations are not bounded.
   */
  DB_QUERY_TIMEOUT_MS: z.coerce.number().int().min(0).default(5_000),
  /**
   * The products this process runs (comma-separated: predictions, registry, finance; default all). The
   * finance node alone (PRODUCTS=finance) is what customers self-host: it reaches the registry over HTTP only.
   */
  PRODUCTS: list.pipe(
    z
      .array(z.enum(['predictions', 'registry', 'finance'], { error: 'must list products among predictions, registry, finance' }))
      .transform((names) => (names.length ? [...new Set(names)] : (['predictions', 'registry', 'finance'] as const))),
  ),
  /** local: subgraphs in this process; remote: subgraphs reached over HTTP (docker compose). */
  SUBGRAPH_MODE: z.enum(['local', 'remote']).default('local'),
  /** A standalone subgraph's own port (docker compose: one container per subgraph). */
  SUBGRAPH_PORT: port(4000),
  /** The gateway's GraphQL endpoint that this process calls: the public one (REST adapter) or the internal one (a subgraph). */
  GATEWAY_URL: optionalUrl,
  /** How long the REST adapter waits for the gateway's answer to one operation before it answers 503 (Retry-After). */
  GATEWAY_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  /** The gateway's internal endpoint, where subgraphs call it with their signed service principal (remote topology). */
  GATEWAY_INTERNAL_HOST: z.string().default('127.0.0.1'),
  GATEWAY_INTERNAL_PORT: port(4001),
  /** Remote topology: this service's own Ed25519 private key (lib/service-keys.ts). */
  SERVICE_PRIVATE_KEY: key('private'),
  /** A remote subgraph: the gateway's public key, the only signer it accepts principals from. */
  GATEWAY_PUBLIC_KEY: key('public'),
  /**
   * The reverse proxies whose X-Forwarded-For gives the client's address (per-address limits):
   * Express's `trust proxy` (addresses or subnets, comma-separated; `loopback`, `uniquelocal`).
   * Unset: none, the client is the connection's peer.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .transform((s) => (s === '' ? undefined : s))
    .optional(),
  /** The administrator key (see lib/operator-keys.ts); changing it revokes the one it replaces. */
  ADMIN_API_KEY: z
    .string()
    .superRefine((value, ctx) => {
      const problem = operatorKeyProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  PUBLIC_URL_PREDICTIONS: optionalUrl,
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('Match Predictions <no-reply@localhost>'),
  /** Finance node: sign-ups, e-mail verifications and password resets allowed per client address and hour (each counted apart). */
  AUTH_ATTEMPTS_PER_HOUR: z.coerce.number().int().min(1).default(20),
  /** Shared secret of the inbound-mail webhook (header X-Inbound-Mail-Secret); unset: the webhook is disabled. */
  INBOUND_MAIL_SECRET: z.string().min(16).optional(),
  /**
   * The built-in mailbox for applications by e-mail: an SMTP receiver on this port (0: any free port; "off": none; unset: 2525,
   * and when 2525 is taken the system starts without the mailbox)
   * taking mail for APPLICATION_MAIL_ADDRESS. Mail with the subject "API Access Request" becomes an application; the rest is
   * counted and dropped.
   */
  APPLICATION_SMTP_PORT: z
    .string()
    .trim()
    .regex(/^(off|\d{1,5})$/, 'a port number, or off')
    .optional(),
  /** The built-in mailbox: messages accepted per client address and minute, and per envelope sender and minute (past it: 450). */
  APPLICATION_SMTP_MESSAGES_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Where applicants write to (shown on the form, /api/ and the docs); its domain is what the receiver accepts mail for. */
  APPLICATION_MAIL_ADDRESS: z
    .string()
    .trim()
    .regex(/^[^@\s<>]+@[^@\s<>]+$/, 'an e-mail address, e.g. api-access@predictions.example')
    .default('api-access@localhost'),
  /** Abuse limits per client address: applications by the form or POST /api/applications/, and inbound-mail webhook calls, per hour. */
  APPLICATIONS_PER_HOUR: z.coerce.number().int().min(1).default(10),
  INBOUND_MAILS_PER_HOUR: z.coerce.number().int().min(1).default(120),
  /**
   * The live football data feed: comma-separated `<competition>@<season>=<url>` entries, e.g.
   * `en.1@2026-27=https://example.org/2026-27/en.1.json`; each URL serves football.json or a
   * football-data.co.uk CSV (recognised from the content). Unset or empty: openfootball's football.json
   * files of every shipped league's current season (FOOTBALL_DEFAULT_SOURCE_BASE); `off`: no feed.
   */
  FOOTBALL_FEED_URLS: list.superRefine((entries, ctx) => {
    if (entries.length === 1 && entries[0].toLowerCase() === 'off') return;
    for (const e of entries)
      if (!/^[a-z]{2}\.\d@\d{4}-\d{2}=https?:\/\/\S+$/.test(e))
        ctx.addIssue({ code: 'custom', message: `"${e}" is not <competition>@<season>=<http(s) url> (or off, alone)` });
  }),
  /** Where the default sources are read from: `<base>/<season>/<league>.json` (openfootball/football.json on GitHub). */
  FOOTBALL_DEFAULT_SOURCE_BASE: z
    .string()
    .trim()
    .regex(/^https?:\/\/\S+$/, 'an http(s) URL')
    .default('https://raw.githubusercontent.com/openfootball/football.json/master'),
  /** Minutes between two passes of the feed job. */
  FOOTBALL_FEED_INTERVAL_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
  /** Per request to a feed source: the time allowed, and the retries (with exponential back-off) after a failure. */
  FOOTBALL_FEED_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
  FOOTBALL_FEED_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  /**
   * Days after which ratings are flagged stale (predict's stale_ratings, the bot, /api/'s leagues): a team
   * whose newest result, or a league whose newest result, is older says how it played then.
   */
  RATINGS_STALE_DAYS: z.coerce.number().int().min(1).max(3_650).default(90),
  /** Model family of each new version: dixon-coles, elo, pi-ratings or ensemble. */
  PREDICTION_MODEL: z.string().default('ensemble'),
  /** Seasons per league predicted walk-forward after each retrain (they feed the statistics). */
  BACKTEST_SEASONS: z.coerce.number().int().min(1).max(15).default(5),
  /** Requests of one API key metered by one statement at most, while the statement before them runs (1: one statement per request). */
  METER_BATCH_MAX: z.coerce.number().int().min(1).max(10_000).default(500),
  /**
   * The gateway sends a single-fetch plan that selects what the client asked as planned and returns
   * the subgraph's answer as it is (gateway/supergraph-executor.ts); off: @apollo/gateway executes every plan.
   */
  GATEWAY_DIRECT_FETCH: flag(true),
  /** The gateway's response cache of answers that are the same whoever asks (gateway/response-cache.ts). */
  RESPONSE_CACHE: flag(true),
  /** The size of the answers it holds at most, in MiB (as JSON; the least recently used go first). */
  RESPONSE_CACHE_MAX_MB: z.coerce.number().int().min(1).default(64),
  /** How long an answer is kept at most: a backstop, as every change to the data evicts its answers at once. */
  RESPONSE_CACHE_TTL_SECONDS: z.coerce.number().int().min(1).default(300),
  MAX_QUERY_DEPTH: z.coerce.number().int().min(2).default(12),
  MAX_QUERY_COST: z.coerce.number().int().min(10).default(5000),
  /** Root fields of one operation (aliases and fragments counted). */
  MAX_ROOT_FIELDS: z.coerce.number().int().min(1).default(20),
  /**
   * Fields of one operation with its fragments expanded, `__typename` included (counted in linear
   * time before anything else measures the operation; the largest shipped operation has 79, the
   * full introspection query about 230).
   */
  MAX_QUERY_FIELDS: z.coerce.number().int().min(250).default(1000),
  /** Aliases of one operation (GraphQL Armor's max-aliases; `__typename` aliases count). */
  MAX_QUERY_ALIASES: z.coerce.number().int().min(0).default(30),
  /** Directives of one operation (GraphQL Armor's max-directives). */
  MAX_QUERY_DIRECTIVES: z.coerce.number().int().min(0).default(50),
  /** Tokens the GraphQL parser reads before it gives up. */
  MAX_QUERY_TOKENS: z.coerce.number().int().min(200).default(2000),
  /**
   * A request's headers and body arrive within this many ms on every HTTP listener, else 408 and the
   * connection closes (a body shorter than its Content-Length holds a connection no longer).
   */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(60_000),
  /** Largest request body the gateway reads (a season's fixtures for importMatches fit). */
  GATEWAY_BODY_LIMIT: z.string().default('256kb'),
  REST_BODY_LIMIT: z.string().default('100kb'),
  /** The Telegram bot (bot/): off unless a token from @BotFather is set. Empty values count as unset (docker compose). */
  TELEGRAM_BOT_TOKEN: optionalString(z.string().regex(/^\d+:[\w-]+$/, 'expected the token @BotFather gave, e.g. 123456789:AA…')),
  /** A self-hosted Bot API server instead of Telegram's (https://api.telegram.org). */
  TELEGRAM_API_ROOT: optionalUrl,
  /** Set: webhook mode, Telegram POSTs updates to this URL (served on BOT_PORT at its path); unset: long polling. */
  TELEGRAM_WEBHOOK_URL: optionalUrl,
  /** Telegram sends it in X-Telegram-Bot-Api-Secret-Token with every webhook call; required with TELEGRAM_WEBHOOK_URL. */
  TELEGRAM_WEBHOOK_SECRET: optionalString(z.string().regex(/^[A-Za-z0-9_-]{16,256}$/, 'expected 16-256 characters of A-Z, a-z, 0-9, "_" or "-"')),
  /** The bot's own API key (Enterprise plan); unset: `npm start` creates one in development. */
  BOT_API_KEY: optionalString(z.string().min(20)),
  /** The bot's HTTP port: the webhook, and /healthz of the standalone bot (docker compose). */
  BOT_PORT: port(8443),
  /** Per Telegram user: at most BOT_RATE_LIMIT updates in each BOT_RATE_WINDOW_SECONDS. */
  BOT_RATE_LIMIT: z.coerce.number().int().min(1).default(8),
  BOT_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(10),
  /** Followers are reminded this long before a followed team's kick-off; the bot looks for notices due every BOT_NOTIFY_INTERVAL_SECONDS. */
  BOT_REMINDER_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
  BOT_NOTIFY_INTERVAL_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  /** Time zone of the kick-off times the bot shows (IANA name). */
  BOT_TIME_ZONE: z
    .string()
    .default('UTC')
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en-GB', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'expected an IANA time zone such as Europe/London'),

  // The finance node's configuration contract (its system check validates the values: finance:check)
  APP_NAME: z.string().trim().min(1).default('Finance Node'),
  APP_VERSION: z.string().trim().min(1).default('1.0.0'),
  DEBUG: flag(false),
  FRAMEWORK_SECRET_KEY: optionalText,
  SERVER_JWT_KEY: optionalText,
  ALLOWED_HOSTS: list,
  CSRF_TRUSTED_ORIGINS: list,
  CORS_ALLOWED_ORIGINS: list,
  CORS_ALLOW_HEADERS: list,
  /** The misspelt name (ALLOWED for ALLOW): read only so that the system check can report that it is ignored. */
  CORS_ALLOWED_HEADERS: optionalText,
  FRONTEND_URL: optionalUrl,
  POSTGRES_DB: optionalText,
  POSTGRES_USER: optionalText,
  POSTGRES_PASSWORD: optionalText,
  POSTGRES_HOST: optionalText,
  POSTGRES_PORT: optionalText,
  REDIS_PASSWORD: optionalText,
  CELERY_BROKER_URL: optionalText,
  CELERY_RESULT_BACKEND: optionalText,
  VENDOR_LICENSE_ENGINE_URL: optionalUrl,
  /** The registry licence key (LIC-XXXX-XXXX-XXXX) that `finance:activate` registers the node with. */
  VENDOR_API_KEY: optionalText,
  /** The deployment key the registry gave at activation (finance:activate also keeps it in the node's tables). */
  VENDOR_DEPLOYMENT_ID: optionalText,
  /** This machine, as the installer identifies it to the registry (SHA-256 of /etc/machine-id and the product): the node registers as the same seat. */
  VENDOR_MACHINE_FINGERPRINT: optionalText,
  VENDOR_LICENSE_TOKEN: optionalText,
  VENDOR_PUBLIC_KEY: optionalText,
  /**
   * What a seat at the registry is: `node` (default), each node its own (its id, kept in its database,
   * joins the machine's fingerprint: two nodes on one machine are two seats); `machine`, every node of the
   * machine shares one.
   */
  VENDOR_SEAT: z.enum(['node', 'machine']).default('node'),
  /** Production: an http:// registry other than loopback is refused unless this says so (a private network you trust). */
  VENDOR_REGISTRY_ALLOW_HTTP: flag(false),
  BROKERAGE_API_KEY_ID: optionalText,
  BROKERAGE_API_SECRET_KEY: optionalText,
  /** Banking providers (rail, mobile money): their API's base URL (unset: the offline sandbox), API key and timeout. */
  BANKING_PROVIDER_URL: optionalUrl,
  BANKING_PROVIDER_API_KEY: optionalText,
  BANKING_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** The HMAC-SHA256 secret of banking webhooks (credits, transfer outcomes, mobile money callbacks); unset: webhooks are refused. */
  BANKING_WEBHOOK_SECRET: optionalText,
  /**
   * The banking sandbox's callbacks (BANKING_PROVIDER_URL unset): seconds after a mobile-money request its
   * SUCCESSFUL / FAILED callback comes through the webhook receiver, as MoMo's sandbox sends it; `off`: never
   * (a test plays the provider itself).
   */
  BANKING_SANDBOX_CALLBACK_SECONDS: z
    .union([z.literal('off'), z.coerce.number().min(0).max(3600)])
    .default(2)
    .transform((v) => (v === 'off' ? null : v)),
  /** A deposit still pending after this many minutes (the provider never confirmed it) expires: voided, its amount released. */
  BANKING_DEPOSIT_EXPIRY_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
  /** Live trading at the equities brokerage (default: paper trading); needs the two keys. */
  BROKERAGE_LIVE: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** The brokerage's Trading API (default: Alpaca paper, or live with BROKERAGE_LIVE) and Market Data API. */
  BROKERAGE_TRADING_URL: optionalUrl,
  BROKERAGE_DATA_URL: z.string().trim().url().default('https://data.alpaca.markets'),
  /** The market-data provider's API (Alpaca-compatible latest quotes). */
  MARKET_DATA_URL: z.string().trim().url().default('https://data.alpaca.markets'),
  /** The decentralized exchange: its Horizon server and the curated asset registry file (ships empty; docs/dex-registry.example.json). */
  DEX_HORIZON_URL: z.string().trim().url().default('https://horizon.stellar.org'),
  DEX_REGISTRY_FILE: z.string().trim().default('data/dex-registry.json'),
  /** The assistant's OpenAI-compatible chat-completions provider. */
  ASSISTANT_API_KEY: optionalText,
  ASSISTANT_BASE_URL: z.string().trim().url().default('https://api.openai.com/v1'),
  ASSISTANT_MODEL: z.string().trim().min(1).default('gpt-4o-mini'),
  /**
   * The finance node's offline sandbox providers allowed in production (NODE_ENV=production), comma-separated:
   * kyc, banking (rails, mobile money, ramps), cards, crypto, fx, sms, or all. Unlisted, a sandbox provider is
   * disabled in production (its calls answer 503 sandbox_provider_disabled); development and tests use them freely.
   */
  ALLOW_SANDBOX_PROVIDERS: list.refine(
    (names) => names.every((n) => ['kyc', 'banking', 'cards', 'crypto', 'fx', 'sms', 'all'].includes(n)),
    'ALLOW_SANDBOX_PROVIDERS lists kyc, banking, cards, crypto, fx, sms or all',
  ),
  /**
   * SMS (phone verification codes) through a Twilio-protocol Messages API:
   * `POST <SMS_PROVIDER_URL>/2010-04-01/Accounts/<SMS_ACCOUNT_SID>/Messages.json` (form-encoded To, From,
   * Body; basic auth sid:token). Unset URL: the offline sandbox (identity.sms_outbox; in production
   * only with ALLOW_SANDBOX_PROVIDERS=sms).
   */
  SMS_PROVIDER_URL: optionalUrl,
  SMS_ACCOUNT_SID: optionalText,
  SMS_AUTH_TOKEN: optionalText,
  /** The sender: an E.164 number or an alphanumeric sender id the provider knows. */
  SMS_FROM: optionalText,
  SMS_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Identity verification (KYC): the offline sandbox (default; in production only with ALLOW_SANDBOX_PROVIDERS=kyc) or a Sumsub-protocol provider at KYC_PROVIDER_URL. */
  KYC_PROVIDER: z.enum(['sandbox', 'sumsub']).default('sandbox'),
  KYC_PROVIDER_URL: z.string().trim().url().default('https://api.sumsub.com'),
  KYC_PROVIDER_APP_TOKEN: optionalText,
  KYC_PROVIDER_SECRET_KEY: optionalText,
  /** Secret of the provider's webhook signatures (X-Payload-Digest). */
  KYC_WEBHOOK_SECRET: optionalText,
  /** Largest KYC document accepted (bytes); the REST and gateway body limits bound it too. */
  KYC_DOCUMENT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(10 * 1024 * 1024),
  /** Card issuer (Stripe Issuing-shaped) over HTTP; unset URL: the offline sandbox issuer (webhook secret derived from the master key). */
  CARD_ISSUER_URL: optionalUrl,
  CARD_ISSUER_API_KEY: optionalText,
  CARD_ISSUER_WEBHOOK_SECRET: optionalText,
  /** Crypto exchange (deposit addresses, rates) over HTTP; unset URL: the offline sandbox exchange. */
  CRYPTO_EXCHANGE_URL: optionalUrl,
  CRYPTO_EXCHANGE_API_KEY: optionalText,
  CRYPTO_EXCHANGE_WEBHOOK_SECRET: optionalText,
  /** The node's swap fee in basis points of the amount sold (to the crypto revenue account). */
  CRYPTO_SWAP_FEE_BPS: z.coerce.number().int().min(0).max(1000).default(50),
  /** How long a swap quote holds its rate. */
  CRYPTO_QUOTE_TTL_SECONDS: z.coerce.number().int().min(5).max(600).default(30),
  /** FX rates service (Frankfurter / ECB reference-rate API, `GET <url>/latest?base=&symbols=`); unset: the offline sandbox rates. */
  FX_RATES_URL: optionalText.refine((v) => v === undefined || URL.canParse(v), 'FX_RATES_URL is a URL'),
  /**
   * The finance node's reference currency: a reward point is worth 0.01 of it, a purchase earns points
   * by its value in it, and a redemption into another currency converts at the node's own rate.
   */
  REFERENCE_CURRENCY: z
    .string()
    .trim()
    .toUpperCase()
    .default('EUR')
    .refine((c) => FIAT_CURRENCIES.includes(c), `REFERENCE_CURRENCY is one of ${FIAT_CURRENCIES.join(', ')}`),
  /** The admin console's superuser, created on first start (Django's DJANGO_SUPERUSER_* of createsuperuser --noinput). */
  SUPERUSER_USERNAME: optionalText,
  SUPERUSER_PASSWORD: optionalText,
  SUPERUSER_EMAIL: optionalText,
  /** Django's SILENCED_SYSTEM_CHECKS: check ids left out of finance:check and the node's report. */
  SILENCED_SYSTEM_CHECKS: list,
  /**
   * Master key of secrets at rest (lib/secret-box.ts): 32 bytes as base64 or hex. Unset: generated
   * on first start into DATA_DIR/master.key (mode 0600).
   */
  MASTER_KEY: z.string().trim().min(1).optional(),
  /** Object storage of files (release artifacts): the embedded filesystem store, or an S3-compatible bucket. */
  OBJECT_STORE: z.enum(['filesystem', 's3']).default('filesystem'),
  S3_BUCKET: z.string().trim().min(1).optional(),
  S3_REGION: z.string().default('us-east-1'),
  /** S3-compatible servers other than AWS (MinIO, Ceph, R2, s3rver): their URL. */
  S3_ENDPOINT: optionalUrl,
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /**
   * Strict-Transport-Security on every REST surface (helmet's hsts): `auto` sends it on requests that
   * came over TLS (directly, or X-Forwarded-Proto: https from a proxy TRUST_PROXY names), `on` always,
   * `off` never. Default: `auto` in production, `off` in development and tests.
   */
  HSTS: z.enum(['auto', 'on', 'off']).optional(),
  HSTS_MAX_AGE_SECONDS: z.coerce.number().int().min(0).default(31_536_000),
  /** The registry's public URL, base of the links it answers and mails; required in production (links are never built from the Host header there). */
  PUBLIC_URL_REGISTRY: optionalUrl,
  /** Registry requests per licence and minute (429 with Retry-After beyond it). */
  REGISTRY_RATE_LIMIT: z.coerce.number().int().min(1).default(300),
  /** Lifetime of a download token (single use). */
  DOWNLOAD_TOKEN_TTL_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  /** Lifetime of a presigned object link (the 302 target of a download). */
  PRESIGNED_URL_TTL_SECONDS: z.coerce.number().int().min(10).max(604800).default(300),
  /** Lifetime of a signed licence token (checkout, manifests); never beyond the licence's own expiry. */
  LICENCE_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  /** The registry's Ed25519 signing key (PKCS#8 PEM, `\n` escapes allowed); unset: generated on first start, kept encrypted. */
  LICENSING_SIGNING_KEY: z.string().trim().min(1).optional(),
  /** Lifetime of a customer workspace session (cookie workspace_session). */
  WORKSPACE_SESSION_TTL_SECONDS: z.coerce.number().int().min(300).max(2592000).default(43200),
  /** Tests only: branding logos and favicons may be fetched from private and loopback addresses (a local test server). */
  WORKSPACE_ASSET_FETCH_ALLOW_PRIVATE: flag(false),
});

/** Every setting's name, as the environment spells it. */
export const CONFIG_NAMES: readonly string[] = Object.keys(schema.shape);

export type Config = z.infer<typeof schema> & {
  dataDir: string;
  /** Where DATABASE_URL came from: set, built from POSTGRES_*, or unset (the embedded PostgreSQL). */
  databaseFrom: 'DATABASE_URL' | 'POSTGRES_*' | 'embedded';
  /** SUBGRAPH_URL_<NAME> settings by lower-case subgraph name (the gateway checks each names a subgraph). */
  subgraphUrls: Record<string, string>;
  /** The gateway: SERVICE_PUBLIC_KEY_<NAME>, each subgraph's public key (its service principal's signer), by lower-case name. */
  servicePublicKeys: Record<string, string>;
};

const SUBGRAPH_URL = /^SUBGRAPH_URL_([A-Z0-9_]+)$/;
const SERVICE_PUBLIC_KEY = /^SERVICE_PUBLIC_KEY_([A-Z0-9_]+)$/;

export type SettingName = keyof z.infer<typeof schema>;

/** The name of every setting of the schema (deployment manifests are checked against them). */
export const SETTING_NAMES = Object.keys(schema.shape) as SettingName[];

/** Whether an environment variable is a setting this system reads (a schema setting or SUBGRAPH_URL_<NAME>). */
export const isSetting = (name: string): boolean => (SETTING_NAMES as string[]).includes(name) || SUBGRAPH_URL.test(name) || SERVICE_PUBLIC_KEY.test(name);

export class ConfigError extends Error {}

/**
 * The public address each product builds its links from (mails, answers, invitations). In production
 * none is ever taken from a request's Host header or defaulted to localhost: a process that runs the
 * product refuses to start without it.
 */
export const PUBLIC_URLS: readonly {
  product: Config['PRODUCTS'][number];
  key: 'PUBLIC_URL_REGISTRY' | 'FRONTEND_URL' | 'PUBLIC_URL_PREDICTIONS';
  what: string;
  why: string;
  example: string;
}[] = [
  {
    product: 'registry',
    key: 'PUBLIC_URL_REGISTRY',
    what: 'the licence registry',
    why: 'the links of its answers and mails (downloads, invitations, password resets) would otherwise be built from the Host header a client sends',
    example: "the registry's public URL, e.g. https://registry.example.com",
  },
  {
    product: 'finance',
    key: 'FRONTEND_URL',
    what: 'the finance node',
    why: 'the links of its mails (e-mail verification, password reset) must open the web client and would otherwise be built from the Host header a client sends',
    example: "the web client's public URL, e.g. https://finance.example.com/app/",
  },
  {
    product: 'predictions',
    key: 'PUBLIC_URL_PREDICTIONS',
    what: 'the prediction API',
    why: "the links of its mails (an approved application's API key, confirmation links) would otherwise point at localhost",
    example: "the prediction API's public URL, e.g. https://predictions.example.com",
  },
];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const cfg = parsed.data;
  const databaseFrom: Config['databaseFrom'] = cfg.DATABASE_URL ? 'DATABASE_URL' : cfg.POSTGRES_DB ? 'POSTGRES_*' : 'embedded';
  // the datastore names of the contract: DATABASE_URL, else one built from POSTGRES_* (when POSTGRES_DB is set)
  if (!cfg.DATABASE_URL && cfg.POSTGRES_DB) {
    const auth = cfg.POSTGRES_USER
      ? `${encodeURIComponent(cfg.POSTGRES_USER)}${cfg.POSTGRES_PASSWORD ? `:${encodeURIComponent(cfg.POSTGRES_PASSWORD)}` : ''}@`
      : '';
    cfg.DATABASE_URL = `postgres://${auth}${cfg.POSTGRES_HOST ?? '127.0.0.1'}:${cfg.POSTGRES_PORT ?? '5432'}/${encodeURIComponent(cfg.POSTGRES_DB)}`;
  }
  if (env.INTERNAL_SECRET !== undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  INTERNAL_SECRET: no longer used: each service has its own key pair (`npm run --silent service-keys > .env`, see README)',
    );
  }
  if (cfg.SUBGRAPH_MODE === 'remote' && !cfg.SERVICE_PRIVATE_KEY) {
    throw new ConfigError('Invalid configuration:\n  SERVICE_PRIVATE_KEY: required when SUBGRAPH_MODE=remote (`npm run --silent service-keys`, see README)');
  }
  if (isDevelopment(cfg) && !isLoopback(cfg.HOST) && !cfg.ALLOW_DEVELOPMENT_ON_NETWORK) {
    throw new ConfigError(
      `Invalid configuration:\n  HOST: ${cfg.HOST} is not a loopback address, and development mode (NODE_ENV=${cfg.NODE_ENV}) opens schema ` +
        'introspection and the GraphQL IDE to anyone who reaches it: set NODE_ENV=production, or ALLOW_DEVELOPMENT_ON_NETWORK=true to mean it',
    );
  }
  if (!isDevelopment(cfg)) {
    for (const rule of PUBLIC_URLS) {
      if (cfg.PRODUCTS.includes(rule.product) && !cfg[rule.key]) {
        throw new ConfigError(
          `Invalid configuration:\n  ${rule.key}: required in production when this process runs ${rule.what} (PRODUCTS): ${rule.why}; ` +
            `set it to ${rule.example}`,
        );
      }
    }
  }
  if (cfg.TELEGRAM_WEBHOOK_URL && !cfg.TELEGRAM_WEBHOOK_SECRET) {
    throw new ConfigError('Invalid configuration:\n  TELEGRAM_WEBHOOK_SECRET: required (16+ characters) when TELEGRAM_WEBHOOK_URL is set');
  }
  // KYC_PROVIDER=sumsub's three secrets may be set here or in the admin console (`kyc` records); a use without one is 503
  if (cfg.OBJECT_STORE === 's3' && !cfg.S3_BUCKET) throw new ConfigError('Invalid configuration:\n  S3_BUCKET: required when OBJECT_STORE=s3');
  const subgraphUrls: Record<string, string> = {};
  const servicePublicKeys: Record<string, string> = {};
  const bad: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.trim() === '') continue;
    const url = SUBGRAPH_URL.exec(name);
    if (url) {
      if (z.string().url().safeParse(value.trim()).success) subgraphUrls[url[1].toLowerCase()] = value.trim();
      else bad.push(`  ${name}: Invalid URL`);
    }
    const publicKey = SERVICE_PUBLIC_KEY.exec(name);
    if (publicKey) {
      const problem = keyProblem(value, 'public');
      if (problem) bad.push(`  ${name}: ${problem}`);
      else servicePublicKeys[publicKey[1].toLowerCase()] = value.trim();
    }
  }
  if (bad.length) throw new ConfigError(`Invalid configuration:\n${bad.join('\n')}`);
  return { ...cfg, databaseFrom, dataDir: resolve(projectRoot(), cfg.DATA_DIR), subgraphUrls, servicePublicKeys };
}

export const isDevelopment = (cfg: Pick<Config, 'NODE_ENV'>) => cfg.NODE_ENV !== 'production';

/** HSTS as configured, or its default: `auto` in production (behind TLS), `off` otherwise. */
export const hstsMode = (cfg: Pick<Config, 'NODE_ENV' | 'HSTS'>): 'auto' | 'on' | 'off' => cfg.HSTS ?? (isDevelopment(cfg) ? 'off' : 'auto');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Whether a listening address is reachable from this machine only (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (mapped) return LOOPBACK.check(mapped[1], 'ipv4');
  const version = isIP(h);
  return version !== 0 && LOOPBACK.check(h, version === 4 ? 'ipv4' : 'ipv6');
}

/** The sentence every entry point says at start about its mode and who can reach the IDE and introspection. */
export function describeMode(cfg: Pick<Config, 'NODE_ENV' | 'HOST'>): string {
  if (!isDevelopment(cfg)) return 'production mode: schema introspection and the GraphQL IDE need an administrator key';
  const scope = isLoopback(cfg.HOST) ? `this machine only (HOST=${cfg.HOST})` : `ANYONE who reaches ${cfg.HOST} (ALLOW_DEVELOPMENT_ON_NETWORK=true)`;
  return `development mode (NODE_ENV=${cfg.NODE_ENV}): schema introspection and the GraphQL IDE are open to ${scope}`;
}
