import { DomainError } from '../../../lib/errors';
import type { SupergraphClient } from '../../../lib/supergraph-client';
import { SupergraphError } from '../../../lib/supergraph-client';

/** The system account where a rail's money enters and leaves the ledger (it may go negative). */
const SYSTEM_OWNER = '00000000-0000-0000-0000-000000000000';

export interface LedgerMove {
  id: string;
  debitAccountId?: string;
  creditAccountId?: string;
  amount?: string;
  code: string;
  kind: 'single' | 'pending' | 'post_pending' | 'void_pending';
  pendingId?: string;
  metadata?: Record<string, unknown>;
}

const ENSURE = `mutation BankingEnsureAccount($type: String!, $owner: ID!, $currency: String!, $code: String!) {
  ensureLedgerAccount(ownerType: $type, ownerId: $owner, currency: $currency, code: $code) { id }
}`;
const TRANSFER = `mutation BankingTransfers($transfers: [LedgerTransferInput!]!, $limits: LedgerLimitsInput) {
  createLedgerTransfers(transfers: $transfers, limits: $limits) { id result }
}`;

/** Ledger errors a client caused (insufficient funds…) stay the client's 4xx; anything else is a fault. */
function rethrow(err: unknown): never {
  if (err instanceof SupergraphError) {
    const first = err.errors[0];
    const code = first?.extensions?.code;
    if (code === 'EXCEEDS_CREDITS') throw new DomainError('INSUFFICIENT_FUNDS', 422, 'Insufficient funds: the available balance does not cover this amount.');
    if (code === 'BAD_USER_INPUT') throw new DomainError('BAD_USER_INPUT', 400, first.message, first.extensions?.details);
    if (code === 'LIMIT_EXCEEDED') throw new DomainError('LIMIT_EXCEEDED', 403, first.message, first.extensions?.details);
  }
  throw err;
}

/**
 * The banking module's only way to the ledger (its service mutations, as the `banking` service
 * principal). Every movement of the module goes through `transfer`: one place to add the ledger's
 * per-user limits argument.
 */
export class LedgerGateway {
  constructor(private readonly supergraph: SupergraphClient) {}

  async wallet(userId: string, currency: string): Promise<string> {
    return this.account('user', userId, currency, 'wallet');
  }

  /** The rail's clearing account in a currency, e.g. `banking:iban`. */
  async clearing(provider: string, currency: string): Promise<string> {
    return this.account('system', SYSTEM_OWNER, currency, `banking:${provider}`);
  }

  private async account(type: string, owner: string, currency: string, code: string): Promise<string> {
    try {
      const data = await this.supergraph.request<{ ensureLedgerAccount: { id: string } }>(ENSURE, { type, owner, currency, code });
      return data.ensureLedgerAccount.id;
    } catch (err) {
      rethrow(err);
    }
  }

  /**
   * Applies a linked batch (all or none); a known transfer id answers `exists` and moves nothing again.
   * `limits`: a user's own request, held by the ledger to their KYC level's limits (403 LIMIT_EXCEEDED).
   */
  async transfer(moves: LedgerMove[], limits?: { userId: string; kycLevel: string }): Promise<{ id: string; result: string }[]> {
    try {
      const data = await this.supergraph.request<{ createLedgerTransfers: { id: string; result: string }[] }>(TRANSFER, {
        transfers: moves,
        limits: limits ?? null,
      });
      return data.createLedgerTransfers;
    } catch (err) {
      rethrow(err);
    }
  }
}
