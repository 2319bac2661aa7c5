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
} as const satisfies ProductManifest<'registry'>;
