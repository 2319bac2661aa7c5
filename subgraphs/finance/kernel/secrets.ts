import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDevelopment, type Config } from '../../../lib/config';

/**
 * The finance node's two secrets: FRAMEWORK_SECRET_KEY (64 characters; the key of secrets at rest,
 * lib/secret-box) and SERVER_JWT_KEY (signs access tokens). From the environment; in development,
 * when unset, generated once and kept in DATA_DIR/finance-secrets.json (mode 600) so that tokens
 * and sealed secrets survive restarts. In production an unset key stays unset: the system check
 * reports it (app.E006/E007) and what needs it answers 503 `improperly_configured`.
 */
export interface NodeSecrets {
  frameworkSecretKey?: string;
  serverJwtKey?: string;
  /** Which of them were generated for development. */
  generated: ('FRAMEWORK_SECRET_KEY' | 'SERVER_JWT_KEY')[];
}

export const FRAMEWORK_SECRET_KEY_LENGTH = 64;

const cache = new Map<string, NodeSecrets>();

export function nodeSecrets(config: Config): NodeSecrets {
  const key = `${config.dataDir}\n${config.FRAMEWORK_SECRET_KEY ?? ''}\n${config.SERVER_JWT_KEY ?? ''}\n${config.NODE_ENV}`;
  let secrets = cache.get(key);
  if (!secrets) {
    secrets = resolveSecrets(config);
    cache.set(key, secrets);
  }
  return secrets;
}

function resolveSecrets(config: Config): NodeSecrets {
  const fromEnv = { frameworkSecretKey: config.FRAMEWORK_SECRET_KEY, serverJwtKey: config.SERVER_JWT_KEY };
  if (!isDevelopment(config) || (fromEnv.frameworkSecretKey && fromEnv.serverJwtKey)) return { ...fromEnv, generated: [] };
  const file = join(config.dataDir, 'finance-secrets.json');
  mkdirSync(config.dataDir, { recursive: true });
  const fresh = { frameworkSecretKey: randomBytes(48).toString('base64url'), serverJwtKey: randomBytes(48).toString('base64url') };
  try {
    // `wx`: two processes starting together keep the first one's keys
    writeFileSync(file, JSON.stringify(fresh, null, 2), { flag: 'wx', mode: 0o600 });
    chmodSync(file, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const kept = JSON.parse(readFileSync(file, 'utf8')) as { frameworkSecretKey: string; serverJwtKey: string };
  const generated: NodeSecrets['generated'] = [];
  if (!fromEnv.frameworkSecretKey) generated.push('FRAMEWORK_SECRET_KEY');
  if (!fromEnv.serverJwtKey) generated.push('SERVER_JWT_KEY');
  return { frameworkSecretKey: fromEnv.frameworkSecretKey ?? kept.frameworkSecretKey, serverJwtKey: fromEnv.serverJwtKey ?? kept.serverJwtKey, generated };
}

/** Long enough to key the secret box (lib/secret-box); a shorter one is reported (app.E006) and not used. */
export const usableSecret = (secret: string | undefined) => secret !== undefined && secret.length >= 32;
