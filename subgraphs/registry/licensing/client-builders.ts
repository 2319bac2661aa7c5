import { buildFinanceClient } from '../../../clients/finance-web/build';
import { ANDROID_TOOLS_INSTALL, buildAndroidPackage, buildIosProject, createAndroidSigningKey, missingAndroidTools } from '../../../clients/mobile/index';
import type { ClientBuilders } from './domain/frontend-builds';

/** The client builders of this repository: the finance web client and the mobile packages. */
export function loadClientBuilders(): ClientBuilders {
  return { buildFinanceClient, buildAndroidPackage, buildIosProject, createAndroidSigningKey, missingAndroidTools, androidToolsInstall: ANDROID_TOOLS_INSTALL };
}
