import { COMMON_STATUS, DomainError } from '../../../lib/errors';
import Decimal from 'decimal.js';
import { exponentOf } from './currencies';
import { SupergraphError, type SupergraphClient } from '../../../lib/supergraph-client';

/**
 * A money module's view of the ledger subgraph: its service mutations and lookups through the
 * supergraph, as the module's service principal (which must be in LEDGER_WRITERS). The one client
 * every money module uses: accounts resolved once (cached), linked batches with the per-user limits
 * of a user's own outflows, and the ledger's refusals kept as DomainErrors (code and status), so a
 * module can tell "insufficient funds" or "over your limit" from a fault.
 */
/** An account by owner, currency and purpose, for a transfer that may be the first through it (see `LedgerClient.walletKey`). */
export interface LedgerAccountKey {
  ownerType: 'user' | 'system';
  ownerId: string;
  currency: string;
  code: string;
}

export interface LedgerTransferInput {
  id: string;
  debitAccountId?: string;
  creditAccountId?: string;
  /** Instead of an id: the account by key, created in the batch's transaction if need be (a refused batch creates none). */
  debitAccount?: LedgerAccountKey;
  creditAccount?: LedgerAccountKey;
  /** decimal string in the currency the transfer moves */
  amount?: string;
  code: string;
  kind?: 'single' | 'pending' | 'post_pending' | 'void_pending';
  pendingId?: string;
  timeoutSeconds?: number;
  metadata?: Record<string, unknown>;
  /** The posted transfer this one gives back: the ledger reverses a transfer once (409 ALREADY_REVERSED after). */
  reverses?: string;
  /** A credit of a person from a platform account: the two operators (node user ids) who decided it, and the transfer's parties. */
  approval?: { proposedBy: string; approvedBy: string; parties: string[] };
}

/**
 * The user a batch is held to: the ledger refuses it (403 LIMIT_EXCEEDED) when the user's outflows
 * pass the per-transaction or daily limit of their KYC level (subgraphs/finance/ledger/domain/limits.ts).
 * Passed for every movement the user asks for; never for settlements, refunds or credits.
 */
export interface LedgerLimits {
  userId: string;
  /** none, basic or enhanced: the level on the caller's verified principal */
  kycLevel: string;
}

/** The limits of a user's own movement, from the caller's verified principal (only the two fields the ledger reads). */
export const limitsOf = (user: LedgerLimits): LedgerLimits => ({ userId: user.userId, kycLevel: user.kycLevel });

export interface LedgerOutcome {
  id: string;
  /** created: applied now; exists: a retried id, applied before */
  result: 'created' | 'exists';
  transfer: { createdAt: string };
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

/** An account's counters, minor units of its currency. */
export interface LedgerAccountState {
  id: string;
  ownerType: string;
  ownerId: string;
  currency: string;
  /** its purpose: wallet, a module's clearing or revenue account… */
  code: string;
  debitsPosted: bigint;
  debitsPending: bigint;
  creditsPosted: bigint;
  creditsPending: bigint;
}

/** The owner id of system accounts (clearing, revenue): the nil uuid. */
export const SYSTEM_OWNER = '00000000-0000-0000-0000-000000000000';

/**
 * The ledger refused because the account would go below zero: one code for this refusal everywhere,
 * INSUFFICIENT_FUNDS over GraphQL (ledger and every module) and `insufficient_funds` over REST.
 */
export const INSUFFICIENT_FUNDS = 'INSUFFICIENT_FUNDS';

/** The ledger refused because the batch passes the user's per-transaction or daily limit (403). */
export const LIMIT_EXCEEDED = 'LIMIT_EXCEEDED';

const ENSURE = `mutation EnsureLedgerAccount($ownerType: String!, $ownerId: ID!, $currency: String!, $code: String!) {
  ensureLedgerAccount(ownerType: $ownerType, ownerId: $ownerId, currency: $currency, code: $code) { id }
}`;
const TRANSFERS = `mutation CreateLedgerTransfers($transfers: [LedgerTransferInput!]!, $limits: LedgerLimitsInput) {
  createLedgerTransfers(transfers: $transfers, limits: $limits) { id result transfer { createdAt } }
}`;
const ACCOUNT = `query LedgerAccountForService($id: ID!) {
  ledgerAccountForService(id: $id) {
    id ownerType ownerId currency code
    debitsPosted { amount } debitsPending { amount } creditsPosted { amount } creditsPending { amount }
  }
}`;
const REVERSAL = `query LedgerReversalForService($id: ID!) { ledgerReversalForService(id: $id) }`;
const TRANSFER = `query LedgerTransferForService($id: ID!) {
  ledgerTransferForService(id: $id) { id debitAccountId creditAccountId amount { amount currency } code kind createdAt }
}`;

/** An account's sum (a decimal string of the ledger) in minor units, however large (up to LEDGER_TOTAL_MAX). */
const sumToMinor = (amount: string, currency: string): bigint => BigInt(new Decimal(amount).mul(new Decimal(10).pow(exponentOf(currency))).toFixed(0));

/** Bounded: an account id never changes, so the cache only spares round trips. */
const ACCOUNT_CACHE_SIZE = 50_000;

export class LedgerClient {
  private readonly accounts = new Map<string, Promise<string>>();

  constructor(private readonly supergraph: SupergraphClient) {}

