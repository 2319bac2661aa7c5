import type { ProductManifest } from '../../lib/product';
import { adminSessionCredential, nodeTokenCredential } from './identity/credential';
import { financeSettings } from './settings';

/** The finance platform node: the product customers self-host, licensed by the registry over HTTP. */
export const financeProduct = {
  name: 'finance',
  subgraphs: ['node', 'identity', 'ledger', 'compliance', 'banking', 'cards', 'crypto', 'commerce', 'investing', 'payments'],
  credentials: [nodeTokenCredential, adminSessionCredential],
  cache: {},
  settings: financeSettings,
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous and on demand, as subgraphs/products.ts loads products
  start: () => (require('./start') as typeof import('./start')).financeStart,
} as const satisfies ProductManifest<'finance'>;
