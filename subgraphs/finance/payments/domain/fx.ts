import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import { DomainError, badInput } from '../../../../lib/errors';
import type { IdempotentRequests } from '../../../../lib/idempotency';
import { FIAT_CURRENCIES, exponentOf, toMinor, toMoney, type Money } from '../../kernel/currencies';
import type { NodeGate } from '../../kernel/gate';
import type { PaymentsStore, QuoteRow } from '../store/payments-store';
import { limitsOf, type LedgerClient } from '../../kernel/ledger-client';
import type { RateProvider } from './rates';
import { assertKyc, type NodeUserPrincipal } from './transfers';
import { FX_FEE_BPS, FX_QUOTE_TTL_SECONDS } from '../vocabulary';

/** The fiat currencies the FX desk converts between (crypto goes through swaps). */
export const FX_CURRENCIES = FIAT_CURRENCIES;

export interface Quote {
  id: string;
  source: Money;
  target: Money;
  fee: Money;
  rate: string;
  expiresAt: Date;
  createdAt: Date;
}

export interface Conversion {
  id: string;
  quoteId: string;
  status: 'completed';
  source: Money;
  target: Money;
  fee: Money;
  rate: string;
  createdAt: Date;
}

/** The subgraphs whose service principal may read the node's rates: rewards value points and purchases at them. */
export const RATE_READERS: readonly string[] = ['commerce'];

export const quoteNotFound = () => new DomainError('QUOTE_NOT_FOUND', 404, 'No such quote.');
export const quoteExpired = () => new DomainError('QUOTE_EXPIRED', 422, 'The quote has expired; ask for a new one.');
export const quoteUsed = () => new DomainError('QUOTE_USED', 409, 'The quote was converted already (by another request).');

const toQuote = (q: QuoteRow): Quote => ({
  id: q.id,
  source: toMoney(q.sourceAmount, q.sourceCurrency),
  target: toMoney(q.targetAmount, q.targetCurrency),
  fee: toMoney(q.fee, q.sourceCurrency),
  rate: q.rate,
  expiresAt: q.expiresAt,
  createdAt: q.createdAt,
});

/**
 * Decimals exact for any amount times any rate: decimal.js rounds to 20 significant digits by default,
 * which can round a product just below a whole minor unit up to it before the floor below.
 */
const Exact = Decimal.clone({ precision: 64 });

/**
 * What a quote of `source` (minor units) converts to at `rate` (units of target per unit of source): the
 * fee (FX_FEE_BPS of the source, rounded up to the minor unit: the desk never charges less than its
 * rate) and the target (the rest at the rate, rounded down: the desk never pays out more than it took).
 * Both roundings favour the node, so converting there and back never yields more than was sent.
 */
export function quoteAmounts(source: bigint, sourceCurrency: string, targetCurrency: string, rate: string): { fee: bigint; target: bigint } {
  const fee = (source * FX_FEE_BPS + 9_999n) / 10_000n;
  const scale = new Exact(10).pow(exponentOf(targetCurrency) - exponentOf(sourceCurrency));
  const target = BigInt(new Exact((source - fee).toString()).mul(rate).mul(scale).floor().toFixed(0));
  return { fee, target };
}

/**
 * FX conversion between a user's currency accounts, by quote (Wise's quote → transfer): a quote fixes
 * the rate, the fee and both amounts for FX_QUOTE_TTL_SECONDS; converting it is one linked ledger batch
 * (the source amount less the fee to the FX desk, the fee to revenue, the target amount from the desk
 * to the user), held to the user's KYC limits. A quote converts once.
 */
