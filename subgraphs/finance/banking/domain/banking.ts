import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import { isValidPhoneNumber, parsePhoneNumberWithError } from 'libphonenumber-js';
import { z } from 'zod';
import { DomainError, badInput, notFound } from '../../../../lib/errors';
import { derivedUuid, type IdempotentRequests } from '../../../../lib/idempotency';
import { LEDGER_TOTAL_MAX, exponentOf, toMinor, toMoney } from '../../kernel/currencies';
import type { PrincipalOf } from '../../../../lib/principal';
import { adminActor, type AuditOutbox } from '../../kernel/audit';
import { kycLevelReaches, kycRequiredError, moduleDisabledError, requiredKycLevel, type FinanceModule, type NodeGate } from '../../kernel/gate';
import type { BankingStore, MovementKind, MovementRow, VirtualAccountRow } from '../store/banking-store';
import { isValidNuban, normaliseIban } from './account-numbers';
import { limitsOf, type LedgerClient } from '../../kernel/ledger-client';
import {
  MOBILE_MONEY_CURRENCIES,
  PROVIDER_MODULES,
  ProviderError,
  RAILS,
  RAMP_ASSETS,
  RAMP_FIAT_CURRENCIES,
  railOfCurrency,
  deliverSandboxEvent,
  type BankingProviders,
  type Rail,
  type SandboxCallbacks,
  type WebhookProvider,
} from './providers';
import { verifyWebhook } from './webhooks';
import { DEPOSIT_WINDOW_HOURS, checkDepositLimit, clearingNearsMaximum } from './deposits';
import type { Logger } from '../../../../lib/logger';

type NodeUser = PrincipalOf<'node-user'>;

export const NIGERIAN_RAIL_CURRENCY = 'NGN';

export interface BankTransferInput {
  amount: string;
  currency: string;
  bankCode: string;
  accountNumber: string;
  accountName?: string | null;
  narration?: string | null;
}

export interface MobileMoneyInput {
  amount: string;
  currency: string;
  phoneNumber: string;
}

export interface RampInput {
  /** on: fiat → crypto (amount in the fiat currency); off: crypto → fiat (amount in the asset). */
  direction: string;
  fiatCurrency: string;
  asset: string;
  amount: string;
}

export type WebhookOutcome = 'processed' | 'duplicate' | 'ignored';

/** The envelope every banking webhook carries: a unique event id, a type, and the provider's data. */
const eventEnvelope = z.object({ id: z.string().min(1).max(255), type: z.string().min(1).max(100), data: z.record(z.string(), z.unknown()) });
const creditData = z.object({
  account_number: z.string().min(1),
  amount: z.string(),
  currency: z.string(),
  transaction_id: z.string().min(1).max(255),
  sender_name: z.string().max(200).optional(),
});
const transferOutcomeData = z.object({ reference: z.string().uuid(), reason: z.string().max(500).optional() });
/** MTN MoMo's callback body: externalId is our reference; status SUCCESSFUL | FAILED (PENDING: nothing to do yet). */
const momoData = z.object({ externalId: z.string().uuid(), status: z.enum(['PENDING', 'SUCCESSFUL', 'FAILED']), reason: z.string().max(500).optional() });

/** The providers whose movements of a kind can be: inbound credits arrive on either rail's accounts. */
const PROVIDERS_OF_KIND: Record<MovementKind, readonly WebhookProvider[]> = {
  inbound_credit: ['iban', 'nuban'],
  bank_transfer: ['nuban'],
  mobile_money_deposit: ['momo'],
  mobile_money_withdrawal: ['momo'],
  ramp_on: ['ramp'],
  ramp_off: ['ramp'],
};

const MOVEMENT_CODES: Record<MovementKind, string> = {
  inbound_credit: 'banking_inbound_credit',
  bank_transfer: 'banking_bank_transfer',
  mobile_money_deposit: 'mobile_money_deposit',
  mobile_money_withdrawal: 'mobile_money_withdrawal',
  ramp_on: 'fiat_ramp_on',
  ramp_off: 'fiat_ramp_off',
};

