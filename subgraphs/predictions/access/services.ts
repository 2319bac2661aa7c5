import { AttemptThrottle } from '../../../lib/attempts';
import { createMailer } from '../../../lib/mailer';
import { KeyedLimiter } from '../../../lib/rate-limits';
import type { SubgraphDeps } from '../../../lib/subgraph';
import { ApiKeyService } from './domain/api-keys';
import { ApplicationService } from './domain/applications';
import { ApiKeyStore } from './store/api-key-store';
import { ApplicationStore } from './store/application-store';
import { ApplicationMailbox } from './mailbox';
import { createMailReader, type MailReader } from './domain/mail-reader';

export interface AccessServices {
  apiKeys: ApiKeyService;
  applications: ApplicationService;
  /** The built-in SMTP mailbox for applications by e-mail. */
  mailbox: ApplicationMailbox;
  /** The mail worker pool that parses e-mailed applications (mailbox and webhook). */
  mailReader: MailReader;
}

/**
 * APPLICATION_SMTP_PORT: a number (0: any free port), `off`, or unset: the default 2525, optional — when
 * it is taken the system starts without the mailbox and says so (smtpPort: null), where a port asked
 * for and taken ends the start.
 */
export function mailboxPort(config: SubgraphDeps['config']): { port: number | 'off'; portOptional: boolean } {
  const raw = config.APPLICATION_SMTP_PORT;
  if (raw === 'off') return { port: 'off', portOptional: false };
  if (raw !== undefined) return { port: Number(raw), portOptional: false };
  return { port: 2525, portOptional: true };
}

const HOUR = 3600;

export function createAccessServices({ store, config, logger }: SubgraphDeps): AccessServices {
  const apiKeys = new ApiKeyService(new ApiKeyStore(store, config.METER_BATCH_MAX));
  const mailReader = createMailReader();
  const applications = new ApplicationService(
    new ApplicationStore(store),
    apiKeys,
    createMailer(config, logger),
    {
      // required in production (lib/config.ts); in development the links follow the address an application came through
      publicUrl: config.PUBLIC_URL_PREDICTIONS,
      fallbackUrl: `http://localhost:${config.PREDICTIONS_PORT}`,
      inboundMailSecret: config.INBOUND_MAIL_SECRET,
      mailReader,
    },
    {
      applications: new KeyedLimiter(store, 'applications', { points: config.APPLICATIONS_PER_HOUR, durationSeconds: HOUR }),
      inboundMail: new KeyedLimiter(store, 'inbound-mail', { points: config.INBOUND_MAILS_PER_HOUR, durationSeconds: HOUR }),
      inboundSecretAttempts: new AttemptThrottle(
        store,
        'inbound-secret',
        { pair: { points: 5, durationSeconds: HOUR / 4 }, address: { points: 5, durationSeconds: HOUR / 4 }, account: [] },
        () => 'Too many wrong inbound e-mail secrets from your address; try again later.',
      ),
      confirmationMails: new KeyedLimiter(store, 'confirmation-mails', { points: 3, durationSeconds: 24 * HOUR }),
    },
    logger,
  );
  const mailbox = new ApplicationMailbox(
    applications,
    {
      address: config.APPLICATION_MAIL_ADDRESS,
      host: config.HOST,
      ...mailboxPort(config),
      limits: { messagesPerMinute: config.APPLICATION_SMTP_MESSAGES_PER_MINUTE },
    },
    logger,
  );
  return { apiKeys, applications, mailbox, mailReader };
}
