import { DomainError } from '../../../lib/errors';
import { SupergraphError, type SupergraphClient } from '../../../lib/supergraph-client';

/** The system account that holds reserved and settled trade money (per currency). */
export const CLEARING_CODE = 'investing:clearing';
const ACCOUNT_CACHE_SIZE = 10_000;
const SYSTEM_OWNER = '00000000-0000-0000-0000-000000000000';

export interface LedgerMove {
  id: string;
  debitAccountId?: string;
  creditAccountId?: string;
  amount?: string;
  code: string;
  kind?: 'single' | 'pending' | 'post_pending' | 'void_pending';
  pendingId?: string;
  metadata?: Record<string, unknown>;
}

/** What the ledger refuses for a reason the user can act on, with the ledger's statuses (domain/ledger.ts). */
const LEDGER_REFUSALS: Record<string, number> = { EXCEEDS_CREDITS: 422, LICENCE_READ_ONLY: 403, MAINTENANCE: 503 };

/** The ledger's service mutations, called through the supergraph as the `investing` service. */
export class LedgerClient {
  /** Account ids never change once created: kept to spare a round trip per order (bounded). */
  private readonly accounts = new Map<string, string>();

  constructor(private readonly supergraph: SupergraphClient) {}

  async account(ownerType: 'user' | 'system', ownerId: string, currency: string, code: string): Promise<string> {
    const key = `${ownerType}:${ownerId}:${currency}:${code}`;
    const known = this.accounts.get(key);
    if (known) return known;
    const data = await this.call<{ ensureLedgerAccount: { id: string } }>(
      `mutation($t: String!, $o: ID!, $c: String!, $code: String!) { ensureLedgerAccount(ownerType: $t, ownerId: $o, currency: $c, code: $code) { id } }`,
      { t: ownerType, o: ownerId, c: currency, code },
    );
    if (this.accounts.size >= ACCOUNT_CACHE_SIZE) this.accounts.clear();
    this.accounts.set(key, data.ensureLedgerAccount.id);
    return data.ensureLedgerAccount.id;
  }

  wallet(userId: string, currency: string) {
    return this.account('user', userId, currency, 'wallet');
  }

  clearing(currency: string) {
    return this.account('system', SYSTEM_OWNER, currency, CLEARING_CODE);
  }

  async transfers(moves: LedgerMove[]): Promise<void> {
    await this.call(`mutation($t: [LedgerTransferInput!]!) { createLedgerTransfers(transfers: $t) { id result } }`, { t: moves });
  }

  /** A ledger refusal (insufficient funds…) keeps its code and status; anything else is a fault. */
  private async call<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    try {
      return await this.supergraph.request<T>(query, variables);
    } catch (err) {
      if (err instanceof SupergraphError) {
        const e = err.errors[0];
        const code = typeof e?.extensions?.code === 'string' ? e.extensions.code : '';
        // the gateway keeps a subgraph error's code, not its status
        const status = (e?.extensions?.http as { status?: number } | undefined)?.status ?? LEDGER_REFUSALS[code];
        if (status && status < 500) throw new DomainError(code, status, e.message, e.extensions?.details);
      }
      throw err;
    }
  }
}
