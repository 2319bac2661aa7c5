import type { StoreDefinition } from '../../../../lib/database';
import { PaymentsInit1734100000200 } from './migrations/1734100000200-PaymentsInit';
import { PaymentsRateLimit1798300000000 } from './migrations/1798300000000-PaymentsRateLimit';

/** Idempotency keys, FX quotes and provider events of the payments module (schema `payments`); balances live in the ledger. */
export const paymentsStore: StoreDefinition = {
  schema: 'payments',
  entities: [],
  migrations: [PaymentsInit1734100000200, PaymentsRateLimit1798300000000],
};
