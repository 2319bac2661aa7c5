import { BlockList, isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import { projectRoot } from './paths';
import { keyProblem } from './service-keys';
import { flag, key, list, optionalText, optionalUrl, port, type ProductSettings, type PublicUrlRule } from './settings';

/**
 * The platform's settings: what the gateway, the REST core, the entry points and lib/ read. Each
 * product declares its own (subgraphs/<product>/settings.ts, named by its manifest); `composeConfig`
 * validates them together, once at start-up.
 */
export const platformSettings = z.object({
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
   * How many password hashes (argon2id, 12 MiB each) run at once in this process; more wait their turn
   * (lib/passwords.ts). Each more buys sign-in throughput on more cores for 12 MiB of peak memory.
   */
  PASSWORD_HASHES_AT_ONCE: z.coerce.number().int().min(1).max(64).default(1),
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
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('Match Predictions <no-reply@localhost>'),
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
  ALLOWED_HOSTS: list,
  CSRF_TRUSTED_ORIGINS: list,
  CORS_ALLOWED_ORIGINS: list,
  FRONTEND_URL: optionalUrl,
  POSTGRES_DB: optionalText,
  POSTGRES_USER: optionalText,
  POSTGRES_PASSWORD: optionalText,
  POSTGRES_HOST: optionalText,
  POSTGRES_PORT: optionalText,
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
});

/**
 * The values of every product's settings: each product's settings.ts adds its schema's to this
 * interface, so that `Config` has every key while lib/ imports no product.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the products' declarations
export interface ProductConfig {}

// mapped, as an interface would not pass for a Readonly<Record<string, unknown>>
type Settings = z.infer<typeof platformSettings> & { [K in keyof ProductConfig]: ProductConfig[K] };

export type Config = Settings & {
  dataDir: string;
  /** Where DATABASE_URL came from: set, built from POSTGRES_*, or unset (the embedded PostgreSQL). */
  databaseFrom: 'DATABASE_URL' | 'POSTGRES_*' | 'embedded';
  /** SUBGRAPH_URL_<NAME> settings by lower-case subgraph name (the gateway checks each names a subgraph). */
  subgraphUrls: Record<string, string>;
  /** The gateway: SERVICE_PUBLIC_KEY_<NAME>, each subgraph's public key (its service principal's signer), by lower-case name. */
  servicePublicKeys: Record<string, string>;
};

export type SettingName = keyof Settings;

const SUBGRAPH_URL = /^SUBGRAPH_URL_([A-Z0-9_]+)$/;
const SERVICE_PUBLIC_KEY = /^SERVICE_PUBLIC_KEY_([A-Z0-9_]+)$/;

export class ConfigError extends Error {}

/** A product as the configuration sees it (its manifest, lib/product.ts, has both). */
export interface ConfiguredProduct {
  name: string;
  settings: ProductSettings;
}

/** A product's public address (lib/settings.ts): in production a process that runs the product refuses to start without it. */
export interface PublicUrl extends PublicUrlRule {
  product: Config['PRODUCTS'][number];
  key: SettingName;
}

/** The configuration of a system of products: the platform's settings and each product's. */
export interface ComposedConfig {
  /** The name of every setting (deployment manifests are checked against them). */
  SETTING_NAMES: readonly SettingName[];
  /** Whether an environment variable is a setting this system reads (a schema setting, SUBGRAPH_URL_<NAME> or SERVICE_PUBLIC_KEY_<NAME>). */
  isSetting: (name: string) => boolean;
  /** The public address of each product that declares one. */
  PUBLIC_URLS: readonly PublicUrl[];
  /** The settings from the environment, validated; ConfigError names every invalid one. */
  loadConfig: (env?: NodeJS.ProcessEnv) => Config;
}

/** The names each schema declares: a product's settings never redeclare the platform's or another product's. */
function namesOf(schemas: readonly { owner: string; schema: z.ZodObject }[]): SettingName[] {
  const owners = new Map<string, string>();
  for (const { owner, schema } of schemas)
    for (const name of Object.keys(schema.shape)) {
      const first = owners.get(name);
      if (first !== undefined) throw new Error(`the setting ${name} is declared by ${first} and by ${owner}`);
      owners.set(name, owner);
    }
  return [...owners.keys()] as SettingName[];
}

/**
 * The configuration of the platform with these products' settings. Every product given is validated
 * in every process, whichever products it runs (PRODUCTS decides only which public URLs production requires).
 */
export function composeConfig(products: readonly ConfiguredProduct[]): ComposedConfig {
  const schemas = [{ owner: 'the platform', schema: platformSettings as z.ZodObject }, ...products.map((p) => ({ owner: p.name, schema: p.settings.schema }))];
  const SETTING_NAMES = namesOf(schemas);
  const PUBLIC_URLS = products.flatMap(({ name, settings: { publicUrl } }) => {
    if (!publicUrl) return [];
    if (!(SETTING_NAMES as string[]).includes(publicUrl.key)) throw new Error(`${name}'s public URL ${publicUrl.key} is not a setting`);
    return [{ ...publicUrl, product: name, key: publicUrl.key } as PublicUrl];
  });
  const isSetting = (name: string) => (SETTING_NAMES as string[]).includes(name) || SUBGRAPH_URL.test(name) || SERVICE_PUBLIC_KEY.test(name);
  const loadConfig = (env: NodeJS.ProcessEnv = process.env) => load(env, schemas, PUBLIC_URLS);
  return { SETTING_NAMES, isSetting, PUBLIC_URLS, loadConfig };
}

function load(env: NodeJS.ProcessEnv, schemas: readonly { schema: z.ZodObject }[], publicUrls: readonly PublicUrl[]): Config {
  const issues: z.core.$ZodIssue[] = [];
  const values: Record<string, unknown> = {};
  for (const { schema } of schemas) {
    const parsed = schema.safeParse(env);
    if (parsed.success) Object.assign(values, parsed.data);
    else issues.push(...parsed.error.issues);
  }
  if (issues.length) {
    const lines = issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const cfg = values as unknown as Settings;
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
    for (const rule of publicUrls) {
      if (cfg.PRODUCTS.includes(rule.product) && !cfg[rule.key]) {
        throw new ConfigError(
          `Invalid configuration:\n  ${rule.key}: required in production when this process runs ${rule.what} (PRODUCTS): ${rule.why}; ` +
            `set it to ${rule.example}`,
        );
      }
    }
  }
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
