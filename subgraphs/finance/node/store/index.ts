import type { StoreDefinition } from '../../../../lib/database';
import { NodeInit1733000000000 } from './migrations/1733000000000-NodeInit';

/** The node's tables (schema `node`): settings record, branding, provider credentials, licence, registry deployment, audit log. Read and written with SQL (store/node-store.ts). */
export const nodeStore: StoreDefinition = {
  schema: 'node',
  entities: [],
  migrations: [NodeInit1733000000000],
};
