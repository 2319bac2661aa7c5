import { randomUUID } from 'node:crypto';
import { STATEMENT_DIRECTIONS, STATEMENT_STATUSES } from '../vocabulary';
import type pg from 'pg';
import { inTransaction } from '../../../../lib/database';
import { DomainError, badInput } from '../../../../lib/errors';
import { derivedUuid } from '../../../../lib/idempotency';
import type { AccountRow, LedgerStore, ReconciliationRow, StatementRow, TransferRow } from '../store/ledger-store';
import { LEDGER_TOTAL_MAX, MAX_AMOUNT_MINOR, exponentOf, toMinor, toMoney, type Money } from '../../kernel/currencies';
import type { KycLevel } from '../../kernel/kyc';
import { LIMIT_SCALE, isKycLevel, limitExceeded, limitFor, startOfUtcDay } from './limits';
import {
  PLATFORM_CREDIT_SOURCES,
  REVERSAL_CODES,
  alreadyReversed,
  checkReversal,
  postingDecisions,
  type PlatformCreditApproval,
  type PostingDecisions,
} from './posting-rules';

/**
 * The ledger, on TigerBeetle's model: every balance change is a transfer between two accounts of
 * one currency; `createTransfers` applies a batch atomically (linked: all or nothing), and it is
 * the only code that changes balances. Later issues (transfers between users, IBANs, cards, FX)
 * build their movements as batches of these transfers.
 *
 * Safety under concurrency: the batch's accounts are locked in sorted id order (no deadlocks), the
 * client's transfer id is the primary key (a retried id is applied once: the replay answers
 * `exists`), balance rules are checked here and by CHECK constraints, and the whole batch is retried
 * on serialization failures, deadlocks and unique violations (a concurrent twin of the same id).
 */
export const NIL_OWNER = '00000000-0000-0000-0000-000000000000';
export const WALLET = 'wallet';
export const FUNDING = 'funding';

export type TransferKind = 'single' | 'pending' | 'post_pending' | 'void_pending';

/** An account named by what it is rather than its id: created with the batch that first moves money through it. */
export interface AccountKey {
  ownerType: string;
  ownerId: string;
  currency: string;
  code: string;
}

export interface TransferInput {
  /** Client-chosen id (uuid): the idempotency key. */
  id: string;
  debitAccountId?: string;
  creditAccountId?: string;
  /**
   * Instead of an id: the account by its key. One that does not exist yet is created in the batch's
   * own transaction, so a refused batch (insufficient funds, a limit) leaves no empty account behind.
   */
  debitAccount?: AccountKey;
  creditAccount?: AccountKey;
  /** Minor units. For post_pending: at most the pending amount (default: all of it); ignored for void_pending. */
  amount?: bigint;
  code: string;
  kind?: TransferKind;
  /** The pending transfer that a post_pending or void_pending resolves. */
  pendingId?: string;
  /** pending only: it expires (and its amounts are released) after this many seconds. */
  timeoutSeconds?: number;
  metadata?: Record<string, unknown>;
  /** The posted transfer this one gives back (a refund): one reversal per original (posting-rules.ts). */
  reverses?: string;
  /** A credit of a person from a platform account: the two people who decided it (posting-rules.ts). */
  approval?: PlatformCreditApproval;
}

/** The user whose spending limits a batch is held to (see limits.ts), and their KYC level. */
export interface LimitsInput {
  userId: string;
  kycLevel: KycLevel;
}

export interface TransferOutcome {
  id: string;
  /** created: applied now; exists: the same transfer was applied before (an idempotent replay). */
  result: 'created' | 'exists';
  transfer: TransferRow;
}

export const ledgerError = (code: string, message: string, details?: unknown) => new DomainError(code, 422, message, details);

/**
 * A movement larger than the ledger takes (more than MAX_AMOUNT_MINOR minor units: 400), or one that
 * would take an account's sums beyond LEDGER_TOTAL_MAX (422, like the other refusals that depend on
 * an account's state): refused before anything is written.
 */
export const amountTooLarge = (accountId?: string) =>
  new DomainError(
    'AMOUNT_TOO_LARGE',
    accountId === undefined ? 400 : 422,
    accountId !== undefined
      ? 'The amount is too large: the account cannot hold it.'
      : `The amount is too large: at most ${MAX_AMOUNT_MINOR} minor units of its currency move at once.`,
    accountId ? { accountId } : undefined,
  );

/** Whether an account's sums stay within what the ledger holds. */
const withinTotals = (a: Pick<AccountRow, 'debitsPending' | 'debitsPosted' | 'creditsPending' | 'creditsPosted'>) =>
  a.debitsPending <= LEDGER_TOTAL_MAX && a.debitsPosted <= LEDGER_TOTAL_MAX && a.creditsPending <= LEDGER_TOTAL_MAX && a.creditsPosted <= LEDGER_TOTAL_MAX;
const accountNotFound = () => ledgerError('ACCOUNT_NOT_FOUND', 'The debit or the credit account does not exist.');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CODE = /^[a-z0-9_:]{1,64}$/;
const RETRYABLE = new Set(['40001', '40P01', '23505']);
const MAX_ATTEMPTS = 8;
/** Bounded: cleared when full (the cache only spares round trips). */
const ACCOUNT_CURRENCY_CACHE_SIZE = 100_000;