/** What a user brings in: counted against their deposit limits (pending and posted). */
const DEPOSIT_KINDS: MovementKind[] = ['mobile_money_deposit', 'inbound_credit'];

export interface BankingOptions {
  /** The sandbox's callbacks while the providers are the offline sandbox (undefined: a real provider). */
  sandbox?: SandboxCallbacks;
  /** A pending deposit expires after this many minutes (BANKING_DEPOSIT_EXPIRY_MINUTES). */
  depositExpiryMinutes: number;
  logger?: Logger;
}

/** The system account where a rail's money enters and leaves the ledger (it may go negative), e.g. `banking:iban`. */
const railClearing = (rail: string) => `banking:${rail}`;

/**
 * Virtual accounts, inbound credits, outbound bank transfers and mobile money: the lifecycle of each
 * movement here, the money in the ledger (pending → posted | voided), the external parties behind
 * `BankingProviders`.
 */
export class Banking {
  constructor(
    private readonly store: BankingStore,
    private readonly ledger: LedgerClient,
    private readonly providers: BankingProviders,
    private readonly gate: NodeGate,
    private readonly idempotency: IdempotentRequests,
    /** Asked at each webhook (the environment, else the admin console's record). */
    private readonly webhookSecret: () => Promise<string | undefined>,
    private readonly options: BankingOptions = { depositExpiryMinutes: 60 },
    /** Operator decisions (a stuck movement voided), audited in their transaction. */
    private readonly audit?: AuditOutbox,
  ) {}

  /** Whether the providers are the offline sandbox (its accounts can receive simulated transfers). */
  get sandbox(): boolean {
    return this.options.sandbox !== undefined;
  }

  private readonly depositQueues = new Map<string, Promise<unknown>>();

  /**
   * Runs `work` (the deposit's hold and record) once the user's deposit limits admit `minor` more in
   * `currency` (the clearing account watched after): under the (user, currency) lock, one user's deposits
   * wait for each other (in this process, then across processes) and never for another user's.
   */
  private async underDepositLimits<T>(user: NodeUser, minor: bigint, currency: string, provider: string, work: () => Promise<T>): Promise<T> {
    const key = `${user.userId}:${currency}`;
    const previous = this.depositQueues.get(key) ?? Promise.resolve();
    const run = previous
      .catch(() => undefined)
      .then(() =>
        this.store.underDepositLock(user.userId, currency, DEPOSIT_KINDS, DEPOSIT_WINDOW_HOURS, async (deposited) => {
          checkDepositLimit(user.kycLevel, currency, minor, deposited);
          const done = await work();
          await this.watchClearing(currency, provider).catch((err: unknown) => this.options.logger?.warn({ err }, 'banking: clearing account not read'));
          return done;
        }),
      );
    this.depositQueues.set(key, run);
    try {
      return await run;
    } finally {
      if (this.depositQueues.get(key) === run) this.depositQueues.delete(key);
    }
  }

  /** The clearing accounts that passed the alert level (account, currency → the sum's share of the ledger's maximum, in %). */
  readonly clearingAlerts = new Map<string, number>();

  /** After a deposit is held: an alert (error log, `clearingAlerts`) when the clearing account nears the ledger's maximum. */
  private async watchClearing(currency: string, provider: string): Promise<void> {
    const state = await this.ledger.accountState(await this.ledger.system(currency, railClearing(provider)));
    const largest = [state.debitsPosted, state.debitsPending, state.creditsPosted, state.creditsPending].reduce((a, b) => (a > b ? a : b));
    if (!clearingNearsMaximum(largest)) return void this.clearingAlerts.delete(`${railClearing(provider)} ${currency}`);
    const percent = Number((largest * 100n) / LEDGER_TOTAL_MAX);
    this.clearingAlerts.set(`${railClearing(provider)} ${currency}`, percent);
    this.options.logger?.error(
      { account: railClearing(provider), currency, sum: largest.toString(), maximum: LEDGER_TOTAL_MAX.toString(), percent },
      "banking: a clearing account nears the ledger's maximum; settle it before deposits in this currency are refused",
    );
  }

