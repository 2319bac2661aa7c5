import type { Store } from '../../lib/database';
import { ApiKeyService } from './domain/api-keys';
import { ApiKeyStore } from './store/api-key-store';

export interface AccessServices {
  apiKeys: ApiKeyService;
}

export function createAccessServices(store: Store): AccessServices {
  return { apiKeys: new ApiKeyService(new ApiKeyStore(store)) };
}