  /** An owner's account in a currency for a purpose (`code`), created on first use; resolved once per process. */
  account(ownerType: 'user' | 'system', ownerId: string, currency: string, code: string): Promise<string> {
    const key = `${ownerType}:${ownerId}:${currency}:${code}`;
    let id = this.accounts.get(key);
    if (!id) {
      id = requestAsDomain<{ ensureLedgerAccount: { id: string } }>(this.supergraph, ENSURE, { ownerType, ownerId, currency, code }).then(
        (d) => d.ensureLedgerAccount.id,
      );
      id.catch(() => this.accounts.delete(key));
      if (this.accounts.size >= ACCOUNT_CACHE_SIZE) this.accounts.clear();
      this.accounts.set(key, id);
    }
    return id;
  }

  /** A user's wallet in a currency. */
  wallet(userId: string, currency: string): Promise<string> {
    return this.account('user', userId, currency, 'wallet');
  }

  /**
   * A user's wallet in a currency named by key: a transfer naming it creates it only if the transfer
   * is applied (a refused one leaves no empty wallet behind).
   */
  walletKey(userId: string, currency: string): LedgerAccountKey {
    return { ownerType: 'user', ownerId: userId, currency, code: 'wallet' };
  }

  /** A system account (clearing, revenue, a rail's) in a currency. */
  system(currency: string, code: string): Promise<string> {
    return this.account('system', SYSTEM_OWNER, currency, code);
  }

  /** An atomic linked batch; a retried id answers `exists`. With `limits`, held to that user's limits. */
  async transfers(transfers: LedgerTransferInput[], limits?: LedgerLimits): Promise<LedgerOutcome[]> {
    const data = await requestAsDomain<{ createLedgerTransfers: LedgerOutcome[] }>(this.supergraph, TRANSFERS, { transfers, limits: limits ?? null });
    return data.createLedgerTransfers;
  }

  /** An account's counters now, in minor units (not cached: they change with every transfer). */
  async accountState(id: string): Promise<LedgerAccountState> {
    type Counter = 'debitsPosted' | 'debitsPending' | 'creditsPosted' | 'creditsPending';
    type Raw = Omit<LedgerAccountState, Counter> & Record<Counter, { amount: string }>;
    const { ledgerAccountForService: a } = await requestAsDomain<{ ledgerAccountForService: Raw | null }>(this.supergraph, ACCOUNT, { id });
    if (!a) throw new DomainError('ACCOUNT_NOT_FOUND', 422, 'The ledger has no such account.');
    // an account's sums may pass what one movement may carry (MAX_AMOUNT_MINOR): read as they are, not as an amount to move
    const minor = (m: { amount: string }) => sumToMinor(m.amount, a.currency);
    return {
      ...a,
      debitsPosted: minor(a.debitsPosted),
      debitsPending: minor(a.debitsPending),
      creditsPosted: minor(a.creditsPosted),
      creditsPending: minor(a.creditsPending),
    };
  }

  /** The first transfer of the reversal of `id` (null: the ledger has not reversed it). */
  async reversalOf(id: string): Promise<string | null> {
    return (await requestAsDomain<{ ledgerReversalForService: string | null }>(this.supergraph, REVERSAL, { id })).ledgerReversalForService;
  }

  /** One transfer by id (null when there is none). */
  async transfer(id: string): Promise<LedgerTransferView | null> {
    return (await requestAsDomain<{ ledgerTransferForService: LedgerTransferView | null }>(this.supergraph, TRANSFER, { id })).ledgerTransferForService;
  }
}

/**
 * The supergraph carries a callee's error code and details but not always its HTTP status: the
 * statuses of the codes a money module's callees answer. Every other code of the ledger (insufficient
 * funds, a resolved pending transfer…) is one of its 422 refusals, as `ledgerError` makes them.
 */
const CALLEE_STATUS: Record<string, number> = {
  ...COMMON_STATUS,
  LIMIT_EXCEEDED: 403,
  KYC_REQUIRED: 403,
  ALREADY_REVERSED: 409,
  APPROVAL_REQUIRED: 403,
  SEPARATION_OF_DUTIES: 403,
  MODULE_DISABLED: 403,
  LICENCE_READ_ONLY: 403,
  MAINTENANCE: 503,
};
/** Codes that say the call itself failed (our operation, the gateway, the callee): a fault, not a refusal. */
const FAULTS = new Set(['INTERNAL_SERVER_ERROR', 'DOWNSTREAM_SERVICE_ERROR', 'GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_PARSE_FAILED']);

/**
 * Runs an operation through the supergraph; a callee's refusal comes back as the same DomainError
 * (code, status, message, details), so the surface answers it as it would the callee's. A fault (no
 * code, or one of FAULTS) stays the SupergraphError it is.
 */
export async function requestAsDomain<T>(supergraph: SupergraphClient, query: string, variables: Record<string, unknown>): Promise<T> {
  try {
    return await supergraph.request<T>(query, variables);
  } catch (err) {
    const first = err instanceof SupergraphError ? err.errors[0] : undefined;
    const ext = first?.extensions as { code?: unknown; http?: { status?: unknown }; details?: unknown } | undefined;
    const code = typeof ext?.code === 'string' && !FAULTS.has(ext.code) ? ext.code : undefined;
    if (!code) throw err;
    const status = typeof ext?.http?.status === 'number' ? ext.http.status : (CALLEE_STATUS[code] ?? 422);
    throw new DomainError(code, status, first!.message, ext?.details);
  }
}
