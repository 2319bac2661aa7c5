import type { StoreDefinition } from '../../../lib/database';
import { ApiKeyRow, DailyUsageRow } from './entities';
import { AccessInit1732200000000 } from './migrations/1732200000000-AccessInit';
import { AccessApplications1732300000000 } from './migrations/1732300000000-AccessApplications';

export const accessStore: StoreDefinition = {
  schema: 'access',
  entities: [ApiKeyRow, DailyUsageRow],
  migrations: [AccessInit1732200000000, AccessApplications1732300000000],
};

export { ApiKeyRow, DailyUsageRow };