export interface Balance {
  currency: string;
  accountId: string;
  /** credits_posted − debits_posted */
  posted: Money;
  /** posted plus what is pending in both directions */
  pending: Money;
  /** posted minus pending debits: what the owner can spend */
  available: Money;
}

/** One account's figures for a statement period. */
export interface PeriodBalance {
  accountId: string;
  currency: string;
  opening: Money;
  moneyIn: Money;
  moneyOut: Money;
  closing: Money;
}

export class Ledger {
  /** Test hook and metric: how many batches were retried (serialization failures, deadlocks, twins). */
  retries = 0;
  private readonly userQueues = new Map<string, Promise<void>>();
  /** An account's currency never changes: known ones spare the look-up before each batch. */
  private readonly accountCurrencies = new Map<string, string>();
  /** The ids of accounts named by key that exist (committed): an account is never deleted. */
  private readonly accountIds = new Map<string, string>();
  /** Whether an account is a platform-credit source (its owner and code never change). */
  private readonly platformSources = new Map<string, boolean>();

  constructor(
    private readonly store: LedgerStore,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** A user's wallet in a currency (credit-normal, may not go below zero), created on first use. */
  wallet(userId: string, currency: string): Promise<AccountRow> {
    exponentOf(currency);
    return this.store.ensureAccount({ ownerType: 'user', ownerId: userId, currency, code: WALLET, debitsMustNotExceedCredits: true });
  }

  /** The system account a currency's money enters the ledger through (funding; no balance limit). */
  fundingAccount(currency: string): Promise<AccountRow> {
    exponentOf(currency);
    return this.store.ensureAccount({ ownerType: 'system', ownerId: NIL_OWNER, currency, code: FUNDING, debitsMustNotExceedCredits: false });
  }

  /** An owner's account in a currency for a purpose (`code`), created on first use; a user's may not go below zero. */
  account(ownerType: string, ownerId: string, currency: string, code: string): Promise<AccountRow> {
    return this.store.ensureAccount(accountFields({ ownerType, ownerId, currency, code }));
  }

  /**
   * A batch as it comes over the wire: amounts as decimal strings in the currency the transfer moves
   * (its debit account's, or its pending transfer's), read exactly (more decimals than the currency
   * has is a 400, never a rounding).
   */
  async createDecimalTransfers(inputs: (Omit<TransferInput, 'amount'> & { amount?: string })[], limits?: LimitsInput): Promise<TransferOutcome[]> {
    const valid = (id: string | undefined): id is string => id !== undefined && UUID.test(id);
    const accountIds = inputs.map((t) => t.debitAccountId).filter(valid);
    const pendingIds = inputs.map((t) => t.pendingId).filter(valid);
    const unknown = accountIds.filter((id) => !this.accountCurrencies.has(id));
    const known = unknown.length || pendingIds.length ? await this.store.currencies(unknown, pendingIds) : new Map<string, string>();
    for (const id of unknown) {
      const currency = known.get(id);
      if (currency === undefined) continue;
      if (this.accountCurrencies.size >= ACCOUNT_CURRENCY_CACHE_SIZE) this.accountCurrencies.clear();
      this.accountCurrencies.set(id, currency);
    }
    for (const id of accountIds) if (this.accountCurrencies.has(id)) known.set(id, this.accountCurrencies.get(id)!);
    return this.createTransfers(
      inputs.map((t) => {
        if (t.amount === undefined) return { ...t, amount: undefined };
        const currency = t.debitAccount?.currency || (t.debitAccountId && known.get(t.debitAccountId)) || (t.pendingId && known.get(t.pendingId));
        if (!currency) throw t.pendingId ? ledgerError('PENDING_TRANSFER_NOT_FOUND', `No pending transfer ${t.pendingId}.`) : accountNotFound();
        return { ...t, amount: toMinor(t.amount, currency) };
      }),
      limits,
    );
  }

  /** Moves `amount` (minor units) from the currency's funding account into a user's wallet (deposits, the demo). */
  async fund(userId: string, currency: string, amount: bigint, transferId: string, code = 'deposit'): Promise<TransferOutcome> {
    const [funding, wallet] = await Promise.all([this.fundingAccount(currency), this.wallet(userId, currency)]);
    const [outcome] = await this.createTransfers([{ id: transferId, debitAccountId: funding.id, creditAccountId: wallet.id, amount, code }]);
    return outcome;
  }

  /**
   * Applies a linked batch of transfers atomically; retried ids answer `exists`. With `limits`, the
   * batch is refused (403 LIMIT_EXCEEDED) when the user's outflows would pass their KYC level's
   * per-transaction or daily limit, checked in the same transaction under the user's lock.
   */
  async createTransfers(inputs: TransferInput[], limits?: LimitsInput): Promise<TransferOutcome[]> {
    validateBatch(inputs);
    if (limits) {
      if (!UUID.test(limits.userId)) throw badInput('limits.userId is a uuid.', { userId: ['A uuid.'] });
      if (!isKycLevel(limits.kycLevel)) throw badInput('limits.kycLevel is none, basic or enhanced.', { kycLevel: ['none, basic or enhanced'] });
    }
    if (limits) return this.serialised(limits.userId, () => this.attempt(inputs, limits));
    return this.attempt(inputs);
  }

  /**
   * Applies a batch inside the caller's transaction `c`, with a record of the caller's changed in the
   * same transaction (all or nothing: a manual adjustment's decision and its transfer). No retries here:
   * the caller's transaction is the unit. Every query goes through `c`: a second pooled connection taken
   * while the caller holds its locks would wait behind the callers queued on those locks (a full pool
   * deadlocks until the pool's wait gives up).
   */
  async applyInTransaction(c: pg.PoolClient, inputs: TransferInput[]): Promise<TransferOutcome[]> {
    validateBatch(inputs);
    return this.apply(c, await this.withKnownAccounts(inputs, c));
  }

  /**
   * One user's limited batches wait for each other here, in this process, before they take a database
   * connection: waiting in PostgreSQL for the user's advisory lock would hold a pooled connection each
   * (the lock still orders them across processes).
   */
  private serialised<T>(userId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.userQueues.get(userId) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.userQueues.set(userId, tail);
    void tail.then(() => {
      if (this.userQueues.get(userId) === tail) this.userQueues.delete(userId);
    });
    return run;
  }

  private async attempt(requested: TransferInput[], limits?: LimitsInput): Promise<TransferOutcome[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        // accounts named by key that exist are named by id from here on; those that do not are created
        // by `apply`, in the batch's transaction
        const inputs = await this.withKnownAccounts(requested);
        const keyed = inputs.some((t) => t.debitAccount || t.creditAccount);
        const one = !keyed && inputs.length === 1 && (inputs[0].kind ?? 'single') === 'single' ? inputs[0] : undefined;
        // a transfer the posting rules concern (a reversal, a platform credit) is posted by `apply`, which enforces them
        const single = one && !(await this.underPostingRules(one)) ? one : undefined;
        // the common case, one posted transfer, in one statement (with limits: after the user's lock);
        // batches, two-phase and new accounts in a transaction
        if (!limits) return single ? await this.postSingle(single) : await inTransaction(this.store.pool, (c) => this.apply(c, inputs));
        return await this.store.inUserLimitsTransaction(limits.userId, (c) => (single ? this.postSingle(single, limits, c) : this.apply(c, inputs, limits)));
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (!code || !RETRYABLE.has(code) || attempt >= MAX_ATTEMPTS) {
          // a sum out of bigint's range: the checks above keep every sum far below it; should one be missed, a clear refusal
          if (code === '22003') throw amountTooLarge('');
          if (code === '23514') {
            const constraint = (err as { constraint?: string }).constraint;
            if (constraint === 'account_no_overcredit') throw ledgerError('EXCEEDS_DEBITS', 'The transfer would credit the account beyond its debits.');
            throw ledgerError('INSUFFICIENT_FUNDS', 'Insufficient funds: the transfer would take the account below zero.');
          }
          throw err;
        }
        this.retries++;
        await new Promise((r) => setTimeout(r, Math.random() * 2 ** attempt));
      }
    }
  }

  /** Whether a single transfer falls under the posting rules (posting-rules.ts): it reverses, or it is paid by a platform-credit source. */
  private async underPostingRules(t: TransferInput): Promise<boolean> {
    if (t.reverses || t.approval || REVERSAL_CODES.includes(t.code)) return true;
    const id = t.debitAccountId!;
    let source = this.platformSources.get(id);
    if (source === undefined) {
      const account = UUID.test(id) ? await this.store.account(id) : undefined;
      if (!account) return false; // refused as ACCOUNT_NOT_FOUND by the post
      source = account.ownerType === 'system' && PLATFORM_CREDIT_SOURCES.includes(account.code);
      if (this.platformSources.size >= ACCOUNT_CURRENCY_CACHE_SIZE) this.platformSources.clear();
      this.platformSources.set(id, source);
    }
    return source;
  }

  /**
   * The batch with every account named by key that exists named by its id (looked up once, then
   * remembered: an account is never deleted). Keys of accounts that do not exist stay for `apply`.
   */
  private async withKnownAccounts(inputs: TransferInput[], client?: pg.PoolClient): Promise<TransferInput[]> {
    const keys = inputs.flatMap((t) => [t.debitAccount, t.creditAccount]).filter((k): k is AccountKey => k !== undefined);
    if (!keys.length) return inputs;
    const unknown = keys.filter((k) => !this.accountIds.has(keyOf(k)));
    if (unknown.length) {
      for (const row of await this.store.accountIdsByKey(unknown.map(accountFields), client)) {
        if (this.accountIds.size >= ACCOUNT_CURRENCY_CACHE_SIZE) this.accountIds.clear();
        this.accountIds.set(keyOf(row), row.id);
      }
    }
    return inputs.map((t) => named(t, (k) => this.accountIds.get(keyOf(k))));
  }

  /** Creates (in the batch's transaction `c`) the accounts still named by key, and names them by id. */
  private async createKeyedAccounts(c: pg.PoolClient, inputs: TransferInput[]): Promise<TransferInput[]> {
    const keys = new Map<string, AccountKey>();
    for (const t of inputs) for (const k of [t.debitAccount, t.creditAccount]) if (k) keys.set(keyOf(k), k);
    if (!keys.size) return inputs;
    const ids = new Map<string, string>();
    // in key order: two batches creating the same accounts wait for each other rather than deadlock
    for (const [key, k] of [...keys].sort(([a], [b]) => (a < b ? -1 : 1))) ids.set(key, (await this.store.ensureAccount(accountFields(k), c)).id);
    return inputs.map((t) => named(t, (k) => ids.get(keyOf(k))));
  }

  /**
   * One posted transfer in one statement; with `limits`, in the user's limits transaction, the limits
   * checked by that statement against the day's outflow counter (the refusals as `apply` makes them).
   */
  private async postSingle(input: TransferInput, limits?: LimitsInput, client?: pg.PoolClient): Promise<TransferOutcome[]> {
    const row: TransferRow = {
      id: input.id,
      debitAccountId: input.debitAccountId!,
      creditAccountId: input.creditAccountId!,
      amount: input.amount!,
      currency: '',
      code: input.code,
      kind: 'single',
      pendingId: null,
      timeoutAt: null,
      batchId: randomUUID(),
      metadata: input.metadata ?? {},
    };
    const r = await this.store.postSingle(
      row,
      limits && { client: client!, userId: limits.userId, day: startOfUtcDay(this.clock()).toISOString().slice(0, 10), table: limitTable(limits.kycLevel) },
    );
    if (r.inserted) return [{ id: row.id, result: 'created', transfer: { ...row, currency: r.currency!, createdAt: r.createdAt! } }];
    const before = await this.store.transfer(row.id);
    if (before) {
      if (!sameTransfer(before, row)) throw ledgerError('EXISTS_WITH_DIFFERENT_FIELDS', `Transfer ${row.id} exists with different fields.`, { id: row.id });
      return [{ id: row.id, result: 'exists', transfer: before }];
    }
    if (r.accounts < 2) throw accountNotFound();
    if (r.currencies !== 1) throw ledgerError('ACCOUNTS_MUST_HAVE_THE_SAME_CURRENCY', 'Both accounts of a transfer are in one currency.');
    if (r.tooLarge) throw amountTooLarge(r.tooLarge);
    if (r.short)
      throw ledgerError('INSUFFICIENT_FUNDS', 'Insufficient funds: the transfer would take the account below zero.', { accountId: row.debitAccountId });
    if (r.over) throw ledgerError('EXCEEDS_DEBITS', 'The transfer would credit the account beyond its debits.', { accountId: row.creditAccountId });
    if (limits && r.outflow) refuseOverLimits(limits, new Map([[r.accountsCurrency!, row.amount]]), new Map([[r.accountsCurrency!, BigInt(r.spent ?? '0')]]));
    throw new Error(`transfer ${row.id} was neither inserted nor refused`);
  }

  private async apply(c: pg.PoolClient, keyed: TransferInput[], limits?: LimitsInput): Promise<TransferOutcome[]> {
    const inputs = await this.createKeyedAccounts(c, keyed);
    const now = this.clock();
    const pendingIds = [...new Set(inputs.flatMap((t) => (t.pendingId ? [t.pendingId] : [])))].sort();
    const pendings = pendingIds.length ? await this.store.lockPending(c, pendingIds) : new Map<string, TransferRow & { resolved: boolean }>();
    const accountIds = new Set<string>();
    for (const t of inputs) {
      const p = t.pendingId ? pendings.get(t.pendingId) : undefined;
      for (const id of [t.debitAccountId ?? p?.debitAccountId, t.creditAccountId ?? p?.creditAccountId]) if (id) accountIds.add(id);
    }
    const { accounts, existing, outflows } = await this.store.lockForTransfers(
      c,
      [...accountIds].sort(),
      inputs.map((t) => t.id),
      limits && { userId: limits.userId, day: startOfUtcDay(now).toISOString().slice(0, 10) },
    );
    const touched = new Map<string, AccountRow>();
    const created: TransferRow[] = [];
    const outcomes: TransferOutcome[] = [];
    const batchId = randomUUID();
    const resolvedInBatch = new Set<string>();
    for (const input of inputs) {
      const kind = input.kind ?? 'single';
      const pending = input.pendingId ? pendings.get(input.pendingId) : undefined;
      if (input.pendingId && (!pending || pending.kind !== 'pending'))
        throw ledgerError('PENDING_TRANSFER_NOT_FOUND', `No pending transfer ${input.pendingId}.`);
      const debitId = input.debitAccountId ?? pending?.debitAccountId;
      const creditId = input.creditAccountId ?? pending?.creditAccountId;
      const debit = debitId ? (touched.get(debitId) ?? accounts.get(debitId)) : undefined;
      const credit = creditId ? (touched.get(creditId) ?? accounts.get(creditId)) : undefined;
      if (!debit || !credit) throw accountNotFound();
      if (pending && (debit.id !== pending.debitAccountId || credit.id !== pending.creditAccountId)) {
        throw ledgerError('PENDING_TRANSFER_HAS_DIFFERENT_ACCOUNTS', 'A resolution names the accounts of its pending transfer (or none).');
      }
      if (debit.currency !== credit.currency) throw ledgerError('ACCOUNTS_MUST_HAVE_THE_SAME_CURRENCY', 'Both accounts of a transfer are in one currency.');
      const amount = kind === 'void_pending' ? pending!.amount : (input.amount ?? pending?.amount ?? 0n);
      const row: TransferRow = {
        id: input.id,
        debitAccountId: debit.id,
        creditAccountId: credit.id,
        amount,
        currency: debit.currency,
        code: input.code,
        kind,
        pendingId: input.pendingId ?? null,
        timeoutAt: kind === 'pending' && input.timeoutSeconds ? new Date(now.getTime() + input.timeoutSeconds * 1000) : null,
        batchId,
        metadata: input.metadata ?? {},
      };
      const before = existing.get(input.id);
      if (before) {
        if (!sameTransfer(before, row))
          throw ledgerError('EXISTS_WITH_DIFFERENT_FIELDS', `Transfer ${input.id} exists with different fields.`, { id: input.id });
        outcomes.push({ id: input.id, result: 'exists', transfer: before });
        continue;
      }
      if (pending) {
        if (pending.resolved || resolvedInBatch.has(pending.id))
          throw ledgerError('PENDING_TRANSFER_ALREADY_RESOLVED', `Pending transfer ${pending.id} was already posted, voided or expired.`);
        if (pending.timeoutAt && pending.timeoutAt.getTime() <= now.getTime())
          throw ledgerError('PENDING_TRANSFER_EXPIRED', `Pending transfer ${pending.id} has expired.`);
        resolvedInBatch.add(pending.id);
      }
      const { debit: d, credit: cr } = postLeg(debit, credit, kind, amount, pending?.amount);
      touched.set(d.id, d);
      touched.set(cr.id, cr);
      created.push(row);
      outcomes.push({ id: input.id, result: 'created', transfer: row });
    }
    if (limits && created.length) checkLimits(limits, created, accounts, outflows);
    if (!created.length) return outcomes;
    const decisions = postingDecisions(created, new Map(inputs.map((t) => [t.id, t])), new Map([...accounts, ...touched]));
    await this.store.applyTransfers(c, [...touched.values()], created);
    await this.recordDecisions(c, decisions, batchId);
    return outcomes;
  }

  /**
   * In the batch's transaction, after its transfers: each reversal checked against its original and
   * recorded once (a second one: 409, the batch rolled back), each platform credit's two-person decision.
   */
  private async recordDecisions(c: pg.PoolClient, decisions: PostingDecisions, batchId: string): Promise<void> {
    for (const [originalId, legs] of [...decisions.reversals].sort(([a], [b]) => (a < b ? -1 : 1))) {
      checkReversal(await this.store.lockedTransfer(c, originalId), originalId, legs);
      if (!(await this.store.insertReversal(c, originalId, legs[0].id, batchId))) throw alreadyReversed(originalId, await this.store.reversalOf(originalId, c));
    }
    if (decisions.credits.length) await this.store.insertPlatformCredits(c, decisions.credits);
  }

  /** The first transfer of the reversal of `originalId`, if it was reversed. */
  reversalOf(originalId: string): Promise<string | undefined> {
    return UUID.test(originalId) ? this.store.reversalOf(originalId) : Promise.resolve(undefined);
  }

  /** Releases pending transfers past their timeout (an `expire_pending` resolution each). */
  async expirePending(limit = 500): Promise<number> {
    const due = await this.store.expiredPending(this.clock(), limit);
    let expired = 0;
    for (const p of due) {
      try {
        await inTransaction(this.store.pool, async (c) => {
          const locked = await this.store.lockPending(c, [p.id]);
          const pending = locked.get(p.id);
          if (!pending || pending.resolved) return;
          const { accounts } = await this.store.lockForTransfers(c, [pending.debitAccountId, pending.creditAccountId].sort(), []);
          const d = { ...accounts.get(pending.debitAccountId)! };
          const cr = { ...accounts.get(pending.creditAccountId)! };
          d.debitsPending -= pending.amount;
          cr.creditsPending -= pending.amount;
          await this.store.applyTransfers(
            c,
            [d, cr],
            [{ ...pending, id: randomUUID(), kind: 'expire_pending', pendingId: pending.id, timeoutAt: null, batchId: randomUUID(), metadata: {} }],
          );
          expired++;
        });
      } catch (err) {
        if (!RETRYABLE.has((err as { code?: string }).code ?? '')) throw err;
      }
    }
    return expired;
  }

  async balances(userId: string): Promise<Balance[]> {
    return (await this.store.walletsOf(userId)).map(balanceOf);
  }

  transfer(id: string) {
    return this.store.transfer(id);
  }

  /**
   * A page of a user's statement (newest first): `cursor` is the opaque `nextCursor` of the previous
   * page; `from` inclusive, `to` exclusive; `direction` and `status` keep only the lines that have them
   * (applied in SQL, so a page is full and the cursor stays within the filters).
   */
  /**
   * A statement's head for the period [from, to): per account of the user (or the one given), the posted
   * balance at `from` (opening), what came in and went out within the period, and the balance at `to` (closing).
   * Pending holds are not in it (they are not money moved yet); the lines are `statement` with the same period.
   */
  async periodStatement(userId: string, q: { accountId?: string; from: Date; to: Date }): Promise<PeriodBalance[]> {
    if (q.accountId !== undefined && !UUID.test(q.accountId)) throw badInput('account is an account id.', { account: ['An account id (uuid).'] });
    if (Number.isNaN(q.from.getTime()) || Number.isNaN(q.to.getTime())) throw badInput('from and to are dates.', { from: ['An ISO 8601 date.'] });
    if (q.from.getTime() >= q.to.getTime()) throw badInput('from is before to.', { from: ['Before to.'] });
    const rows = await this.store.periodSums({ userId, accountId: q.accountId, from: q.from, to: q.to });
    return rows.map((r) => ({
      accountId: r.accountId,
      currency: r.currency,
      opening: toMoney(r.opening, r.currency),
      moneyIn: toMoney(r.credits, r.currency),
      moneyOut: toMoney(r.debits, r.currency),
      closing: toMoney(r.opening + r.credits - r.debits, r.currency),
    }));
  }

  async statement(
    userId: string,
    q: { accountId?: string; from?: Date; to?: Date; cursor?: string; limit: number; direction?: string; status?: string },
  ): Promise<{ lines: StatementLine[]; nextCursor: string | null }> {
    if (q.accountId !== undefined && !UUID.test(q.accountId)) throw badInput('account is an account id.', { account: ['An account id (uuid).'] });
    if (q.direction !== undefined && !isOneOf(STATEMENT_DIRECTIONS, q.direction))
      throw badInput(`direction is one of ${STATEMENT_DIRECTIONS.join(', ')}.`, { direction: [`One of ${STATEMENT_DIRECTIONS.join(', ')}.`] });
    if (q.status !== undefined && !isOneOf(STATEMENT_STATUSES, q.status))
      throw badInput(`status is one of ${STATEMENT_STATUSES.join(', ')}.`, { status: [`One of ${STATEMENT_STATUSES.join(', ')}.`] });
    if (q.from && q.to && q.from.getTime() > q.to.getTime()) throw badInput('from is before to.', { from: ['Before to.'] });
    let before: string | undefined;
    if (q.cursor) {
      before = Buffer.from(q.cursor, 'base64url').toString('utf8');
      if (!UUID.test(before)) throw badInput('The cursor is not one this list gave.', { cursor: ['Invalid cursor.'] });
    }
    const limit = Math.min(Math.max(q.limit, 1), 200);
    const rows = await this.store.statement({
      userId,
      accountId: q.accountId,
      from: q.from,
      to: q.to,
      before,
      limit: limit + 1,
      direction: q.direction as StatementLine['direction'] | undefined,
      status: q.status as StatementLine['status'] | undefined,
    });
    const page = rows.slice(0, limit).map(statementLine);
    return { lines: page, nextCursor: rows.length > limit ? Buffer.from(page[page.length - 1].id).toString('base64url') : null };
  }

  /** One transfer of the user's accounts as a receipt; 404 when it is not theirs (or not a movement of its own). */
  async receipt(userId: string, transferId: string): Promise<StatementLine> {
    if (!UUID.test(transferId)) throw new DomainError('NOT_FOUND', 404, 'No such transaction.');
    const [row] = await this.store.statement({ userId, transferId, limit: 1 });
    if (!row) throw new DomainError('NOT_FOUND', 404, 'No such transaction.');
    return statementLine(row);
  }

  /** Per currency: the totals that must be zero and the accounts whose counters drifted (reconciliation). */
  async reconciliation(): Promise<Reconciliation[]> {
    return (await this.store.reconciliation()).map((r) => ({ ...r, balanced: r.posted === 0n && r.pending === 0n && r.driftingAccounts === 0 }));
  }

  /**
   * Voids a pending transfer that waits too long for its provider (admin console); once: a second void
   * answers `exists`. The void and its audit entry (`audit`, in the same transaction) commit together.
   */
  async voidPending(pendingId: string, reason: string, audit?: (c: pg.PoolClient, outcome: TransferOutcome) => Promise<unknown>): Promise<TransferOutcome> {
    if (!UUID.test(pendingId)) throw ledgerError('PENDING_TRANSFER_NOT_FOUND', `No pending transfer ${pendingId}.`);
    const input: TransferInput = { id: derivedUuid('admin_void', pendingId), pendingId, kind: 'void_pending', code: 'admin_void', metadata: { reason } };
    return inTransaction(this.store.pool, async (c) => {
      const [outcome] = await this.applyInTransaction(c, [input]);
      if (audit && outcome.result === 'created') await audit(c, outcome);
      return outcome;
    });
  }
}

