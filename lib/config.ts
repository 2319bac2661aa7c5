import { z } from 'zod';
import { resolve } from 'node:path';
import { projectRoot } from './paths';

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
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
  GATEWAY_PORT: port(4000),
  PREDICTIONS_PORT: port(8080),
  REGISTRY_PORT: port(8090),
  PORT: port(8000),
  DATABASE_URL: optionalUrl,
  DATA_DIR: z.string().default('.data'),
  EMBEDDED_PG_PORT: port(54329),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /** local: subgraphs in this process; remote: subgraphs reached over HTTP (docker compose). */
  SUBGRAPH_MODE: z.enum(['local', 'remote']).default('local'),
  /** A standalone subgraph's own port (docker compose: one container per subgraph). */
  SUBGRAPH_PORT: port(4000),
  SUBGRAPH_URL_FOOTBALL: optionalUrl,
  SUBGRAPH_URL_ACCESS: optionalUrl,
  SUBGRAPH_URL_PREDICTIONS: optionalUrl,
  /** REST adapter in remote mode: the gateway's GraphQL endpoint. */
  GATEWAY_URL: optionalUrl,
  /** Signs the verified principal the gateway forwards to remote subgraphs. */
  INTERNAL_SECRET: z.string().min(32).optional(),
  ADMIN_API_KEY: z.string().min(20).optional(),
  PUBLIC_URL_PREDICTIONS: optionalUrl,
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('Match Predictions <no-reply@localhost>'),
  /** Shared secret of the inbound-mail webhook (header X-Inbound-Mail-Secret); unset: the webhook is disabled. */
  INBOUND_MAIL_SECRET: z.string().min(16).optional(),
  /** Model family of each new version: dixon-coles, elo, pi-ratings or ensemble. */
  PREDICTION_MODEL: z.string().default('ensemble'),
  /** Seasons per league predicted walk-forward after each retrain (they feed the statistics). */
  BACKTEST_SEASONS: z.coerce.number().int().min(1).max(15).default(5),
  MAX_QUERY_DEPTH: z.coerce.number().int().min(2).default(12),
  MAX_QUERY_COST: z.coerce.number().int().min(10).default(5000),
  REST_BODY_LIMIT: z.string().default('100kb'),
});

export type Config = z.infer<typeof schema> & { dataDir: string };

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const cfg = parsed.data;
  if (cfg.SUBGRAPH_MODE === 'remote' && !cfg.INTERNAL_SECRET) {
    throw new ConfigError('Invalid configuration:\n  INTERNAL_SECRET: required (32+ characters) when SUBGRAPH_MODE=remote');
  }
  return { ...cfg, dataDir: resolve(projectRoot(), cfg.DATA_DIR) };
}

export const isDevelopment = (cfg: Pick<Config, 'NODE_ENV'>) => cfg.NODE_ENV !== 'production';
