import type { StoreDefinition } from '../../../../lib/database';
import { CryptoInit1734100000100 } from './migrations/1734100000100-CryptoInit';

/** Deposit addresses, deposits, quotes and swaps (schema `crypto`), written only through store/crypto-store.ts. */
export const cryptoStore: StoreDefinition = {
  schema: 'crypto',
  entities: [],
  migrations: [CryptoInit1734100000100],
};
