import { DomainError } from '../../../lib/errors';
import { SupergraphError, type SupergraphClient } from '../../../lib/supergraph-client';

/**
 * The ledger as this module sees it: accounts and linked batches of transfers, through the
 * supergraph's service mutations (commerce is one of LEDGER_WRITERS). Transfer ids are derived from
 * this module's records, so a retried step answers `exists` instead of moving money twice.
 */
export interface LedgerTransferSpec {
  id: string;
  debitAccountId: string;
  creditAccountId: string;
  amount: string;
  code: string;
  metadata?: Record<string, unknown>;
}

export interface LedgerAccountView {
  id: string;
  ownerType: string;
  ownerId: string;
  currency: string;
  code: string;
  creditsPosted: { amount: string };
  debitsPosted: { amount: string };
}

export interface LedgerTransferView {
  id: string;
  debitAccountId: string;
  creditAccountId: string;
  amount: { amount: string; currency: string };
  code: string;
  kind: string;
  createdAt: string;
}

const ACCOUNT_FIELDS = 'id ownerType ownerId currency code creditsPosted { amount } debitsPosted { amount }';
const TRANSFER_FIELDS = 'id debitAccountId creditAccountId amount { amount currency } code kind createdAt';

/** The ledger's refusals are the client's (their status and details kept); insufficient funds is named for the user; anything else is a fault. */
function rethrow(err: unknown): never {
  if (err instanceof SupergraphError) {
    const first = err.errors[0];
    const extensions = (first?.extensions ?? {}) as { code?: unknown; http?: { status?: unknown }; details?: unknown };
    const code = typeof extensions.code === 'string' ? extensions.code : undefined;
    const status = typeof extensions.http?.status === 'number' ? extensions.http.status : 422;
    if (code === 'EXCEEDS_CREDITS') throw new DomainError('INSUFFICIENT_FUNDS', 422, 'Insufficient funds in the wallet.');
    if (code && code !== 'INTERNAL_SERVER_ERROR' && status < 500) throw new DomainError(code, status, first.message, extensions.details);
  }
  throw err;
}

export class LedgerClient {
  constructor(private readonly supergraph: SupergraphClient) {}

  /**
   * Retried: two first uses of one account at once can make the ledger's INSERT … ON CONFLICT DO
   * NOTHING + SELECT answer nothing (the loser's statement snapshot predates the winner's row).
   */
  async account(ownerType: 'user' | 'system', ownerId: string, currency: string, code: string): Promise<LedgerAccountView> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.accountOnce(ownerType, ownerId, currency, code);
      } catch (err) {
        if (err instanceof DomainError || attempt >= 3) throw err;
      }
    }
  }

  private async accountOnce(ownerType: 'user' | 'system', ownerId: string, currency: string, code: string): Promise<LedgerAccountView> {
    try {
      const data = await this.supergraph.request<{ ensureLedgerAccount: LedgerAccountView }>(
        `mutation CommerceLedgerAccount($ownerType: String!, $ownerId: ID!, $currency: String!, $code: String!) {
          ensureLedgerAccount(ownerType: $ownerType, ownerId: $ownerId, currency: $currency, code: $code) { ${ACCOUNT_FIELDS} }
        }`,
        { ownerType, ownerId, currency, code },
      );
      return data.ensureLedgerAccount;
    } catch (err) {
      rethrow(err);
    }
  }

  async transfer(transfers: LedgerTransferSpec[]): Promise<{ id: string; result: string }[]> {
    try {
      const data = await this.supergraph.request<{ createLedgerTransfers: { id: string; result: string }[] }>(
        `mutation CommerceLedgerTransfers($transfers: [LedgerTransferInput!]!) { createLedgerTransfers(transfers: $transfers) { id result } }`,
        { transfers: transfers.map((t) => ({ ...t, kind: 'single' })) },
      );
      return data.createLedgerTransfers;
    } catch (err) {
      rethrow(err);
    }
  }

  async transferById(id: string): Promise<LedgerTransferView | null> {
    try {
      const data = await this.supergraph.request<{ ledgerTransferForService: LedgerTransferView | null }>(
        `query CommerceLedgerTransfer($id: ID!) { ledgerTransferForService(id: $id) { ${TRANSFER_FIELDS} } }`,
        { id },
      );
      return data.ledgerTransferForService;
    } catch (err) {
      rethrow(err);
    }
  }
}
