import type { ProductManifest } from '../../lib/product';
import { apiKeyCredential, inboundMailCredential } from './access/credential';
import { footballCache } from './football/cache';
import { predictionsCache } from './predictions/cache';
import { predictionsSettings } from './settings';

/** The match prediction API: football data, API keys and applications, predictions (the Telegram bot is its client). */
export const predictionsProduct = {
  name: 'predictions',
  subgraphs: ['football', 'access', 'predictions'],
  credentials: [apiKeyCredential, inboundMailCredential],
  cache: { football: footballCache, predictions: predictionsCache },
  settings: predictionsSettings,
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous and on demand, as subgraphs/products.ts loads products
  start: () => (require('./start') as typeof import('./start')).predictionsStart,
} as const satisfies ProductManifest<'predictions'>;
