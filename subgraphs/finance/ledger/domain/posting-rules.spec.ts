import { randomUUID } from 'node:crypto';
import type { DomainError } from '../../../../lib/errors';
import type { AccountRow, TransferRow } from '../store/ledger-store';
import { PLATFORM_CREDIT_SOURCES, REVERSAL_CODES, checkApproval, checkReversal, postingDecisions } from './posting-rules';

const NIL = '00000000-0000-0000-0000-000000000000';
const account = (ownerType: 'user' | 'system', code: string, ownerId = ownerType === 'user' ? randomUUID() : NIL): AccountRow => ({
  id: randomUUID(),
  ownerType,
  ownerId,
  currency: 'EUR',
  code,
  debitsPending: 0n,
  debitsPosted: 0n,
  creditsPending: 0n,
  creditsPosted: 0n,
  debitsMustNotExceedCredits: ownerType === 'user',
  creditsMustNotExceedDebits: false,
});
const transfer = (debit: AccountRow, credit: AccountRow, amount: bigint, code = 'transfer', kind: TransferRow['kind'] = 'single'): TransferRow => ({
  id: randomUUID(),
  debitAccountId: debit.id,
  creditAccountId: credit.id,
  amount,
  currency: 'EUR',
  code,
  kind,
  pendingId: null,
  timeoutAt: null,
  batchId: randomUUID(),
  metadata: {},
});
const codeOf = (f: () => unknown) => {
  try {
    f();
    return 'accepted';
  } catch (err) {
    return `${(err as DomainError).status} ${(err as DomainError).code}`;
  }
};

describe('posting rules', () => {
  const payer = account('user', 'wallet');
  const payee = account('user', 'wallet');
  const [maker, checker] = [randomUUID(), randomUUID()];

  it('every reversal code names its original; the legs of a reversal are grouped by it', () => {
    for (const code of REVERSAL_CODES) {
      const leg = transfer(payee, payer, 5n, code);
      const accounts = new Map([payer, payee].map((a) => [a.id, a]));
      expect(codeOf(() => postingDecisions([leg], new Map([[leg.id, { id: leg.id }]]), accounts))).toBe('422 INVALID_REVERSAL');
      const original = randomUUID();
      const decided = postingDecisions([leg], new Map([[leg.id, { id: leg.id, reverses: original }]]), accounts);
      expect(decided.reversals.get(original)).toEqual([leg]);
    }
  });

  it('a reversal pays the payer back, posted, in its currency, at most what the original moved', () => {
    const original = transfer(payer, payee, 10n);
    const other = account('user', 'wallet');
    expect(codeOf(() => checkReversal(original, original.id, [transfer(payee, payer, 10n)]))).toBe('accepted');
    expect(codeOf(() => checkReversal(original, original.id, [transfer(payee, payer, 4n), transfer(account('system', 'x'), payer, 6n)]))).toBe('accepted');
    expect(codeOf(() => checkReversal(original, original.id, [transfer(payee, payer, 6n), transfer(account('system', 'x'), payer, 6n)]))).toBe(
      '422 INVALID_REVERSAL',
    );
    expect(codeOf(() => checkReversal(original, original.id, [transfer(payee, other, 1n)]))).toBe('422 INVALID_REVERSAL');
    expect(codeOf(() => checkReversal(undefined, original.id, [transfer(payee, payer, 1n)]))).toBe('422 INVALID_REVERSAL');
    expect(codeOf(() => checkReversal({ ...original, kind: 'pending' }, original.id, [transfer(payee, payer, 1n)]))).toBe('422 INVALID_REVERSAL');
    expect(codeOf(() => checkReversal(original, original.id, [transfer(payee, payer, 1n, 'x', 'pending')]))).toBe('422 INVALID_REVERSAL');
  });

  it('a credit of a person from every platform-credit source needs two people, neither the credited person nor a party', () => {
    for (const code of PLATFORM_CREDIT_SOURCES) {
      const source = account('system', code);
      const credit = transfer(source, payer, 100n, 'goodwill');
      const accounts = new Map([source, payer].map((a) => [a.id, a]));
      const decide = (approval?: { proposedBy: string; approvedBy: string; parties: string[] }) => () =>
        postingDecisions([credit], new Map([[credit.id, { id: credit.id, approval }]]), accounts);
      expect(codeOf(decide())).toBe('403 APPROVAL_REQUIRED');
      expect(codeOf(decide({ proposedBy: maker, approvedBy: maker, parties: [] }))).toBe('403 SEPARATION_OF_DUTIES');
      expect(codeOf(decide({ proposedBy: maker, approvedBy: maker.toUpperCase(), parties: [] }))).toBe('403 SEPARATION_OF_DUTIES');
      expect(codeOf(decide({ proposedBy: maker, approvedBy: payer.ownerId, parties: [] }))).toBe('403 SEPARATION_OF_DUTIES');
      expect(codeOf(decide({ proposedBy: payer.ownerId, approvedBy: checker, parties: [] }))).toBe('403 SEPARATION_OF_DUTIES');
      expect(codeOf(decide({ proposedBy: maker, approvedBy: checker, parties: [checker] }))).toBe('403 SEPARATION_OF_DUTIES');
      expect(
        postingDecisions(
          [credit],
          new Map([[credit.id, { id: credit.id, approval: { proposedBy: maker, approvedBy: checker, parties: [payee.ownerId] } }]]),
          accounts,
        ).credits,
      ).toEqual([{ transferId: credit.id, proposedBy: maker, approvedBy: checker, parties: [payer.ownerId, payee.ownerId] }]);
      // money into a system account, or between system accounts, is no credit of a person
      const internal = transfer(source, account('system', 'other'), 5n);
      expect(postingDecisions([internal], new Map(), new Map([[source.id, source]])).credits).toEqual([]);
    }
  });

  it('other system accounts (funding, sales, rewards) credit people without an approval: a deposit, a sale refunded, a redemption', () => {
    const funding = account('system', 'funding');
    const deposit = transfer(funding, payer, 100n, 'deposit');
    expect(postingDecisions([deposit], new Map(), new Map([funding, payer].map((a) => [a.id, a])))).toEqual({ reversals: new Map(), credits: [] });
    expect(codeOf(() => checkApproval(undefined, payer.ownerId))).toBe('403 APPROVAL_REQUIRED');
  });
});