  /** Pending deposits the provider never confirmed, older than the expiry: voided, their amounts released. */
  async expireStaleDeposits(olderThanMinutes = this.options.depositExpiryMinutes, limit = 500): Promise<number> {
    const due = await this.store.pendingOlderThan(['mobile_money_deposit'], olderThanMinutes, limit);
    for (const m of due) await this.settle(m.id, 'voided', `Expired: the provider did not confirm the deposit within ${olderThanMinutes} minutes.`);
    return due.length;
  }

  /**
   * The sandbox's simulated incoming transfer (Wise's "simulate incoming payment"): the rail's
   * `credit.received` event for the account, signed and delivered to the webhook receiver as the rail
   * sends it. A user's own account (held to their deposit limits), or any account for an administrator
   * (`by.operator`, audited). 409 NOT_SANDBOX with a real provider.
   */
  async simulateIncomingTransfer(by: NodeUser | { operator: string }, accountId: string, amount: string, senderName?: string | null): Promise<MovementRow> {
    const user = 'userId' in by ? by : null;
    const sandbox = this.options.sandbox;
    if (!sandbox) throw new DomainError('NOT_SANDBOX', 409, 'Only the sandbox provider can simulate an incoming transfer.');
    // the amount's form first (every rail currency has the decimals of EUR): a hostile amount is 400 whatever the account
    positive(amount, 'EUR');
    const account = await this.store.virtualAccount(accountId);
    if (!account || (user && account.userId !== user.userId)) throw notFound('No such account.');
    const rail = account.rail as Rail;
    const minor = positive(amount, account.currency);
    if (user) await this.admit(user, RAILS[rail].module);
    const transactionId = randomUUID();
    const deliver = () =>
      deliverSandboxEvent(sandbox, rail, {
        id: `sandbox-credit-${transactionId}`,
        type: 'credit.received',
        data: {
          account_number: account.accountNumber,
          amount: toMoney(minor, account.currency).amount,
          currency: account.currency,
          transaction_id: transactionId,
          sender_name: senderName || 'Sandbox sender',
        },
      });
    if (user) await this.underDepositLimits(user, minor, account.currency, rail, deliver);
    else {
      await deliver();
      await this.watchClearing(account.currency, rail);
    }
    const movement = (await this.store.movement(derivedUuid('banking-credit', rail, transactionId)))!;
    if (!user && 'operator' in by)
      await this.audit?.recordAlone(adminActor(by.operator), 'movement.simulated', {
        movement: movement.id,
        account: account.id,
        user: account.userId,
        amount: toMoney(minor, account.currency).amount,
        currency: account.currency,
      });
    return movement;
  }

  /** A module's toggle (for operations that serve several modules) and the node's KYC rule. */
  private async admit(user: NodeUser, module: FinanceModule | undefined): Promise<void> {
    const state = await this.gate.state();
    if (module && !state.modules[module]) throw moduleDisabledError(module);
    const required = requiredKycLevel(state);
    if (!kycLevelReaches(user.kycLevel, required)) throw kycRequiredError(required, user.kycLevel);
  }

