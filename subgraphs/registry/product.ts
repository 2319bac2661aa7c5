import type { ProductManifest } from '../../lib/product';
import { downloadTokenCredential, licenceKeyCredential, workspaceSessionCredential } from './licensing/credential';
import { registrySettings } from './settings';

/** The licence registry and its customer workspace. */
export const registryProduct = {
  name: 'registry',
  subgraphs: ['licensing'],
  credentials: [licenceKeyCredential, downloadTokenCredential, workspaceSessionCredential],
  cache: {},
  settings: registrySettings,
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous and on demand, as subgraphs/products.ts loads products
  start: () => (require('./start') as typeof import('./start')).registryStart,
} as const satisfies ProductManifest<'registry'>;
