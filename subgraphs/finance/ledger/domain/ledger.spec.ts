import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { DomainError } from '../../../../lib/errors';
import { LEDGER_TOTAL_MAX, MAX_AMOUNT_MINOR } from '../../kernel/currencies';
import type { AccountRow, TransferRow } from '../store/ledger-store';
import { balanceOf, checkLimits, postLeg, validateBatch, type TransferInput, type TransferKind } from './ledger';
import { limitFor } from './limits';

/**
 * The ledger's posting rules as plain functions (ledger.ts): a batch's shape (validateBatch), one leg
 * posted on its two accounts (postLeg: balanced, bounded, no user below zero), a user's spending
 * limits over a batch (checkLimits) and the balances read from an account's sums (balanceOf). The
 * rules of reversals and platform credits are in posting-rules.spec.ts.
 */
const account = (ownerType: 'user' | 'system', sums: Partial<AccountRow> = {}, ownerId = randomUUID()): AccountRow => ({
  id: randomUUID(),
  ownerType,
  ownerId,
  currency: 'EUR',
  code: 'wallet',
  debitsPending: 0n,
  debitsPosted: 0n,
  creditsPending: 0n,
  creditsPosted: 0n,
  debitsMustNotExceedCredits: ownerType === 'user',
  creditsMustNotExceedDebits: false,
  ...sums,
});
const outcome = (f: () => unknown) => {
  try {
    f();
    return 'accepted';
  } catch (err) {
    return `${(err as DomainError).status} ${(err as DomainError).code}`;
  }
};
/** credits − debits, posted and pending: what an account holds in each phase. */
const net = (a: AccountRow) => ({ posted: a.creditsPosted - a.debitsPosted, pending: a.creditsPending - a.debitsPending });

describe('a batch (validateBatch)', () => {
  const debitAccountId = randomUUID();
  const creditAccountId = randomUUID();
  const ok: TransferInput = { id: randomUUID(), debitAccountId, creditAccountId, amount: 100n, code: 'transfer' };
  const key = { ownerType: 'user', ownerId: randomUUID(), currency: 'EUR', code: 'wallet' };
  const cases: [string, TransferInput[], string][] = [
    ['a well-formed transfer', [ok], 'accepted'],
    ['an empty batch', [], '400 BAD_USER_INPUT'],
    ['an id that is not a uuid', [{ ...ok, id: 'seven' }], '400 BAD_USER_INPUT'],
    ['one id twice', [ok, { ...ok }], '422 DUPLICATE_ID_IN_BATCH'],
    ['a code outside a-z 0-9 _ :', [{ ...ok, code: 'Transfer!' }], '400 BAD_USER_INPUT'],
    ['a zero amount', [{ ...ok, amount: 0n }], '422 AMOUNT_MUST_BE_POSITIVE'],
    ['a negative amount', [{ ...ok, amount: -1n }], '422 AMOUNT_MUST_BE_POSITIVE'],
    ['no amount', [{ ...ok, amount: undefined }], '422 AMOUNT_MUST_BE_POSITIVE'],
    ['more than the ledger moves at once', [{ ...ok, amount: MAX_AMOUNT_MINOR + 1n }], '400 AMOUNT_TOO_LARGE'],
    ['the most the ledger moves at once', [{ ...ok, amount: MAX_AMOUNT_MINOR }], 'accepted'],
    ['one account on both sides', [{ ...ok, creditAccountId: debitAccountId }], '422 ACCOUNTS_MUST_BE_DIFFERENT'],
    [
      'one account key on both sides',
      [{ ...ok, debitAccountId: undefined, creditAccountId: undefined, debitAccount: key, creditAccount: key }],
      '422 ACCOUNTS_MUST_BE_DIFFERENT',
    ],
    ['an account by id and by key', [{ ...ok, debitAccount: key }], '400 BAD_USER_INPUT'],
    ['no credit account', [{ ...ok, creditAccountId: undefined }], '400 BAD_USER_INPUT'],
    ['a post that names no pending transfer', [{ ...ok, kind: 'post_pending' }], '400 BAD_USER_INPUT'],
    ['a single transfer naming a pending one', [{ ...ok, pendingId: randomUUID() }], '400 BAD_USER_INPUT'],
    ['a void of a pending transfer', [{ id: randomUUID(), kind: 'void_pending', pendingId: randomUUID(), code: 'void' }], 'accepted'],
    ['a post of zero', [{ id: randomUUID(), kind: 'post_pending', pendingId: randomUUID(), code: 'post', amount: 0n }], '422 AMOUNT_MUST_BE_POSITIVE'],
    ['a pending transfer timing out after 0 s', [{ ...ok, kind: 'pending', timeoutSeconds: 0 }], '400 BAD_USER_INPUT'],
    ['a pending transfer timing out after 1.5 s', [{ ...ok, kind: 'pending', timeoutSeconds: 1.5 }], '400 BAD_USER_INPUT'],
    ['an account key of an unknown owner type', [{ ...ok, debitAccountId: undefined, debitAccount: { ...key, ownerType: 'bank' } }], '400 BAD_USER_INPUT'],
  ];
  it.each(cases)('%s: %s', (_name, batch, expected) => {
    expect(outcome(() => validateBatch(batch))).toBe(expected);
  });
});

