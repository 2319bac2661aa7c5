import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import { badInput, DomainError, notFound } from '../../../../lib/errors';
import { derivedUuid, type IdempotentRequests } from '../../../../lib/idempotency';
import { LedgerClient, limitsOf, type LedgerTransferInput } from '../../kernel/ledger-client';
import { toMinor, toMoney } from '../../kernel/currencies';
import { keysetPage, keysetResults } from '../../../../lib/pagination';
import { requireSecret, verifyWebhook } from '../../kernel/provider-http';
import type { KycLevel } from '../../kernel/kyc';
import { kycLevelReaches, kycRequiredError, requiredKycLevel, type NodeGate } from '../../kernel/gate';
import type { AddressRow, CryptoStore, DepositRow, QuoteRow, SwapRow } from '../store/crypto-store';
import { CRYPTO_ASSETS, type AddressView, type CryptoAsset, type DepositView, type QuoteView, type SwapView } from '../vocabulary';
import type { CryptoExchange } from './exchange';

/** The exchange's webhook event types the node handles. */
export const EXCHANGE_EVENTS = ['deposit.confirmed'] as const;

/** Where deposited assets come from on the ledger (the exchange's custody), swaps clear through, and fees go to. */
const CUSTODY = 'crypto:custody';
const CLEARING = 'crypto:clearing';
const REVENUE = 'crypto:revenue';

export const quoteExpired = () => new DomainError('QUOTE_EXPIRED', 422, 'The quote has expired; ask for a new one.');

export interface CryptoUser {
  userId: string;
  kycLevel: KycLevel;
}

export interface ExchangeEvent {
  id?: string;
  type?: string;
  data?: { deposit?: { id?: string; address?: string; asset?: string; amount?: string; tx_hash?: string } };
}

const addressView = (a: AddressRow): AddressView => ({ id: a.id, asset: a.asset, network: a.network, address: a.address, createdAt: a.createdAt });
const depositView =
  (address: string) =>
  (d: DepositRow): DepositView => ({
    id: d.id,
    asset: d.asset,
    amount: toMoney(d.amount, d.asset),
    address,
    txHash: d.txHash,
    status: d.status,
    createdAt: d.createdAt,
    creditedAt: d.creditedAt,
  });
const quoteView = (q: QuoteRow): QuoteView => ({
  id: q.id,
  fromAmount: toMoney(q.fromAmount, q.fromAsset),
  fee: toMoney(q.fee, q.fromAsset),
  toAmount: toMoney(q.toAmount, q.toAsset),
  rate: q.rate,
  expiresAt: q.expiresAt,
  createdAt: q.createdAt,
});
const swapView = (s: SwapRow): SwapView => ({ ...quoteView(s), id: s.swapId, quoteId: s.id, createdAt: s.swappedAt });

function assetOf(value: string, field: string): CryptoAsset {
  if (!(CRYPTO_ASSETS as readonly string[]).includes(value)) throw badInput(`${field} is one of ${CRYPTO_ASSETS.join(', ')}.`, { [field]: [...CRYPTO_ASSETS] });
  return value as CryptoAsset;
}

/**
 * Crypto deposits and swaps: a deposit address per user and asset from the exchange; a confirmed
 * deposit credits the wallet once (custody → wallet, its transfer id derived from the exchange's
 * deposit id); a swap executes a quote (rate, fee, expiry) as one linked ledger batch: asset A from
 * the wallet to the clearing account and the fee to revenue, asset B from clearing to the wallet.
 */
