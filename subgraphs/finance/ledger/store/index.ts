import type { StoreDefinition } from '../../../../lib/database';
import { LedgerInit1733000000200 } from './migrations/1733000000200-LedgerInit';
import { LedgerDailyOutflow1735000000200 } from './migrations/1735000000200-LedgerDailyOutflow';
import { LedgerAdjustments1736000000200 } from './migrations/1736000000200-LedgerAdjustments';
import { LedgerAuditOutbox1797500000400 } from './migrations/1797500000400-LedgerAuditOutbox';
import { LedgerReversalsAndApprovals1798000000200 } from './migrations/1798000000200-LedgerReversalsAndApprovals';

/** Accounts and transfers (schema `ledger`), on TigerBeetle's model; written only by domain/ledger.ts through store/ledger-store.ts. */
export const ledgerStore: StoreDefinition = {
  schema: 'ledger',
  entities: [],
  migrations: [
    LedgerInit1733000000200,
    LedgerDailyOutflow1735000000200,
    LedgerAdjustments1736000000200,
    LedgerAuditOutbox1797500000400,
    LedgerReversalsAndApprovals1798000000200,
  ],
};
