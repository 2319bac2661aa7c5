import type { StoreDefinition } from '../../../../lib/database';
import { BankingInit1734200000000 } from './migrations/1734200000000-BankingInit';
import { BankingDepositLimits1797600000100 } from './migrations/1797600000100-BankingDepositLimits';
import { BankingAuditOutbox1799100000200 } from './migrations/1799100000200-BankingAuditOutbox';

/** Virtual accounts, provider movements and provider events (schema `banking`); SQL only in store/banking-store.ts. */
export const bankingStore: StoreDefinition = {
  schema: 'banking',
  entities: [],
  migrations: [BankingInit1734200000000, BankingDepositLimits1797600000100, BankingAuditOutbox1799100000200],
};