  async openVirtualAccount(user: NodeUser, currency: string, key: string | null | undefined): Promise<{ account: VirtualAccountRow; created: boolean }> {
    const rail = railOfCurrency(currency);
    if (!rail) {
      const offered = Object.values(RAILS).flatMap((r) => r.currencies);
      throw badInput(`No rail holds ${currency} accounts.`, { currency: [`One of ${offered.join(', ')}.`] });
    }
    await this.admit(user, RAILS[rail].module);
    return this.idempotency.run({ owner: `user:${user.userId}`, key, operation: 'openVirtualAccount', input: { currency } }, async (ids) => {
      const existing = await this.store.virtualAccountOf(user.userId, currency);
      if (existing) throw new DomainError('VIRTUAL_ACCOUNT_EXISTS', 409, `You already hold a ${currency} account.`, { accountId: existing.id });
      // the provider reference is derived from the user and currency: a retried issue is the same account
      const reference = derivedUuid('virtual-account', user.userId, currency);
      const issued = await this.callProvider(() => this.providers.rails[rail].issueAccount({ reference, currency, holderName: user.username }));
      return this.store.insertVirtualAccount({
        id: ids('account'),
        userId: user.userId,
        rail,
        currency,
        accountNumber: issued.accountNumber,
        bankCode: issued.bankCode,
        bankName: issued.bankName,
        holderName: user.username,
        providerReference: issued.providerReference,
      });
    });
  }

  /** The caller's accounts on the rails whose module is on (403 module_disabled when neither is). */
  async virtualAccounts(user: NodeUser): Promise<VirtualAccountRow[]> {
    const providers = await this.readable(['iban', 'nuban']);
    return (await this.store.virtualAccountsOf(user.userId)).filter((a) => providers.includes(a.rail as WebhookProvider));
  }

  /**
   * Reads obey the toggles as writes do: of the providers a read covers, those whose module is on;
   * 403 MODULE_DISABLED when none is (a list that serves two modules, the virtual accounts of both
   * rails, shows the rows of the module still on).
   */
  private async readable(providers: readonly WebhookProvider[]): Promise<WebhookProvider[]> {
    if (!providers.length) return [];
    const { modules } = await this.gate.state();
    const on = providers.filter((p) => modules[PROVIDER_MODULES[p]]);
    if (!on.length) throw moduleDisabledError(PROVIDER_MODULES[providers[0]]);
    return on;
  }

  /** A bank transfer out on the Nigerian rail: held (pending) now, posted or voided by the rail's callback. */
  async sendBankTransfer(user: NodeUser, input: BankTransferInput, key: string | null | undefined): Promise<MovementRow> {
    if (input.currency !== NIGERIAN_RAIL_CURRENCY)
      throw badInput(`Bank transfers are in ${NIGERIAN_RAIL_CURRENCY}.`, { currency: [`${NIGERIAN_RAIL_CURRENCY}.`] });
    const minor = positive(input.amount, input.currency);
    if (!isValidNuban(input.bankCode, input.accountNumber)) {
      throw badInput('The account number is not a valid NUBAN at this bank (check digit).', { account_number: ['Not a valid NUBAN for the bank code.'] });
    }
    await this.admit(user, undefined);
    return this.idempotency.run({ owner: `user:${user.userId}`, key, operation: 'sendBankTransfer', input }, async (ids) => {
      const movement = await this.hold(user, 'bank_transfer', 'nuban', minor, input.currency, ids, {
        bank_code: input.bankCode,
        account_number: input.accountNumber,
        account_name: input.accountName ?? null,
        narration: input.narration ?? '',
      });
      return this.dispatch(movement, () =>
        this.providers.rails.nuban.sendTransfer({
          reference: movement.id,
          amount: input.amount,
          currency: input.currency,
          bankCode: input.bankCode,
          accountNumber: input.accountNumber,
          narration: input.narration ?? '',
        }),
      );
    });
  }