describe('one leg (postLeg)', () => {
  const kinds: TransferKind[] = ['single', 'pending'];

  it('keeps the ledger balanced: what the debit account gives the credit account takes, in the same phase', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: MAX_AMOUNT_MINOR }),
        fc.constantFrom(...kinds),
        fc.bigInt({ min: 0n, max: MAX_AMOUNT_MINOR }),
        (amount, kind, funds) => {
          const debit = account('system');
          const credit = account('user', { creditsPosted: funds, debitsPosted: 0n });
          const after = postLeg(debit, credit, kind, amount);
          const [d, c] = [net(after.debit), net(after.credit)];
          expect(d.posted + c.posted).toBe(net(debit).posted + net(credit).posted);
          expect(d.pending + c.pending).toBe(net(debit).pending + net(credit).pending);
          expect(kind === 'single' ? c.posted - net(credit).posted : c.pending - net(credit).pending).toBe(amount);
          // the arguments are left as they were
          expect(debit.debitsPosted + debit.debitsPending).toBe(0n);
        },
      ),
    );
  });

  it('resolving a pending leg moves its amount out of pending; a post takes at most the pending amount, a void nothing', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 9n }), fc.bigInt({ min: 1n, max: 10n ** 9n }), (held, posted) => {
        const payer = account('user', { creditsPosted: held });
        const payee = account('system');
        const pending = postLeg(payer, payee, 'pending', held);
        const post = () => postLeg(pending.debit, pending.credit, 'post_pending', posted, held);
        if (posted > held) return expect(outcome(post)).toBe('422 EXCEEDS_PENDING_TRANSFER_AMOUNT');
        const after = post();
        expect([after.debit.debitsPending, after.credit.creditsPending]).toEqual([0n, 0n]);
        expect([after.debit.debitsPosted, after.credit.creditsPosted]).toEqual([posted, posted]);
        const voided = postLeg(pending.debit, pending.credit, 'void_pending', held, held);
        expect([net(voided.debit), net(voided.credit)]).toEqual([net(payer), net(payee)]);
      }),
    );
  });

  it("never takes a user's account below zero, pending debits included; a system account may go below", () => {
    const user = account('user', { creditsPosted: 500n, debitsPending: 200n });
    const other = account('system');
    expect(outcome(() => postLeg(user, other, 'single', 300n))).toBe('accepted');
    expect(outcome(() => postLeg(user, other, 'single', 301n))).toBe('422 INSUFFICIENT_FUNDS');
    expect(outcome(() => postLeg(user, other, 'pending', 301n))).toBe('422 INSUFFICIENT_FUNDS');
    expect(outcome(() => postLeg(account('system'), user, 'single', 10n ** 12n))).toBe('accepted');
  });

  it('refuses an account credited beyond its debits where that is its rule, and sums beyond what the ledger holds', () => {
    const capped = account('system', { creditsMustNotExceedDebits: true, debitsPosted: 100n });
    expect(outcome(() => postLeg(account('system'), capped, 'single', 100n))).toBe('accepted');
    expect(outcome(() => postLeg(account('system'), capped, 'single', 101n))).toBe('422 EXCEEDS_DEBITS');
    const full = account('system', { creditsPosted: LEDGER_TOTAL_MAX });
    expect(outcome(() => postLeg(account('system'), full, 'single', 1n))).toBe('422 AMOUNT_TOO_LARGE');
  });
});