export class CryptoService {
  constructor(
    private readonly store: CryptoStore,
    private readonly exchange: CryptoExchange,
    private readonly ledger: LedgerClient,
    private readonly gate: NodeGate,
    private readonly idempotency: IdempotentRequests,
    private readonly settings: { feeBps: number; quoteTtlSeconds: number },
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The user's deposit address for the asset (created at the exchange on first request). */
  async depositAddress(user: CryptoUser, asset: string): Promise<AddressView> {
    const a = assetOf(asset, 'asset');
    const known = await this.store.address(user.userId, a);
    if (known) return addressView(known);
    const id = derivedUuid('crypto:address', user.userId, a);
    const created = await this.exchange.createDepositAddress({ asset: a, reference: id });
    return addressView(await this.store.insertAddress({ id, userId: user.userId, asset: a, provider: this.exchange.name, ...created }));
  }

  async addresses(user: CryptoUser): Promise<AddressView[]> {
    return (await this.store.addressesOf(user.userId)).map(addressView);
  }

  async deposits(user: CryptoUser, cursor?: string | null, limit?: number | null) {
    const page = keysetPage(cursor, limit);
    const addresses = new Map((await this.store.addressesOf(user.userId)).map((a) => [a.id, a.address]));
    const rows = await this.store.depositsOf(user.userId, page);
    return keysetResults(rows, page, (d) => depositView(addresses.get(d.addressId) ?? '')(d));
  }

  async quote(user: CryptoUser, input: { fromAsset: string; toAsset: string; fromAmount: string }): Promise<QuoteView> {
    const from = assetOf(input.fromAsset, 'fromAsset');
    const to = assetOf(input.toAsset, 'toAsset');
    if (from === to) throw badInput('A swap is between two different assets.', { toAsset: ['Not the asset sold.'] });
    const fromAmount = toMinor(input.fromAmount, from, 'from_amount');
    if (fromAmount <= 0n) throw badInput('fromAmount must be positive.', { fromAmount: ['A positive amount.'] });
    const rate = await this.exchange.rate(from, to);
    // the fee is rounded up to the minor unit, the amount bought down: never more out than in
    const fee = (fromAmount * BigInt(this.settings.feeBps) + 9999n) / 10000n;
    const net = new Decimal(toMoney(fromAmount - fee, from).amount);
    const toAmount = toMinor(net.mul(rate).toDecimalPlaces(8, Decimal.ROUND_DOWN).toFixed(), to);
    if (toAmount <= 0n || fee >= fromAmount) throw badInput('The amount is too small to swap.', { fromAmount: ['Too small to swap.'] });
    const now = this.clock();
    return quoteView(
      await this.store.insertQuote({
        id: randomUUID(),
        userId: user.userId,
        fromAsset: from,
        toAsset: to,
        fromAmount,
        fee,
        toAmount,
        rate,
        expiresAt: new Date(now.getTime() + this.settings.quoteTtlSeconds * 1000),
      }),
    );
  }

  async swap(user: CryptoUser, quoteId: string, idempotencyKey: string | null | undefined): Promise<SwapView> {
    const required = requiredKycLevel(await this.gate.state());
    if (!kycLevelReaches(user.kycLevel, required)) throw kycRequiredError(required, user.kycLevel);
    return this.idempotency.run({ owner: `user:${user.userId}`, key: idempotencyKey, operation: 'swapCrypto', input: { quoteId } }, async () => {
      const q = /^[0-9a-f-]{36}$/i.test(quoteId) ? await this.store.quote(quoteId) : undefined;
      if (!q || q.userId !== user.userId) throw notFound('No such quote.');
      if (q.expiresAt.getTime() <= this.clock().getTime()) throw quoteExpired();
      // the swap's id and its legs' ids come from the quote: a quote executes once, however often it is sent
      const swapId = derivedUuid('crypto:swap', q.id);
      const [walletFrom, clearingFrom, revenueFrom, clearingTo, walletTo] = await Promise.all([
        this.ledger.wallet(user.userId, q.fromAsset),
        this.ledger.system(q.fromAsset, CLEARING),
        this.ledger.system(q.fromAsset, REVENUE),
        this.ledger.system(q.toAsset, CLEARING),
        this.ledger.wallet(user.userId, q.toAsset),
      ]);
      const metadata = { swapId, quoteId: q.id };
      const legs: LedgerTransferInput[] = [
        {
          id: derivedUuid(swapId, 'sell'),
          debitAccountId: walletFrom,
          creditAccountId: clearingFrom,
          amount: toMoney(q.fromAmount - q.fee, q.fromAsset).amount,
          code: 'crypto_swap',
          metadata,
        },
        {
          id: derivedUuid(swapId, 'buy'),
          debitAccountId: clearingTo,
          creditAccountId: walletTo,
          amount: toMoney(q.toAmount, q.toAsset).amount,
          code: 'crypto_swap',
          metadata,
        },
      ];
      if (q.fee > 0n) {
        legs.push({
          id: derivedUuid(swapId, 'fee'),
          debitAccountId: walletFrom,
          creditAccountId: revenueFrom,
          amount: toMoney(q.fee, q.fromAsset).amount,
          code: 'crypto_swap_fee',
          metadata,
        });
      }
      await this.ledger.transfers(legs, limitsOf(user));
      return swapView(await this.store.recordSwap(swapId, q.id, user.userId));
    });
  }

  async swaps(user: CryptoUser, cursor?: string | null, limit?: number | null) {
    const page = keysetPage(cursor, limit);
    return keysetResults(await this.store.swapsOf(user.userId, page), page, swapView);
  }

  /** A signed event of the exchange (the webhook): a confirmed deposit credits its wallet once. */
  async receiveEvent(provider: string, event: ExchangeEvent, signature: string | null | undefined): Promise<DepositView> {
    if (provider !== this.exchange.name) throw notFound(`No crypto exchange "${provider}".`);
    verifyWebhook(await requireSecret(this.exchange.webhookSecret, "The crypto exchange's webhook secret"), event, signature, this.clock());
    if (event.type !== 'deposit.confirmed') throw badInput(`Unknown event type; one of ${EXCHANGE_EVENTS.join(', ')}.`, { type: [...EXCHANGE_EVENTS] });
    const d = event.data?.deposit;
    if (!d?.id || !d.address || !d.asset || typeof d.amount !== 'string') {
      throw badInput('The event names a deposit with id, address, asset and amount.', { data: ['deposit: id, address, asset, amount'] });
    }
    const address = await this.store.addressByValue(this.exchange.name, d.address);
    if (!address) throw notFound('No such deposit address.');
    if (address.asset !== d.asset) throw badInput("The deposit is not in the address's asset.", { asset: [address.asset] });
    const amount = toMinor(d.amount, d.asset);
    if (amount <= 0n) throw badInput('amount must be positive.', { amount: ['A positive amount.'] });
    const row = await this.store.recordDeposit({
      id: derivedUuid('crypto:deposit', this.exchange.name, d.id),
      provider: this.exchange.name,
      providerDepositId: d.id,
      addressId: address.id,
      userId: address.userId,
      asset: d.asset,
      amount,
      txHash: d.tx_hash ?? '',
    });
    if (row.status !== 'credited') {
      const [custody, wallet] = await Promise.all([this.ledger.system(row.asset, CUSTODY), this.ledger.wallet(row.userId, row.asset)]);
      // the first recorded amount is what is credited, whatever a later delivery says
      await this.ledger.transfers([
        {
          id: row.id,
          debitAccountId: custody,
          creditAccountId: wallet,
          amount: toMoney(row.amount, row.asset).amount,
          code: 'crypto_deposit',
          metadata: { depositId: row.id },
        },
      ]);
      return depositView(address.address)(await this.store.markCredited(row.id));
    }
    return depositView(address.address)(row);
  }

  async recentAddresses(limit: number) {
    return (await this.store.allAddresses(limit)).map((a) => ({ ...addressView(a), userId: a.userId }));
  }

  async recentDeposits(limit: number) {
    return (await this.store.allDeposits(limit)).map(depositView(''));
  }

  async recentSwaps(limit: number) {
    return (await this.store.allSwaps(limit)).map(swapView);
  }
}
