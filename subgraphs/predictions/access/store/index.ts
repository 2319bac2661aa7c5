import type { StoreDefinition } from '../../../../lib/database';
import { ApiKeyRow, DailyUsageRow } from './entities';
import { AccessInit1732200000000 } from './migrations/1732200000000-AccessInit';
import { AccessApplications1732300000000 } from './migrations/1732300000000-AccessApplications';
import { BootstrapAdmin1732400000000 } from './migrations/1732400000000-BootstrapAdmin';
import { ApplicationConfirmation1732400000100 } from './migrations/1732400000100-ApplicationConfirmation';
import { MeterBatches1732500000000 } from './migrations/1732500000000-MeterBatches';
import { QuotaGiveBack1732600000000 } from './migrations/1732600000000-QuotaGiveBack';
import { ApplicationOrigin1732600000100 } from './migrations/1732600000100-ApplicationOrigin';

export const accessStore: StoreDefinition = {
  schema: 'access',
  entities: [ApiKeyRow, DailyUsageRow],
  migrations: [
    AccessInit1732200000000,
    AccessApplications1732300000000,
    BootstrapAdmin1732400000000,
    ApplicationConfirmation1732400000100,
    MeterBatches1732500000000,
    QuotaGiveBack1732600000000,
    ApplicationOrigin1732600000100,
  ],
};

export { ApiKeyRow, DailyUsageRow };
