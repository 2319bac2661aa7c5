import type { StoreDefinition } from '../../../../lib/database';
import { InvestingInit1734100000000 } from './migrations/1734100000000-InvestingInit';

/** Instruments, orders, fills, positions and command runs (schema `investing`); SQL only in store/investing-store.ts. */
export const investingStore: StoreDefinition = {
  schema: 'investing',
  entities: [],
  migrations: [InvestingInit1734100000000],
};
