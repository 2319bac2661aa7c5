import type { Config } from '../../lib/config';
import { readDemoFile, writeDemoFile } from '../../lib/demo-file';
import type { AccessServices } from './access/services';

export interface DemoCredentials {
  adminKey?: string;
  freeKey: string;
  /** The Telegram bot's key (Enterprise plan, no daily limit), when asked for. */
  botKey?: string;
}

/** The prediction API's demo keys: the administrator key (unless configured), a Free-plan key, the bot's key. */
export async function demoCredentials(
  config: Config,
  access: AccessServices,
  generated: Record<string, string>,
  opts: { botKey?: boolean } = {},
): Promise<DemoCredentials> {
  const saved = readDemoFile(config) as Partial<DemoCredentials>;
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
  let botKey = saved.botKey;
  if (opts.botKey && !(await works(botKey))) botKey = (await access.apiKeys.create({ name: 'Telegram bot (development)', plan: 'enterprise' })).key;
  writeDemoFile(config, { adminKey: config.ADMIN_API_KEY ? undefined : adminKey, freeKey, botKey });
  return { adminKey, freeKey, botKey };
}