export type Reconciliation = ReconciliationRow & { balanced: boolean };

const isOneOf = (values: readonly string[], value: string) => values.includes(value);

/** A line of a statement, as its owner sees it; `description`, `note` and `counterparty` come from the transfer's metadata. */
export interface StatementLine {
  id: string;
  accountId: string;
  direction: (typeof STATEMENT_DIRECTIONS)[number];
  code: string;
  /** posted, pending, voided or expired */
  status: (typeof STATEMENT_STATUSES)[number];
  amount: Money;
  description: string | null;
  note: string | null;
  counterparty: string | null;
  createdAt: Date;
  settledAt: Date | null;
}

const text = (v: unknown) => (typeof v === 'string' && v.length ? v : null);

function statementLine(r: StatementRow): StatementLine {
  const status =
    r.kind === 'single'
      ? 'posted'
      : r.resolution === 'post_pending'
        ? 'posted'
        : r.resolution === 'void_pending'
          ? 'voided'
          : r.resolution
            ? 'expired'
            : 'pending';
  const amount = r.resolution === 'post_pending' && r.resolvedAmount !== null ? r.resolvedAmount : r.amount;
  const counterparty = r.direction === 'debit' ? r.metadata.to : r.metadata.from;
  return {
    id: r.id,
    accountId: r.accountId,
    direction: r.direction,
    code: r.code,
    status,
    amount: toMoney(amount, r.currency),
    description: text(r.metadata.description),
    note: text(r.metadata.note),
    counterparty: text(counterparty),
    createdAt: r.createdAt,
    settledAt: r.kind === 'single' ? r.createdAt : r.resolvedAt,
  };
}

