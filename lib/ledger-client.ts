import { COMMON_STATUS, DomainError } from './errors';
import { SupergraphError, type SupergraphClient } from './supergraph-client';

/**
 * A money module's view of the ledger subgraph: its service mutations through the supergraph, as the
 * module's service principal (which must be in LEDGER_WRITERS). Errors of the ledger come back as the
 * ledger's DomainErrors (code and status), so a module can tell "insufficient funds" from a fault.
 */
export interface LedgerTransferInput {
  id: string;
  debitAccountId?: string;
  creditAccountId?: string;
  amount?: string;
  code: string;
  kind?: 'single' | 'pending' | 'post_pending' | 'void_pending';
  pendingId?: string;
  timeoutSeconds?: number;
  metadata?: Record<string, unknown>;
}

export interface LedgerOutcome {
  id: string;
  result: 'created' | 'exists';
}

/** The owner id of system accounts (clearing, revenue): the nil uuid. */
export const SYSTEM_OWNER = '00000000-0000-0000-0000-000000000000';

/** The ledger refused because the user's account would go below zero. */
export const INSUFFICIENT_FUNDS = 'EXCEEDS_CREDITS';

const ENSURE = `mutation EnsureLedgerAccount($ownerType: String!, $ownerId: ID!, $currency: String!, $code: String!) {
  ensureLedgerAccount(ownerType: $ownerType, ownerId: $ownerId, currency: $currency, code: $code) { id }
}`;
const TRANSFERS = `mutation CreateLedgerTransfers($transfers: [LedgerTransferInput!]!) {
  createLedgerTransfers(transfers: $transfers) { id result }
}`;

export class LedgerClient {
  constructor(private readonly supergraph: SupergraphClient) {}

  async account(ownerType: 'user' | 'system', ownerId: string, currency: string, code: string): Promise<string> {
    const data = await this.call<{ ensureLedgerAccount: { id: string } }>(ENSURE, { ownerType, ownerId, currency, code });
    return data.ensureLedgerAccount.id;
  }

  /** An atomic linked batch; a retried id answers `exists`. */
  async transfers(transfers: LedgerTransferInput[]): Promise<LedgerOutcome[]> {
    return (await this.call<{ createLedgerTransfers: LedgerOutcome[] }>(TRANSFERS, { transfers })).createLedgerTransfers;
  }

  private async call<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    try {
      return await this.supergraph.request<T>(query, variables);
    } catch (err) {
      const first = err instanceof SupergraphError ? err.errors[0] : undefined;
      const ext = first?.extensions as { code?: string; http?: { status?: number }; details?: unknown } | undefined;
      // the gateway passes the code on, not the status: the ledger's own codes are its 422 refusals
      const status = ext?.http?.status ?? (ext?.code ? (COMMON_STATUS[ext.code] ?? (ext.code === 'INTERNAL_SERVER_ERROR' ? undefined : 422)) : undefined);
      if (ext?.code && status && status < 500) throw new DomainError(ext.code, status, first!.message, ext.details);
      throw err;
    }
  }
}
