import { bankingSubgraph } from './banking';
import { cardsSubgraph } from './cards';
import { commerceSubgraph } from './commerce';
import { complianceSubgraph } from './compliance';
import { cryptoSubgraph } from './crypto';
import { identitySubgraph } from './identity';
import { investingSubgraph } from './investing';
import { ledgerSubgraph } from './ledger';
import { nodeSubgraph } from './node';
import { paymentsSubgraph } from './payments';

/** The finance node's subgraphs, in start order (the node's settings and licence gate first). */
export const financeSubgraphs = [
  nodeSubgraph,
  identitySubgraph,
  ledgerSubgraph,
  complianceSubgraph,
  bankingSubgraph,
  cardsSubgraph,
  cryptoSubgraph,
  commerceSubgraph,
  investingSubgraph,
  paymentsSubgraph,
] as const;