  /** Mobile money in (MoMo request to pay) or out (MoMo transfer), held as a pending transfer until the callback. */
  async mobileMoney(user: NodeUser, direction: 'deposit' | 'withdrawal', input: MobileMoneyInput, key: string | null | undefined): Promise<MovementRow> {
    if (!(MOBILE_MONEY_CURRENCIES as readonly string[]).includes(input.currency)) {
      throw badInput(`Mobile money is in ${MOBILE_MONEY_CURRENCIES.join(', ')}.`, { currency: [`One of ${MOBILE_MONEY_CURRENCIES.join(', ')}.`] });
    }
    const minor = positive(input.amount, input.currency);
    const msisdn = e164(input.phoneNumber);
    await this.admit(user, undefined);
    const kind: MovementKind = direction === 'deposit' ? 'mobile_money_deposit' : 'mobile_money_withdrawal';
    return this.idempotency.run({ owner: `user:${user.userId}`, key, operation: kind, input }, async (ids) => {
      const held = () => this.hold(user, kind, 'momo', minor, input.currency, ids, { phone_number: msisdn });
      // a deposit is held to the user's deposit limits (a retry of one already recorded is not counted twice)
      const movement =
        direction === 'deposit'
          ? ((await this.store.movement(ids('movement'))) ?? (await this.underDepositLimits(user, minor, input.currency, 'momo', held)))
          : await held();
      const request = { referenceId: movement.id, amount: input.amount, currency: input.currency, msisdn, note: kind.replace(/_/g, ' ') };
      return this.dispatch(movement, () =>
        direction === 'deposit' ? this.providers.mobileMoney.requestToPay(request) : this.providers.mobileMoney.transfer(request),
      );
    });
  }

  /**
   * A fiat on/off-ramp at the ramp's quoted price: both legs (the currency given, the currency
   * received) held as one linked batch of pending transfers, posted or voided together by the ramp's callback.
   */
  async ramp(user: NodeUser, input: RampInput, key: string | null | undefined): Promise<MovementRow> {
    if (input.direction !== 'on' && input.direction !== 'off')
      throw badInput('direction is on (fiat → crypto) or off (crypto → fiat).', { direction: ['on or off.'] });
    if (!(RAMP_FIAT_CURRENCIES as readonly string[]).includes(input.fiatCurrency)) {
      throw badInput(`The ramp trades against ${RAMP_FIAT_CURRENCIES.join(', ')}.`, { fiat_currency: [`One of ${RAMP_FIAT_CURRENCIES.join(', ')}.`] });
    }
    if (!(RAMP_ASSETS as readonly string[]).includes(input.asset))
      throw badInput(`The ramp trades ${RAMP_ASSETS.join(', ')}.`, { asset: [`One of ${RAMP_ASSETS.join(', ')}.`] });
    const on = input.direction === 'on';
    const [source, target] = on ? [input.fiatCurrency, input.asset] : [input.asset, input.fiatCurrency];
    const minor = positive(input.amount, source);
    await this.admit(user, undefined);
    return this.idempotency.run({ owner: `user:${user.userId}`, key, operation: 'ramp', input }, async (ids) => {
      const { price } = await this.callProvider(() => this.providers.ramp.quote({ fiatCurrency: input.fiatCurrency, asset: input.asset }));
      // what the user receives, rounded down to the target's minor unit (never more than the price gives)
      const exact = on ? new Decimal(input.amount).div(price) : new Decimal(input.amount).mul(price);
      const received = exact.toDecimalPlaces(exponentOf(target), Decimal.ROUND_DOWN).toFixed(exponentOf(target));
      const counterMinor = toMinor(received, target);
      if (counterMinor <= 0n) throw badInput('The amount is too small to convert at this price.', { amount: ['Too small to convert.'] });
      const [sourceWallet, sourceClearing, targetWallet, targetClearing] = await Promise.all([
        this.ledger.wallet(user.userId, source),
        this.ledger.system(source, railClearing('ramp')),
        this.ledger.wallet(user.userId, target),
        this.ledger.system(target, railClearing('ramp')),
      ]);
      const movementId = ids('movement');
      const [legId, counterLegId] = [ids('hold'), ids('counter-hold')];
      const kind: MovementKind = on ? 'ramp_on' : 'ramp_off';
      await this.ledger.transfers(
        [
          {
            id: legId,
            debitAccountId: sourceWallet,
            creditAccountId: sourceClearing,
            amount: input.amount,
            code: MOVEMENT_CODES[kind],
            kind: 'pending',
            metadata: { movementId },
          },
          {
            id: counterLegId,
            debitAccountId: targetClearing,
            creditAccountId: targetWallet,
            amount: received,
            code: MOVEMENT_CODES[kind],
            kind: 'pending',
            metadata: { movementId },
          },
        ],
        limitsOf(user),
      );
      const { movement } = await this.store.insertMovement({
        id: movementId,
        userId: user.userId,
        kind,
        provider: 'ramp',
        status: 'pending',
        amount: minor,
        currency: source,
        ledgerTransferId: legId,
        counterTransferId: counterLegId,
        counterAmount: counterMinor,
        counterCurrency: target,
        providerReference: null,
        counterparty: { price, price_currency: input.fiatCurrency, asset: input.asset },
      });
      return this.dispatch(movement, () =>
        this.providers.ramp.execute({
          reference: movement.id,
          direction: on ? 'on' : 'off',
          fiatCurrency: input.fiatCurrency,
          fiatAmount: on ? input.amount : received,
          asset: input.asset,
          assetAmount: on ? received : input.amount,
        }),
      );
    });
  }

