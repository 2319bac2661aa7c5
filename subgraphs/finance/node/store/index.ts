import type { StoreDefinition } from '../../../../lib/database';
import { NodeInit1733000000000 } from './migrations/1733000000000-NodeInit';
import { NodeVendorKey1796000000000 } from './migrations/1796000000000-NodeVendorKey';
import { NodeAuditOutboxId1797500000000 } from './migrations/1797500000000-NodeAuditOutboxId';
import { NodeSeat1798200000000 } from './migrations/1798200000000-NodeSeat';
import { NodeBrandingLogo1798600000100 } from './migrations/1798600000100-NodeBrandingLogo';

/** The node's tables (schema `node`): settings record, branding, provider credentials, licence and the vendor key it is pinned to, registry deployment, audit log. Read and written with SQL (store/node-store.ts). */
export const nodeStore: StoreDefinition = {
  schema: 'node',
  entities: [],
  migrations: [NodeInit1733000000000, NodeVendorKey1796000000000, NodeAuditOutboxId1797500000000, NodeSeat1798200000000, NodeBrandingLogo1798600000100],
};