describe("a user's limits over a batch (checkLimits)", () => {
  const userId = randomUUID();
  const wallet = account('user', {}, userId);
  const savings = { ...account('user', {}, userId), code: 'savings' };
  const shop = account('system');
  const accounts = new Map([wallet, savings, shop].map((a) => [a.id, a]));
  const leg = (from: AccountRow, to: AccountRow, amount: bigint, kind: TransferKind = 'single', currency = 'EUR'): TransferRow => ({
    id: randomUUID(),
    debitAccountId: from.id,
    creditAccountId: to.id,
    amount,
    currency,
    code: 'transfer',
    kind,
    pendingId: null,
    timeoutAt: null,
    batchId: randomUUID(),
    metadata: {},
  });
  const basic = limitFor('basic', 'EUR');
  const check = (legs: TransferRow[], today = new Map<string, bigint>()) => outcome(() => checkLimits({ userId, kycLevel: 'basic' }, legs, accounts, today));

  it("counts a batch's outflows per currency against the per-transaction limit", () => {
    expect(check([leg(wallet, shop, basic.perTransaction)])).toBe('accepted');
    expect(check([leg(wallet, shop, basic.perTransaction + 1n)])).toBe('403 LIMIT_EXCEEDED');
    // two legs of one batch are one transaction
    expect(check([leg(wallet, shop, basic.perTransaction), leg(wallet, shop, 1n, 'pending')])).toBe('403 LIMIT_EXCEEDED');
  });

  it('counts the day so far against the daily limit, and says what remains', () => {
    const today = new Map([['EUR', basic.daily - 10n]]);
    expect(check([leg(wallet, shop, 10n)], today)).toBe('accepted');
    try {
      checkLimits({ userId, kycLevel: 'basic' }, [leg(wallet, shop, 11n)], accounts, today);
      throw new Error('accepted');
    } catch (err) {
      expect((err as DomainError).extensions.details).toMatchObject({ period: 'daily', remaining: '0.10', currency: 'EUR' });
    }
  });

  it("does not count moves between the user's own accounts, money coming in, or resolving an earlier pending transfer", () => {
    const huge = basic.daily * 2n;
    expect(check([leg(wallet, savings, huge), leg(shop, wallet, huge), leg(wallet, shop, huge, 'post_pending'), leg(wallet, shop, huge, 'void_pending')])).toBe(
      'accepted',
    );
  });
});

describe('balances (balanceOf)', () => {
  it('posted is credits − debits posted; available leaves out pending debits; pending adds pending credits too', () => {
    const sum = fc.bigInt({ min: 0n, max: 10n ** 12n });
    fc.assert(
      fc.property(sum, sum, sum, sum, (creditsPosted, debitsPosted, creditsPending, debitsPending) => {
        const b = balanceOf(account('user', { creditsPosted, debitsPosted, creditsPending, debitsPending }));
        const minor = (m: { amount: string }) => BigInt(m.amount.replace('.', ''));
        expect(minor(b.posted)).toBe(creditsPosted - debitsPosted);
        expect(minor(b.available)).toBe(creditsPosted - debitsPosted - debitsPending);
        expect(minor(b.pending) - minor(b.available)).toBe(creditsPending);
      }),
    );
  });
});