  /** One of the caller's movements; 403 MODULE_DISABLED while its module is off. */
  async movement(user: NodeUser, id: string): Promise<MovementRow> {
    const m = await this.store.movement(id);
    if (!m || m.userId !== user.userId) throw notFound('No such transfer.');
    await this.readable([m.provider as WebhookProvider]);
    return m;
  }

  /** The caller's movements of `kinds` through providers whose module is on (403 MODULE_DISABLED when none is). */
  async movementsOf(user: NodeUser, kinds: MovementKind[], limit: number, after?: { at: Date; id: string }): Promise<MovementRow[]> {
    const providers = await this.readable([...new Set(kinds.flatMap((k) => PROVIDERS_OF_KIND[k]))]);
    return this.store.movementsOf(user.userId, kinds, providers, limit, after);
  }

  /**
   * The pending ledger transfer of a movement, then its record (in this order: a refused hold, e.g.
   * insufficient funds, leaves no record; a crash in between is finished by the retry, whose ids are the same).
   */
  private async hold(
    user: NodeUser,
    kind: MovementKind,
    provider: string,
    minor: bigint,
    currency: string,
    ids: (leg: string) => string,
    counterparty: Record<string, unknown>,
  ): Promise<MovementRow> {
    const [wallet, clearing] = await Promise.all([this.ledger.wallet(user.userId, currency), this.ledger.system(currency, railClearing(provider))]);
    const inbound = kind === 'mobile_money_deposit';
    const movementId = ids('movement');
    const holdId = ids('hold');
    await this.ledger.transfers(
      [
        {
          id: holdId,
          debitAccountId: inbound ? clearing : wallet,
          creditAccountId: inbound ? wallet : clearing,
          amount: toMoney(minor, currency).amount,
          code: MOVEMENT_CODES[kind],
          kind: 'pending',
          metadata: { movementId },
        },
      ],
      limitsOf(user),
    );
    const { movement } = await this.store.insertMovement({
      id: movementId,
      userId: user.userId,
      kind,
      provider,
      status: 'pending',
      amount: minor,
      currency,
      ledgerTransferId: holdId,
      providerReference: null,
      counterparty,
    });
    return movement;
  }

  /** Hands a held movement to its provider; a refusal releases the hold at once. */
  private async dispatch(movement: MovementRow, send: () => Promise<{ providerReference?: string } | object>): Promise<MovementRow> {
    try {
      const accepted = (await send()) as { providerReference?: string };
      if (accepted.providerReference) await this.store.setProviderReference(movement.id, accepted.providerReference);
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      await this.settle(movement.id, 'voided', `The provider refused: ${err.message}`);
    }
    return (await this.store.movement(movement.id))!;
  }