export function balanceOf(a: AccountRow): Balance {
  const posted = a.creditsPosted - a.debitsPosted;
  return {
    currency: a.currency,
    accountId: a.id,
    posted: toMoney(posted, a.currency),
    pending: toMoney(posted + a.creditsPending - a.debitsPending, a.currency),
    available: toMoney(posted - a.debitsPending, a.currency),
  };
}

function sameTransfer(a: TransferRow, b: TransferRow): boolean {
  return (
    a.debitAccountId === b.debitAccountId &&
    a.creditAccountId === b.creditAccountId &&
    a.amount === b.amount &&
    a.code === b.code &&
    a.kind === b.kind &&
    (a.pendingId ?? null) === (b.pendingId ?? null)
  );
}

/**
 * One leg posted on its two accounts: what the debit account gives, the credit account takes, in the
 * same phase (pending or posted); resolving a pending leg (`pendingAmount`) first takes its amount out
 * of both accounts' pending sums. Refused: a post above its pending amount, sums beyond what the ledger
 * holds, a user's account going below zero (INSUFFICIENT_FUNDS), an account credited beyond its debits
 * where it must not be. Returns new rows; the arguments are not changed.
 */
export function postLeg(
  debit: AccountRow,
  credit: AccountRow,
  kind: TransferKind,
  amount: bigint,
  pendingAmount?: bigint,
): { debit: AccountRow; credit: AccountRow } {
  const d = { ...debit };
  const cr = { ...credit };
  if (pendingAmount !== undefined) {
    if (amount > pendingAmount) throw ledgerError('EXCEEDS_PENDING_TRANSFER_AMOUNT', 'A post cannot exceed its pending amount.');
    d.debitsPending -= pendingAmount;
    cr.creditsPending -= pendingAmount;
  }
  if (kind === 'single' || kind === 'post_pending') {
    d.debitsPosted += amount;
    cr.creditsPosted += amount;
  } else if (kind === 'pending') {
    d.debitsPending += amount;
    cr.creditsPending += amount;
  }
  if (!withinTotals(d)) throw amountTooLarge(d.id);
  if (!withinTotals(cr)) throw amountTooLarge(cr.id);
  if (d.debitsMustNotExceedCredits && d.debitsPosted + d.debitsPending > d.creditsPosted) {
    throw ledgerError('INSUFFICIENT_FUNDS', 'Insufficient funds: the transfer would take the account below zero.', { accountId: d.id });
  }
  if (cr.creditsMustNotExceedDebits && cr.creditsPosted + cr.creditsPending > cr.debitsPosted) {
    throw ledgerError('EXCEEDS_DEBITS', 'The transfer would credit the account beyond its debits.', { accountId: cr.id });
  }
  return { debit: d, credit: cr };
}

