import type { ProductManifest } from '../../lib/product';
import { downloadTokenCredential, licenceKeyCredential, workspaceSessionCredential } from './licensing/credential';

/** The licence registry and its customer workspace. */
export const registryProduct = {
  name: 'registry',
  subgraphs: ['licensing'],
  credentials: [licenceKeyCredential, downloadTokenCredential, workspaceSessionCredential],
  cache: {},
} as const satisfies ProductManifest<'registry'>;
