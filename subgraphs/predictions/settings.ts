import { z } from 'zod';
import { list, optionalString, optionalUrl, port, type ProductSettings } from '../../lib/settings';
import { operatorKeyProblem } from './access/operator-keys';

/** What the prediction API, its mailbox, the football feed and the Telegram bot read from the environment. */
const schema = z
  .object({
    /** The administrator key (see access/operator-keys.ts); changing it revokes the one it replaces. */
    ADMIN_API_KEY: z
      .string()
      .superRefine((value, ctx) => {
        const problem = operatorKeyProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
    PUBLIC_URL_PREDICTIONS: optionalUrl,
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
  })
  .superRefine((cfg, ctx) => {
    if (cfg.TELEGRAM_WEBHOOK_URL && !cfg.TELEGRAM_WEBHOOK_SECRET)
      ctx.addIssue({ code: 'custom', path: ['TELEGRAM_WEBHOOK_SECRET'], message: 'required (16+ characters) when TELEGRAM_WEBHOOK_URL is set' });
  });

export const predictionsSettings = {
  schema,
  publicUrl: {
    key: 'PUBLIC_URL_PREDICTIONS',
    what: 'the prediction API',
    why: "the links of its mails (an approved application's API key, confirmation links) would otherwise point at localhost",
    example: "the prediction API's public URL, e.g. https://predictions.example.com",
  },
} as const satisfies ProductSettings<typeof schema>;

declare module '../../lib/config' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the merge adds this product's values to Config
  interface ProductConfig extends z.infer<typeof schema> {}
}
