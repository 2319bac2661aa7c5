import { z } from 'zod';
import { FIAT_CURRENCIES } from './kernel/currencies';
import { flag, list, optionalText, optionalUrl, type ProductSettings } from '../../lib/settings';

/** What the finance node reads from the environment: its configuration contract (its system check validates the values: finance:check) and its providers. */
const schema = z.object({
  /** Finance node: sign-ups, e-mail verifications and password resets allowed per client address and hour (each counted apart). */
  AUTH_ATTEMPTS_PER_HOUR: z.coerce.number().int().min(1).default(20),
  // The finance node's configuration contract (its system check validates the values: finance:check)
  APP_NAME: z.string().trim().min(1).default('Finance Node'),
  APP_VERSION: z.string().trim().min(1).default('1.0.0'),
  DEBUG: flag(false),
  FRAMEWORK_SECRET_KEY: optionalText,
  SERVER_JWT_KEY: optionalText,
  CORS_ALLOW_HEADERS: list,
  /** The misspelt name (ALLOWED for ALLOW): read only so that the system check can report that it is ignored. */
  CORS_ALLOWED_HEADERS: optionalText,
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
  // KYC_PROVIDER=sumsub's three secrets may be set here or in the admin console (`kyc` records); a use without one is 503
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
});

export const financeSettings = {
  schema,
  // FRONTEND_URL is a platform setting (the registry builds the node's web client for it too)
  publicUrl: {
    key: 'FRONTEND_URL',
    what: 'the finance node',
    why: 'the links of its mails (e-mail verification, password reset) must open the web client and would otherwise be built from the Host header a client sends',
    example: "the web client's public URL, e.g. https://finance.example.com/app/",
  },
} as const satisfies ProductSettings<typeof schema>;

declare module '../../lib/config' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the merge adds this product's values to Config
  interface ProductConfig extends z.infer<typeof schema> {}
}