export class FxDesk {
  constructor(
    private readonly ledger: LedgerClient,
    private readonly store: PaymentsStore,
    private readonly rates: RateProvider,
    private readonly gate: NodeGate,
    private readonly requests: IdempotentRequests,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async quote(user: NodeUserPrincipal, input: { sourceCurrency: string; targetCurrency: string; sourceAmount: string }): Promise<Quote> {
    for (const [field, c] of [
      ['source_currency', input.sourceCurrency],
      ['target_currency', input.targetCurrency],
    ] as const) {
      if (!FX_CURRENCIES.includes(c)) throw badInput(`${c} is not converted here.`, { [field]: [`One of ${FX_CURRENCIES.join(', ')}.`] });
    }
    if (input.sourceCurrency === input.targetCurrency) throw badInput('Source and target currencies differ.', { target_currency: ['Another currency.'] });
    const source = toMinor(input.sourceAmount, input.sourceCurrency, 'source_amount');
    if (source <= 0n) throw badInput('source_amount must be positive.', { source_amount: ['A positive amount.'] });
    await assertKyc(this.gate, user);
    const rate = await this.rates.rate(input.sourceCurrency, input.targetCurrency);
    const { fee, target } = quoteAmounts(source, input.sourceCurrency, input.targetCurrency, rate);
    if (target <= 0n) throw badInput('The amount is too small to convert.', { source_amount: ['A larger amount.'] });
    const now = this.clock();
    const row = await this.store.insertQuote({
      id: randomUUID(),
      userId: user.userId,
      sourceCurrency: input.sourceCurrency,
      targetCurrency: input.targetCurrency,
      sourceAmount: source,
      fee,
      targetAmount: target,
      rate,
      provider: this.rates.name,
      expiresAt: new Date(now.getTime() + FX_QUOTE_TTL_SECONDS * 1000),
    });
    return toQuote(row);
  }

  /**
   * The node's own rate between two currencies of the desk: units of `target` per unit of `source`
   * (a decimal string; 1 for a currency to itself), the rate the quotes convert at before their fee.
   */
  async rate(source: string, target: string): Promise<string> {
    for (const [field, c] of [
      ['source', source],
      ['target', target],
    ] as const) {
      if (!FX_CURRENCIES.includes(c)) throw badInput(`${c} is not converted here.`, { [field]: [`One of ${FX_CURRENCIES.join(', ')}.`] });
    }
    return source === target ? '1' : this.rates.rate(source, target);
  }

  async convert(user: NodeUserPrincipal, quoteId: string, idempotencyKey: string | null | undefined): Promise<Conversion> {
    if (!/^[0-9a-f-]{36}$/i.test(quoteId)) throw quoteNotFound();
    await assertKyc(this.gate, user);
    return this.requests.run({ owner: `user:${user.userId}`, key: idempotencyKey, operation: 'createFxConversion', input: { quoteId } }, async (ids) => {
      const claim = ids('claim');
      const found = await this.store.quote(quoteId, user.userId);
      if (!found) throw quoteNotFound();
      // a request resuming its own claim (a retry after a crash) may finish past the expiry
      if (found.conversionKey !== claim) {
        if (found.conversionKey !== null) throw quoteUsed();
        if (found.expiresAt.getTime() <= this.clock().getTime()) throw quoteExpired();
      }
      const q = await this.store.claimQuote(quoteId, user.userId, claim);
      if (!q) throw quoteUsed();
      try {
        const [from, desk, revenue, deskTarget, to] = await Promise.all([
          this.ledger.wallet(user.userId, q.sourceCurrency),
          this.ledger.system(q.sourceCurrency, 'fx_desk'),
          this.ledger.system(q.sourceCurrency, 'fx_revenue'),
          this.ledger.system(q.targetCurrency, 'fx_desk'),
          this.ledger.wallet(user.userId, q.targetCurrency),
        ]);
        const description = `Conversion ${q.sourceCurrency} → ${q.targetCurrency}`;
        const metadata = { quoteId: q.id, description, rate: q.rate };
        const legs = [
          {
            id: ids('sell'),
            debitAccountId: from,
            creditAccountId: desk,
            amount: toMoney(q.sourceAmount - q.fee, q.sourceCurrency).amount,
            code: 'fx_sell',
            metadata,
          },
          ...(q.fee > 0n
            ? [
                {
                  id: ids('fee'),
                  debitAccountId: from,
                  creditAccountId: revenue,
                  amount: toMoney(q.fee, q.sourceCurrency).amount,
                  code: 'fx_fee',
                  metadata: { ...metadata, description: 'Conversion fee' },
                },
              ]
            : []),
          {
            id: ids('buy'),
            debitAccountId: deskTarget,
            creditAccountId: to,
            amount: toMoney(q.targetAmount, q.targetCurrency).amount,
            code: 'fx_buy',
            metadata,
          },
        ];
        const outcomes = await this.ledger.transfers(legs, limitsOf(user));
        const at = new Date(outcomes[0].transfer.createdAt);
        await this.store.markConverted(q.id, at);
        return { ...toQuote(q), id: ids('sell'), quoteId: q.id, status: 'completed' as const, createdAt: at };
      } catch (err) {
        // refused (funds, a limit): the quote is free again for another try before it expires
        if (err instanceof DomainError) await this.store.releaseQuote(q.id, claim);
        throw err;
      }
    });
  }
}
