import type { SupergraphClient } from '../../../lib/supergraph-client';

/**
 * The node's audit log (node.audit_log, shown at /admin/audit/) as the other finance subgraphs write
 * to it: through the node subgraph's `recordNodeAudit`, as their service principal (AUDIT_WRITERS).
 * `actor` is `admin:<user name>` for the admin console's operators, as the node subgraph writes it.
 */
export type AuditTrail = (actor: string, action: string, detail?: Record<string, unknown>) => Promise<void>;

const RECORD = `mutation RecordNodeAudit($actor: String!, $action: String!, $detail: String!) {
  recordNodeAudit(actor: $actor, action: $action, detail: $detail)
}`;

export function auditTrailFromSupergraph(supergraph: SupergraphClient): AuditTrail {
  return async (actor, action, detail = {}) => {
    await supergraph.request(RECORD, { actor, action, detail: JSON.stringify(detail) });
  };
}

/** How an operator of the admin console is named in the audit log. */
export const adminActor = (username: string) => `admin:${username}`;
