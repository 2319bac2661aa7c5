import { inProcessTransport } from '../../bot/gateway-client';
import { startTelegramBot, telegramSettings, type RunningBot } from '../../bot/runtime';
import { ConfigError, isDevelopment, type Config } from '../../lib/config';
import type { Logger } from '../../lib/logger';
import type { ProductStart } from '../../lib/product';
import type { AccessServices } from './access/services';
import { demoCredentials } from './demo';
import { footballFeedLines } from './football/feed-banner';
import type { FootballServices } from './football/services';

type InProcessGateway = Parameters<typeof inProcessTransport>[0];

/** How long the banner waits for the feed's first pass (the default sources time out after 10 s). */
const FIRST_PASS_WAIT_MS = 15_000;

/**
 * The prediction API's part of `npm start`: its demo keys (development), the Telegram bot (its client,
 * in this process when TELEGRAM_BOT_TOKEN is set) and its banner lines.
 */
export const predictionsStart: ProductStart = {
  check(config) {
    if (telegramSettings(config) && !config.BOT_API_KEY && !isDevelopment(config)) {
      throw new ConfigError('Invalid configuration:\n  BOT_API_KEY: required with TELEGRAM_BOT_TOKEN in production (an Enterprise key)');
    }
  },
  async start({ config, logger, app, started }) {
    const url = app.urls.predictions;
    const services = app.services as { access: AccessServices; football: FootballServices };
    const telegram = telegramSettings(config);
    const lines = [`Match prediction API   ${url}/api/   (reference: ${url}/api/docs/)`];
    const credentials: string[] = [];
    const tries: string[] = [];
    const demo = isDevelopment(config)
      ? await demoCredentials(config, services.access, { ...app.generatedCredentials }, { botKey: !!telegram && !config.BOT_API_KEY })
      : undefined;
    if (demo) {
      credentials.push(demo.adminKey ? `  Administrator key   ${demo.adminKey}` : '  Administrator key   the ADMIN_API_KEY you configured');
      credentials.push(`  Free-plan key       ${demo.freeKey}`);
      tries.push(`Try: curl -H "Authorization: Bearer ${demo.freeKey}" ${url}/api/`);
    }
    let bot: RunningBot | undefined;
    lines.push(`Telegram bot           ${await startBot(config, logger, app.gateway as InProcessGateway, telegram, demo?.botKey, (b) => (bot = b))}`);
    lines.push(`Apply by e-mail        ${mailboxLine(services.access.mailbox.info())}`);
    // what the feed follows and when each league last changed; offline, since when the data is stale
    lines.push(...(await footballFeedLines(services.football, { since: started, waitMs: FIRST_PASS_WAIT_MS })));
    // the bot stops before the gateway: the updates in hand still need it
    return { lines, credentials, tries, stop: async () => bot?.stop() };
  },
};

/** The Telegram bot, when TELEGRAM_BOT_TOKEN is set; the banner's line. A bot that cannot start leaves the rest running. */
async function startBot(
  config: Config,
  logger: Logger,
  gateway: InProcessGateway,
  telegram: ReturnType<typeof telegramSettings>,
  demoBotKey: string | undefined,
  started: (bot: RunningBot) => void,
): Promise<string> {
  if (!telegram) return 'off (set TELEGRAM_BOT_TOKEN to start it)';
  try {
    const bot = await startTelegramBot({ settings: telegram, logger, transport: inProcessTransport(gateway, config.BOT_API_KEY ?? demoBotKey!) });
    started(bot);
    return `@${bot.username}, ${bot.mode}${telegram.apiRoot ? ` via ${telegram.apiRoot}` : ''}`;
  } catch (err) {
    // everything else runs on; the reason is in the log
    logger.error({ err }, 'the Telegram bot could not start');
    return `off: it could not start (${err instanceof Error ? err.message : String(err)})`;
  }
}

/** Where applicants write to, and the SMTP receiver that takes that mail. */
function mailboxLine(m: { address: string; host: string; port: number | null; offBecause: string | null }): string {
  if (m.offBecause)
    return `${m.address}   (built-in receiver NOT started: ${m.offBecause}; set APPLICATION_SMTP_PORT to a free port, or use the inbound-mail webhook)`;
  return m.port === null
    ? `${m.address}   (built-in receiver off: APPLICATION_SMTP_PORT=off; use the inbound-mail webhook)`
    : `${m.address}   subject "API Access Request" (SMTP receiver ${m.host}:${m.port})`;
}
