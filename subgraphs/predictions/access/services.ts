import { createMailer } from '../../../lib/mailer';
import { KeyedLimiter } from '../../../lib/rate-limits';
import type { SubgraphDeps } from '../../../lib/subgraph';
import { ApiKeyService } from './domain/api-keys';
import { ApplicationService } from './domain/applications';
import { ApiKeyStore } from './store/api-key-store';
import { ApplicationStore } from './store/application-store';

export interface AccessServices {
  apiKeys: ApiKeyService;
  applications: ApplicationService;
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
      inboundSecretFailures: new KeyedLimiter(store, 'inbound-secret-failures', { points: 5, durationSeconds: HOUR / 4 }),
      confirmationMails: new KeyedLimiter(store, 'confirmation-mails', { points: 3, durationSeconds: 24 * HOUR }),
    },
    logger,
  );
  return { apiKeys, applications };
}
