import type { StoreDefinition } from '../../../../lib/database';
import { CommerceInit1734100000000 } from './migrations/1734100000000-CommerceInit';
import { RewardOutbox1734900000000 } from './migrations/1734900000000-RewardOutbox';
import { RewardReversal1735100000000 } from './migrations/1735100000000-RewardReversal';
import { CommerceAuditOutbox1797500000100 } from './migrations/1797500000100-CommerceAuditOutbox';
import { RefundDecisions1798000000100 } from './migrations/1798000000100-RefundDecisions';

/** Shop, utilities, gift cards, disputes and rewards (schema `commerce`); SQL only in store/commerce-store.ts. */
export const commerceStore: StoreDefinition = {
  schema: 'commerce',
  entities: [],
  migrations: [
    CommerceInit1734100000000,
    RewardOutbox1734900000000,
    RewardReversal1735100000000,
    CommerceAuditOutbox1797500000100,
    RefundDecisions1798000000100,
  ],
};
