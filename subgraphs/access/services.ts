import type { Config } from '../../lib/config';
import type { Store } from '../../lib/database';
import type { Logger } from '../../lib/logger';
import type { Mailer } from '../../lib/mailer';
import { ApiKeyService } from './domain/api-keys';
import { ApplicationService } from './domain/applications';
import { ApiKeyStore } from './store/api-key-store';
import { ApplicationStore } from './store/application-store';

export interface AccessServices {
  apiKeys: ApiKeyService;
  applications: ApplicationService;
}

export interface AccessServiceOptions {
  /** Sends the applicants' mail (the key on approval). */
  mailer: Mailer;
  config: Pick<Config, 'PUBLIC_URL_PREDICTIONS' | 'INBOUND_MAIL_SECRET'>;
  logger: Logger;
}

export function createAccessServices(store: Store, opts: AccessServiceOptions): AccessServices {
  const apiKeys = new ApiKeyService(new ApiKeyStore(store));
  const applications = new ApplicationService(
    new ApplicationStore(store),
    apiKeys,
    opts.mailer,
    { publicUrl: opts.config.PUBLIC_URL_PREDICTIONS ?? 'http://localhost:8080', inboundMailSecret: opts.config.INBOUND_MAIL_SECRET },
    opts.logger,
  );
  return { apiKeys, applications };
}