  /**
   * Decides a pending movement once (pending → posted | voided in our table), then applies that
   * decision to the ledger with an id derived from the movement: repeated or crashed-and-redelivered
   * decisions apply once; a contradicting later one (a stale event out of order) changes nothing.
   */
  async settle(id: string, status: 'posted' | 'voided', reason: string | null): Promise<'settled' | 'already_final' | 'unknown'> {
    const current = await this.store.movement(id);
    if (!current) return 'unknown';
    const decided = current.status === 'pending' ? ((await this.store.settle(id, status, reason)) ?? (await this.store.movement(id))!) : current;
    if (decided.status !== status) return 'already_final';
    // every leg of the movement (a ramp has two), in one linked batch
    const legs = [decided.ledgerTransferId, ...(decided.counterTransferId ? [decided.counterTransferId] : [])];
    await this.ledger.transfers(
      legs.map((pendingId, leg) => ({
        id: derivedUuid('banking-settle', decided.id, status, String(leg)),
        pendingId,
        code: MOVEMENT_CODES[decided.kind],
        kind: status === 'posted' ? 'post_pending' : 'void_pending',
        metadata: { movementId: decided.id },
      })),
    );
    return current.status === 'pending' ? 'settled' : 'already_final';
  }

  /**
   * An administrator releases a stuck pending movement (the provider never answered): the movement is
   * voided and the decision audited in one transaction, then its ledger legs are voided (idempotent).
   */
  async voidStuck(id: string, by: string): Promise<MovementRow> {
    const current = await this.store.movement(id);
    if (!current) throw notFound('No such transfer.');
    const notPending = (status: string) => new DomainError('TRANSFER_NOT_PENDING', 409, `The transfer is ${status} already.`);
    if (current.status !== 'pending') throw notPending(current.status);
    const voided = await this.store.transaction(async (db) => {
      const row = await this.store.settle(id, 'voided', 'Voided by an administrator.', db);
      if (row)
        await this.audit?.record(db, adminActor(by), 'movement.voided', {
          movement: id,
          kind: row.kind,
          user: row.userId,
          amount: String(row.amount),
          currency: row.currency,
        });
      return row;
    });
    if (!voided) throw notPending((await this.store.movement(id))!.status);
    await this.settle(id, 'voided', 'Voided by an administrator.');
    return (await this.store.movement(id))!;
  }

  /** A provider's signed webhook: verified, recorded once per event id, then applied (exactly once). */
  async receiveWebhook(provider: WebhookProvider, payload: string, timestamp: string | null, signature: string | null): Promise<WebhookOutcome> {
    const secret = await this.webhookSecret();
    if (!secret)
      throw new DomainError(
        'IMPROPERLY_CONFIGURED',
        503,
        'BANKING_WEBHOOK_SECRET is not set and the admin console holds no banking/webhook_secret: banking webhooks cannot be verified.',
      );
    verifyWebhook(secret, payload, timestamp, signature);
    let json: unknown;
    try {
      json = JSON.parse(payload);
    } catch {
      throw badInput('The webhook body is not JSON.');
    }
    const parsed = eventEnvelope.safeParse(json);
    if (!parsed.success) throw badInput('The webhook body is not a banking event {id, type, data}.');
    const event = parsed.data;
    const fresh = await this.store.recordEvent(provider, event.id, event.type, json as Record<string, unknown>);
    // a replayed event id whose first delivery finished changes nothing
    if (!fresh && (await this.store.eventProcessed(provider, event.id))) return 'duplicate';
    const outcome = await this.applyEvent(provider, event.type, event.data);
    await this.store.markEventProcessed(provider, event.id, outcome);
    return outcome === 'ignored' || outcome === 'unknown' ? 'ignored' : 'processed';
  }

