import { DomainError } from '../../../lib/errors';
import { SupergraphError, type SupergraphClient } from '../../../lib/supergraph-client';
import type { KycLevel } from '../../identity/credential';

export const SYSTEM_OWNER = '00000000-0000-0000-0000-000000000000';

export interface LedgerLeg {
  id: string;
  debitAccountId: string;
  creditAccountId: string;
  /** decimal string */
  amount: string;
  code: string;
  metadata?: Record<string, unknown>;
}

export interface LedgerOutcome {
  id: string;
  result: 'created' | 'exists';
  transfer: { createdAt: string };
}

const ENSURE = `mutation PaymentsEnsureAccount($ownerType: String!, $ownerId: ID!, $currency: String!, $code: String!) {
  ensureLedgerAccount(ownerType: $ownerType, ownerId: $ownerId, currency: $currency, code: $code) { id }
}`;
const TRANSFER = `mutation PaymentsTransfer($transfers: [LedgerTransferInput!]!, $limits: LedgerLimitsInput) {
  createLedgerTransfers(transfers: $transfers, limits: $limits) { id result transfer { createdAt } }
}`;
const RECIPIENT = `query PaymentsRecipient($reference: String!) { nodeRecipient(reference: $reference) { id username } }`;

/**
 * The ledger and identity as the payments module calls them (through the supergraph, as the
 * `payments` service principal). A client error of the callee (insufficient funds, a limit) comes
 * back as the same DomainError, so that the surface answers it as it would the callee's.
 */
export class LedgerClient {
  // an account's id never changes: resolved once per owner, currency and purpose
  private readonly accounts = new Map<string, Promise<string>>();

  constructor(private readonly supergraph: SupergraphClient) {}

  account(ownerType: 'user' | 'system', ownerId: string, currency: string, code: string): Promise<string> {
    const key = `${ownerType}:${ownerId}:${currency}:${code}`;
    let id = this.accounts.get(key);
    if (!id) {
      id = this.call<{ ensureLedgerAccount: { id: string } }>(ENSURE, { ownerType, ownerId, currency, code }).then((d) => d.ensureLedgerAccount.id);
      id.catch(() => this.accounts.delete(key));
      if (this.accounts.size > 50_000) this.accounts.clear();
      this.accounts.set(key, id);
    }
    return id;
  }

  wallet(userId: string, currency: string): Promise<string> {
    return this.account('user', userId, currency, 'wallet');
  }

  async transfer(legs: LedgerLeg[], limits?: { userId: string; kycLevel: KycLevel }): Promise<LedgerOutcome[]> {
    const data = await this.call<{ createLedgerTransfers: LedgerOutcome[] }>(TRANSFER, { transfers: legs, limits: limits ?? null });
    return data.createLedgerTransfers;
  }

  async recipient(reference: string): Promise<{ id: string; username: string } | null> {
    return (await this.call<{ nodeRecipient: { id: string; username: string } | null }>(RECIPIENT, { reference })).nodeRecipient;
  }

  private async call<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    try {
      return await this.supergraph.request<T>(query, variables);
    } catch (err) {
      throw asDomainError(err);
    }
  }
}

/**
 * The supergraph carries a callee's error code and details but not its HTTP status: the statuses of
 * the codes the ledger and identity answer to this module. Every other ledger refusal (insufficient
 * funds, a resolved pending transfer…) is a 422, as `ledgerError` makes them.
 */
const CALLEE_STATUSES: Record<string, number> = {
  BAD_USER_INPUT: 400,
  FORBIDDEN: 403,
  LIMIT_EXCEEDED: 403,
  KYC_REQUIRED: 403,
  MODULE_DISABLED: 403,
  LICENCE_READ_ONLY: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
};

function asDomainError(err: unknown): unknown {
  if (!(err instanceof SupergraphError)) return err;
  const first = err.errors[0]?.extensions as { code?: string; serviceName?: string; http?: { status?: number }; details?: unknown } | undefined;
  const code = first?.code;
  if (!code) return err;
  const status =
    first.http?.status ??
    CALLEE_STATUSES[code] ??
    (first.serviceName === 'ledger' && /^[A-Z_]+$/.test(code) && code !== 'INTERNAL_SERVER_ERROR' ? 422 : undefined);
  if (status && status < 500) return new DomainError(code, status, err.errors[0].message, first.details);
  return err;
}