/** The batch's outflows from the user's accounts, against their level's limits and the day's outflows so far (the user's lock is held). */
export function checkLimits(limits: LimitsInput, created: TransferRow[], accounts: Map<string, AccountRow>, today: Map<string, bigint>): void {
  const own = (a: AccountRow | undefined) => a?.ownerType === 'user' && a.ownerId === limits.userId;
  const batch = new Map<string, bigint>();
  for (const t of created) {
    // posting or voiding an earlier pending transfer moves nothing new: the pending one counted
    if (t.kind !== 'single' && t.kind !== 'pending') continue;
    if (!own(accounts.get(t.debitAccountId)) || own(accounts.get(t.creditAccountId))) continue;
    batch.set(t.currency, (batch.get(t.currency) ?? 0n) + t.amount);
  }
  if (batch.size) refuseOverLimits(limits, batch, today);
}

/** 403 LIMIT_EXCEEDED when a batch's outflows per currency pass the per-transaction limit, or the daily one with `today`'s. */
function refuseOverLimits(limits: LimitsInput, batch: Map<string, bigint>, today: Map<string, bigint>): void {
  for (const [currency, amount] of batch) {
    const limit = limitFor(limits.kycLevel, currency);
    if (amount > limit.perTransaction) throw limitExceeded('transaction', limit.perTransaction, limit.perTransaction, currency, limits.kycLevel);
  }
  for (const [currency, amount] of batch) {
    const limit = limitFor(limits.kycLevel, currency);
    const spent = today.get(currency) ?? 0n;
    if (spent + amount > limit.daily) throw limitExceeded('daily', limit.daily, limit.daily - spent, currency, limits.kycLevel);
  }
}

