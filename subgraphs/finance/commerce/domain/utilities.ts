import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { badInput } from '../../../../lib/errors';
import type { IdempotentRequests } from '../../../../lib/idempotency';
import { toMinor } from '../../kernel/currencies';
import type { CommerceStore, UtilityRow } from '../store/commerce-store';
import { BILLERS, OPERATORS, type UtilityProvider } from './catalogue';
import { pageOf, pageRequest } from './common';

export interface AirtimeInput {
  operator: string;
  phoneNumber: string;
  amount: string;
  currency: string;
}
export interface DataInput {
  operator: string;
  phoneNumber: string;
  planId: string;
}
export interface BillInput {
  biller: string;
  accountNumber: string;
  amount: string;
  currency: string;
}

const field = (name: string, message: string) => badInput(message, { [name]: [message] });

/**
 * Airtime, data and bill payments: validated against the catalogue (operator and plan, the
 * operator's country for the phone number, the biller's account format, amount limits) and stored
 * `pending_integration`. Nothing is dispatched and the wallet is not debited (the contract's known
 * gap): `provider` stays null until a UtilityProvider is wired, and then dispatch starts here.
 */
export class Utilities {
  readonly provider: UtilityProvider | null = null;

  constructor(
    private readonly store: CommerceStore,
    private readonly idempotency: IdempotentRequests,
  ) {}

  catalogue() {
    return { operators: OPERATORS, billers: BILLERS };
  }

  airtime(userId: string, input: AirtimeInput, key: string | null | undefined): Promise<UtilityRow> {
    return this.idempotency.run({ owner: `user:${userId}`, key, operation: 'requestAirtime', input }, async () => {
      const operator = OPERATORS.find((o) => o.code === input.operator);
      if (!operator) throw field('operator', `Unknown operator; one of ${OPERATORS.map((o) => o.code).join(', ')}.`);
      const phone = phoneOf(input.phoneNumber, operator.country);
      const amount = amountWithin(input.amount, input.currency, operator.currency, operator.minAmount, operator.maxAmount);
      return this.store.insertUtilityRequest({
        userId,
        kind: 'airtime',
        status: 'pending_integration',
        providerCode: operator.code,
        country: operator.country,
        phoneNumber: phone,
        accountNumber: null,
        planId: null,
        amount,
        currency: operator.currency,
      });
    });
  }

  data(userId: string, input: DataInput, key: string | null | undefined): Promise<UtilityRow> {
    return this.idempotency.run({ owner: `user:${userId}`, key, operation: 'requestDataBundle', input }, async () => {
      const operator = OPERATORS.find((o) => o.code === input.operator);
      if (!operator) throw field('operator', `Unknown operator; one of ${OPERATORS.map((o) => o.code).join(', ')}.`);
      const plan = operator.plans.find((p) => p.id === input.planId);
      if (!plan) throw field('plan_id', `Unknown plan of ${operator.name}; one of ${operator.plans.map((p) => p.id).join(', ')}.`);
      const phone = phoneOf(input.phoneNumber, operator.country);
      return this.store.insertUtilityRequest({
        userId,
        kind: 'data',
        status: 'pending_integration',
        providerCode: operator.code,
        country: operator.country,
        phoneNumber: phone,
        accountNumber: null,
        planId: plan.id,
        amount: toMinor(plan.price, operator.currency),
        currency: operator.currency,
      });
    });
  }

  bill(userId: string, input: BillInput, key: string | null | undefined): Promise<UtilityRow> {
    return this.idempotency.run({ owner: `user:${userId}`, key, operation: 'requestBillPayment', input }, async () => {
      const biller = BILLERS.find((b) => b.code === input.biller);
      if (!biller) throw field('biller', `Unknown biller; one of ${BILLERS.map((b) => b.code).join(', ')}.`);
      const account = (input.accountNumber ?? '').trim();
      if (!biller.accountFormat.test(account)) throw field('account_number', `${biller.name} expects ${biller.accountFormatHint}.`);
      const amount = amountWithin(input.amount, input.currency, biller.currency, biller.minAmount, biller.maxAmount);
      return this.store.insertUtilityRequest({
        userId,
        kind: 'bill',
        status: 'pending_integration',
        providerCode: biller.code,
        country: biller.country,
        phoneNumber: null,
        accountNumber: account,
        planId: null,
        amount,
        currency: biller.currency,
      });
    });
  }

  async requests(opts: { userId?: string; limit?: number | null; cursor?: string | null }) {
    const page = pageRequest(opts.limit, opts.cursor);
    return pageOf(await this.store.utilityRequests({ userId: opts.userId, limit: page.limit + 1, position: page.position }), page.limit);
  }
}

/** A valid number of the operator's country, in E.164. */
function phoneOf(raw: string, country: CountryCode): string {
  const phone = parsePhoneNumberFromString(raw ?? '', country);
  if (!phone || !phone.isValid()) throw field('phone_number', 'Not a valid phone number.');
  if (phone.country !== country) throw field('phone_number', `The operator serves ${country} numbers only.`);
  return phone.number;
}

function amountWithin(amount: string, currency: string, expected: string, min: string, max: string): bigint {
  if (currency !== expected) throw field('currency', `This provider takes ${expected}.`);
  const minor = toMinor(amount ?? '', expected);
  if (minor < toMinor(min, expected) || minor > toMinor(max, expected)) throw field('amount', `Between ${min} and ${max} ${expected}.`);
  return minor;
}
