import { buildFinanceClient } from '../../../clients/finance-web/build';
import { buildAndroidPackage, buildIosProject } from '../../../clients/mobile/index';
import type { ClientBuilders } from './domain/frontend-builds';

/** The client builders of this repository: the finance web client and the mobile packages. */
export function loadClientBuilders(): ClientBuilders {
  return { buildFinanceClient, buildAndroidPackage, buildIosProject };
}