const limitTables = new Map<KycLevel, { currency: string; perTransaction: bigint; daily: bigint }[]>();

/** A level's limits in every currency that has them (computed once). */
function limitTable(level: KycLevel) {
  let table = limitTables.get(level);
  if (!table) {
    table = Object.keys(LIMIT_SCALE).map((currency) => ({ currency, ...limitFor(level, currency) }));
    limitTables.set(level, table);
  }
  return table;
}

/** An account key checked (owner type, owner id, code, currency) with its balance rule: a user's account may not go below zero. */
function accountFields(k: AccountKey) {
  if (k.ownerType !== 'user' && k.ownerType !== 'system') throw badInput('ownerType is user or system.', { ownerType: ['user or system'] });
  if (!UUID.test(k.ownerId)) throw badInput('ownerId is a uuid.', { ownerId: ['A uuid.'] });
  if (!CODE.test(k.code)) throw badInput('An account code is 1–64 characters of a-z, 0-9, "_" or ":".', { code: ['a-z, 0-9, _ or :'] });
  exponentOf(k.currency);
  return {
    ownerType: k.ownerType as AccountRow['ownerType'],
    ownerId: k.ownerId.toLowerCase(),
    currency: k.currency,
    code: k.code,
    debitsMustNotExceedCredits: k.ownerType === 'user',
  };
}

