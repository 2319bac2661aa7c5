import type { StoreDefinition } from '../../../../lib/database';
import { ComplianceInit1734100000000 } from './migrations/1734100000000-ComplianceInit';
import { ComplianceAuditOutbox1797500000200 } from './migrations/1797500000200-ComplianceAuditOutbox';

/** Identity verifications, their documents and applied webhook deliveries (schema `compliance`); SQL only in store/compliance-store.ts. */
export const complianceStore: StoreDefinition = {
  schema: 'compliance',
  entities: [],
  migrations: [ComplianceInit1734100000000, ComplianceAuditOutbox1797500000200],
};
