import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../lib/config';
import type { AccessServices } from '../subgraphs/access/services';

export interface DemoCredentials {
  adminKey?: string;
  freeKey: string;
}

/**
 * Development only: the demo keys are kept in DATA_DIR/demo-credentials.json (mode 600) so that
 * every `npm start` can print working credentials. The database still holds only their hashes.
 * In production nothing is written: a generated administrator key is shown once.
 */
export async function demoCredentials(config: Config, access: AccessServices, generated: Record<string, string>): Promise<DemoCredentials> {
  const file = join(config.dataDir, 'demo-credentials.json');
  const saved: Partial<DemoCredentials> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const works = async (key: string | undefined) => {
    if (!key) return false;
    try {
      await access.apiKeys.authenticate(key, { meter: false });
      return true;
    } catch {
      return false;
    }
  };
  const adminKey = config.ADMIN_API_KEY ?? generated.ADMIN_API_KEY ?? ((await works(saved.adminKey)) ? saved.adminKey : undefined);
  const freeKey = (await works(saved.freeKey))
    ? saved.freeKey!
    : (await access.apiKeys.create({ name: 'Demo key (Free plan)', plan: 'free', email: 'demo@example.com' })).key;
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify({ adminKey: config.ADMIN_API_KEY ? undefined : adminKey, freeKey }, null, 2));
  chmodSync(file, 0o600);
  return { adminKey, freeKey };
}