  private async applyEvent(provider: WebhookProvider, type: string, data: Record<string, unknown>): Promise<string> {
    if (provider === 'momo') {
      const d = momoData.safeParse(data);
      if (!d.success) throw badInput('A mobile money callback carries externalId and status.');
      if (d.data.status === 'PENDING') return 'ignored';
      return this.settleFor(
        provider,
        d.data.externalId,
        d.data.status === 'SUCCESSFUL' ? 'posted' : 'voided',
        d.data.reason ?? (d.data.status === 'FAILED' ? 'FAILED' : null),
      );
    }
    if (type === 'credit.received') return provider === 'ramp' ? 'ignored' : this.credit(provider, data);
    const outcomes: Record<string, 'posted' | 'voided'> = {
      'transfer.succeeded': 'posted',
      'transfer.failed': 'voided',
      'ramp.completed': 'posted',
      'ramp.failed': 'voided',
    };
    const outcome = outcomes[type];
    // a rail reports its transfers, the ramp its orders; neither settles the other's
    if (outcome && (provider === 'ramp') === type.startsWith('ramp.')) {
      const d = transferOutcomeData.safeParse(data);
      if (!d.success) throw badInput('A transfer event carries the reference of our transfer.');
      return this.settleFor(provider, d.data.reference, outcome, d.data.reason ?? null);
    }
    return 'ignored';
  }

  /** A provider settles only the movements it carries. */
  private async settleFor(provider: WebhookProvider, id: string, status: 'posted' | 'voided', reason: string | null): Promise<string> {
    const movement = await this.store.movement(id);
    if (!movement || movement.provider !== provider) return 'unknown';
    return this.settle(id, status, reason);
  }

  /** An inbound credit to a virtual account: one ledger transfer whose id is derived from the rail's transaction id. */
  private async credit(rail: Rail, data: Record<string, unknown>): Promise<string> {
    const d = creditData.safeParse(data);
    if (!d.success) throw badInput('A credit carries account_number, amount, currency and transaction_id.');
    const accountNumber = rail === 'iban' ? normaliseIban(d.data.account_number) : d.data.account_number;
    const account = accountNumber ? await this.store.virtualAccountByNumber(rail, accountNumber) : undefined;
    if (!account) return 'unknown';
    if (account.currency !== d.data.currency) throw badInput(`The account holds ${account.currency}, not ${d.data.currency}.`);
    const minor = positive(d.data.amount, d.data.currency);
    const transferId = derivedUuid('banking-credit', rail, d.data.transaction_id);
    const [wallet, clearing] = await Promise.all([
      this.ledger.wallet(account.userId, account.currency),
      this.ledger.system(account.currency, railClearing(rail)),
    ]);
    await this.ledger.transfers([
      {
        id: transferId,
        debitAccountId: clearing,
        creditAccountId: wallet,
        amount: toMoney(minor, account.currency).amount,
        code: MOVEMENT_CODES.inbound_credit,
        kind: 'single',
        metadata: { virtualAccountId: account.id, transactionId: d.data.transaction_id },
      },
    ]);
    await this.store.insertMovement({
      id: transferId,
      userId: account.userId,
      kind: 'inbound_credit',
      provider: rail,
      status: 'posted',
      amount: minor,
      currency: account.currency,
      ledgerTransferId: transferId,
      providerReference: d.data.transaction_id,
      counterparty: { sender_name: d.data.sender_name ?? null, account_number: account.accountNumber },
    });
    return 'credited';
  }

  private async callProvider<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof ProviderError) throw new DomainError('PROVIDER_UNAVAILABLE', 502, 'The banking provider did not accept the request; retry later.');
      throw err;
    }
  }
}

function positive(amount: string, currency: string): bigint {
  const minor = toMinor(amount, currency);
  if (minor <= 0n) throw badInput('amount must be positive.', { amount: ['Greater than zero.'] });
  return minor;
}

/** A phone number in E.164 (+233…), or 400: the number must be dialable, in international form. */
function e164(phone: string): string {
  if (!isValidPhoneNumber(phone))
    throw badInput('phone_number is not a valid international phone number (E.164, e.g. +233241234567).', {
      phone_number: ['A valid phone number in international form.'],
    });
  return parsePhoneNumberWithError(phone).number;
}
