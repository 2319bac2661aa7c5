import { AttemptThrottle } from '../../../lib/attempts';
import { createMailer } from '../../../lib/mailer';
import { KeyedLimiter } from '../../../lib/rate-limits';
import type { SubgraphDeps } from '../../../lib/subgraph';
import { ApiKeyService } from './domain/api-keys';
import { ApplicationService } from './domain/applications';
import { ApiKeyStore } from './store/api-key-store';
import { ApplicationStore } from './store/application-store';
import { ApplicationMailbox } from './mailbox';

export interface AccessServices {
  apiKeys: ApiKeyService;
  applications: ApplicationService;
  /** The built-in SMTP mailbox for applications by e-mail. */
  mailbox: ApplicationMailbox;
}

/** APPLICATION_SMTP_PORT: a number, `off`, or unset (2525; any free port under test, where many systems run at once). */
export function mailboxPort(config: SubgraphDeps['config']): number | 'off' {
  const raw = config.APPLICATION_SMTP_PORT;
  if (raw === 'off') return 'off';
  if (raw !== undefined) return Number(raw);
  return config.NODE_ENV === 'test' ? 0 : 2525;
}

const HOUR = 3600;

export function createAccessServices({ store, config, logger }: SubgraphDeps): AccessServices {
  const apiKeys = new ApiKeyService(new ApiKeyStore(store, config.METER_BATCH_MAX));
  const applications = new ApplicationService(
    new ApplicationStore(store),
    apiKeys,
    createMailer(config, logger),
    { publicUrl: config.PUBLIC_URL_PREDICTIONS ?? 'http://localhost:8080', inboundMailSecret: config.INBOUND_MAIL_SECRET },
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
  const mailbox = new ApplicationMailbox(applications, { address: config.APPLICATION_MAIL_ADDRESS, host: config.HOST, port: mailboxPort(config) }, logger);
  return { apiKeys, applications, mailbox };
}