const keyOf = (k: AccountKey) => `${k.ownerType}|${k.ownerId.toLowerCase()}|${k.currency}|${k.code}`;

/** The transfer with its keyed accounts that `idOf` knows named by id instead. */
function named(t: TransferInput, idOf: (k: AccountKey) => string | undefined): TransferInput {
  const debit = t.debitAccount && idOf(t.debitAccount);
  const credit = t.creditAccount && idOf(t.creditAccount);
  if (!debit && !credit) return t;
  const out = { ...t };
  if (debit) {
    out.debitAccountId = debit;
    delete out.debitAccount;
  }
  if (credit) {
    out.creditAccountId = credit;
    delete out.creditAccount;
  }
  return out;
}

export function validateBatch(inputs: TransferInput[]): void {
  if (!inputs.length || inputs.length > 8190) throw badInput('A batch has 1 to 8,190 transfers.');
  const ids = new Set<string>();
  for (const t of inputs) {
    const kind = t.kind ?? 'single';
    if (!UUID.test(t.id)) throw badInput('A transfer id is a uuid chosen by the client.', { id: [t.id] });
    if (ids.has(t.id)) throw ledgerError('DUPLICATE_ID_IN_BATCH', `Transfer id ${t.id} appears twice in the batch.`);
    ids.add(t.id);
    if (!CODE.test(t.code)) throw badInput('A transfer code is 1–64 characters of a-z, 0-9, "_" or ":".');
    if ((kind === 'post_pending' || kind === 'void_pending') !== (t.pendingId !== undefined)) {
      throw badInput('post_pending and void_pending name their pendingId; other kinds do not.');
    }
    if ((t.debitAccountId && t.debitAccount) || (t.creditAccountId && t.creditAccount))
      throw badInput('An account is named by its id or by its key, not both.');
    if ((kind === 'single' || kind === 'pending') && (!(t.debitAccountId || t.debitAccount) || !(t.creditAccountId || t.creditAccount)))
      throw badInput('A transfer names its debit and credit accounts.');
    for (const k of [t.debitAccount, t.creditAccount]) if (k) accountFields(k);
    if (t.debitAccount && t.creditAccount && keyOf(t.debitAccount) === keyOf(t.creditAccount))
      throw ledgerError('ACCOUNTS_MUST_BE_DIFFERENT', 'Debit and credit accounts must differ.');
    if ((kind === 'single' || kind === 'pending') && (t.amount === undefined || t.amount <= 0n))
      throw ledgerError('AMOUNT_MUST_BE_POSITIVE', 'The amount must be positive.');
    if (kind === 'post_pending' && t.amount !== undefined && t.amount <= 0n) throw ledgerError('AMOUNT_MUST_BE_POSITIVE', 'The amount must be positive.');
    if (t.amount !== undefined && t.amount > MAX_AMOUNT_MINOR) throw amountTooLarge();
    if (t.debitAccountId && t.debitAccountId === t.creditAccountId) throw ledgerError('ACCOUNTS_MUST_BE_DIFFERENT', 'Debit and credit accounts must differ.');
    if (kind === 'pending' && t.timeoutSeconds !== undefined && (!Number.isInteger(t.timeoutSeconds) || t.timeoutSeconds < 1)) {
      throw badInput('timeoutSeconds is a positive whole number.');
    }
  }
}
