import Decimal from 'decimal.js';
import { randomBytes } from 'node:crypto';
import type { PoolClient } from 'pg';
import { inTransaction } from '../../../../lib/database';
import { DomainError, badInput } from '../../../../lib/errors';
import { derivedUuid, type IdempotentRequests } from '../../../../lib/idempotency';
import type { JobQueue } from '../../../../lib/jobs';
import type { Logger } from '../../../../lib/logger';
import { FIAT_CURRENCIES, exponentOf, toMinor, toMoney, type Money } from '../../kernel/currencies';
import type { CommerceStore, RewardDueRow } from '../store/commerce-store';
import { INSUFFICIENT_FUNDS, type LedgerClient, type LedgerTransferInput } from '../../kernel/ledger-client';
import { REWARD_RULES } from './catalogue';

/** Points live in the ledger (currency POINTS): a user's points account cannot go below zero, the issuing account may. */
export const POINTS = 'POINTS';
const USER_POINTS = 'rewards:points';
const ISSUED_POINTS = 'rewards:issued';
/**
 * What a user owes in points: the points of a refunded purchase they had spent already. A system
 * account of the user's (it may go below zero: its debit balance is the debt), paid back from the
 * next points they earn; while it is owed, nothing can be redeemed.
 */
const OWED_POINTS = 'rewards:owed';
/** The system account redemptions are paid from, per currency. */
export const REWARDS_ACCOUNT = 'rewards:payout';
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** The job that grants owed points (sent when a grant fails, and every minute as a backstop). */
export const REWARDS_QUEUE = 'commerce-reward-grants';
/** A failed drain is retried after about 2, 4, 8, 16 and 32 s; the minutely schedule carries on after that. */
export const DRAIN_RETRY = { retryLimit: 5, retryDelay: 2, retryBackoff: true, expireInSeconds: 300 };
const DRAIN_BATCH = 100;

/** The node's own rate: units of `target` per unit of `source` (the payments subgraph's FX desk). */
export type RateOf = (source: string, target: string) => Promise<string>;

/** The rules as the API shows them: what a point is worth, in the node's reference currency. */
export interface RewardRulesView {
  pointsPerUnitSpent: bigint;
  referrerBonus: bigint;
  referredBonus: bigint;
  pointsPerUnitRedeemed: bigint;
  minimumRedemption: bigint;
  pointValue: Money;
}

const grantId = (rule: string, reference: string) => derivedUuid('reward', rule, reference);
const orderReference = (orderId: string) => `order:${orderId}`;
/** The referral bonuses are tied to the order that earned them: a refund of it takes them back, and the next paid order earns them again. */
const referralReference = (referredUserId: string, orderId: string) => `referral:${referredUserId}:order:${orderId}`;

/**
 * Points and referrals. A point is worth REWARD_RULES.pointValue of the node's reference currency
 * (REFERENCE_CURRENCY), whatever currency it is redeemed into: a paid shop order earns points by its
 * value in the reference currency, and a redemption into another currency is converted at the node's
 * own rate (the FX desk's), rounded down; only fiat currencies are redeemed into.
 *
 * What a transaction earns is owed (commerce.reward_due, the outbox) in the transaction that pays it,
 * and granted from there: at once, else by the drain job. A refund, a cancellation or a dispute
 * resolved against the payment takes the points back (`reverseOrder`), the referral bonuses it earned
 * included; points already spent are owed (OWED_POINTS: the balance shown goes below zero and nothing
 * can be redeemed until later points pay it back), so the ledger stays balanced and no sequence of
 * purchases, refunds and redemptions pays out more than was paid. Every points movement is a ledger
 * transfer whose id is derived from what caused it, so a re-delivery or a concurrent twin is applied
 * once; every movement of a user's points runs under that user's rewards lock.
 */
export class Rewards {
  constructor(
    private readonly store: CommerceStore,
    private readonly ledger: LedgerClient,
    private readonly idempotency: IdempotentRequests,
    private readonly jobs: JobQueue,
    private readonly logger: Logger,
    private readonly rate: RateOf,
    /** The node's reference currency (REFERENCE_CURRENCY). */
    readonly referenceCurrency: string,
  ) {}

  rules(): RewardRulesView {
    const { pointValue, ...rules } = REWARD_RULES;
    return { ...rules, pointValue: { amount: new Decimal(pointValue).toFixed(exponentOf(this.referenceCurrency)), currency: this.referenceCurrency } };
  }

  /** Read without touching the ledger (reads stay available in read-only mode): below zero while points are owed. */
  balance(userId: string): Promise<bigint> {
    return this.store.pointsOf(userId);
  }

  /** The user's referral code, made on first use (8 characters without look-alikes). */
  async referralCode(userId: string): Promise<string> {
    const existing = await this.store.referralCode(userId);
    if (existing) return existing;
    for (;;) {
      const code = [...randomBytes(8)].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
      try {
        return await this.store.saveReferralCode(userId, code);
      } catch (err) {
        if ((err as { code?: string }).code !== '23505') throw err; // another user's code: draw again
      }
    }
  }

  /** The user names who referred them: once, before their first qualifying transaction, never themselves. */
  async claimReferral(userId: string, code: string): Promise<{ referrerUserId: string }> {
    const normalised = (code ?? '').trim().toUpperCase();
    const referrer = /^[A-Z0-9]{8}$/.test(normalised) ? await this.store.referrerOfCode(normalised) : undefined;
    if (!referrer) throw badInput('Unknown referral code.', { code: ['Unknown referral code.'] });
    if (referrer === userId) throw badInput('A referral code of your own does not count.', { code: ['Your own code.'] });
    if ((await this.store.referralOf(referrer))?.referrerUserId === userId)
      throw badInput('You referred this user: referrals do not go both ways.', { code: ['You referred this user.'] });
    if (await this.store.hasQualifyingTransaction(userId))
      throw new DomainError('REFERRAL_TOO_LATE', 409, 'A referral is claimed before the first qualifying transaction.');
    if (!(await this.store.insertReferral(userId, referrer))) throw new DomainError('ALREADY_REFERRED', 409, 'A referral was already claimed.');
    return { referrerUserId: referrer };
  }

  /**
   * Records the points a qualifying transaction (a paid shop order) earns, in that transaction (`c`):
   * they are owed from the moment the payment commits, whatever happens to the grant that follows.
   */
  owe(c: PoolClient, userId: string, orderId: string, amountMinor: bigint, currency: string, kycPassed = true): Promise<void> {
    return this.store.insertRewardDue(c, { reference: orderReference(orderId), userId, amount: amountMinor, currency, kycPassed });
  }

  /**
   * Grants what `owe` recorded, after its commit. Never fails the caller (the payment stands): when the
   * ledger, the rates or this module's database cannot be reached, the drain job retries it.
   */
  async grantOwed(orderId: string): Promise<void> {
    const reference = orderReference(orderId);
    try {
      const due = await this.store.rewardDue(reference);
      if (due && !due.grantedAt && !due.reversedAt) await this.grant(due);
    } catch (err) {
      this.logger.warn({ err: { message: (err as Error).message }, reference }, 'points grant failed; the drain job retries it');
      await this.store.markRewardFailed(reference, (err as Error).message).catch(() => undefined);
      await this.jobs.boss.send(REWARDS_QUEUE, {}, DRAIN_RETRY).catch(() => undefined);
    }
  }

  /**
   * Grants every owed reward (the drain job; a re-delivery is harmless). Throws when some could not be
   * granted, so that the job is retried (with backoff) until they are.
   */
  async drain(): Promise<{ granted: number }> {
    let granted = 0;
    const failures: string[] = [];
    for (;;) {
      const due = (await this.store.rewardsDue(DRAIN_BATCH)).filter((d) => !failures.includes(d.reference));
      if (!due.length) break;
      for (const d of due) {
        try {
          await this.grant(d);
          granted++;
        } catch (err) {
          failures.push(d.reference);
          await this.store.markRewardFailed(d.reference, (err as Error).message);
        }
      }
    }
    if (failures.length) throw new Error(`${failures.length} points grant(s) failed (${granted} granted); retried later`);
    return { granted };
  }

  /**
   * What a payment earns: its value in the reference currency, whole units, times the rule. Valued at
   * the node's rate from the reference currency (the one redemptions use), so that points earned and
   * redeemed in one currency are worth what was paid, to the unit.
   */
  private async pointsEarned(amountMinor: bigint, currency: string): Promise<bigint> {
    const amount = new Decimal(amountMinor.toString()).div(new Decimal(10).pow(exponentOf(currency)));
    const value = currency === this.referenceCurrency ? amount : amount.div(await this.rate(this.referenceCurrency, currency));
    return BigInt(value.floor().toFixed(0)) * REWARD_RULES.pointsPerUnitSpent;
  }

  /**
   * The points of one qualifying transaction and the referral bonus if one is due. The points are
   * fixed once (stored before any grant: a retry grants the same amount); the grant itself runs with the
   * owed row locked (a refund of the order waits for it, and a reversed order is granted nothing), and
   * every id is derived, so a second run grants nothing twice.
   */
  private async grant(first: RewardDueRow): Promise<void> {
    const points = first.points ?? (await this.store.setRewardDuePoints(first.reference, await this.pointsEarned(first.amount, first.currency)));
    await inTransaction(this.store.pool, async (c) => {
      const due = await this.store.rewardDueForUpdate(c, first.reference);
      if (!due || due.grantedAt || due.reversedAt) return;
      const { userId, reference } = due;
      const orderId = reference.slice('order:'.length);
      const grants: { userId: string; rule: string; points: bigint; reference: string; id: string }[] = [];
      if (points > 0n) grants.push({ userId, rule: 'purchase', points, reference, id: grantId('purchase', reference) });
      // the referral goes to the first order whose grant claims it (concurrent first orders: one does), paid by a
      // user who had passed KYC (no bonuses for unverified sign-ups; their first order after KYC pays them)
      const referrerUserId = due.kycPassed ? await this.store.claimReferralReward(c, userId, orderId) : undefined;
      if (referrerUserId) {
        const referral = referralReference(userId, orderId);
        grants.push({
          userId: referrerUserId,
          rule: 'referral_referrer',
          points: REWARD_RULES.referrerBonus,
          reference: referral,
          id: grantId('referral_referrer', referral),
        });
        grants.push({ userId, rule: 'referral_referred', points: REWARD_RULES.referredBonus, reference: referral, id: grantId('referral_referred', referral) });
      }
      if (grants.length) {
        const users = [...new Set(grants.map((g) => g.userId))];
        await this.store.lockRewardsOf(c, users);
        const issued = await this.ledger.system(POINTS, ISSUED_POINTS);
        const transfers: LedgerTransferInput[] = [];
        for (const g of grants) {
          transfers.push({
            id: g.id,
            debitAccountId: issued,
            creditAccountId: await this.pointsAccount(g.userId),
            amount: g.points.toString(),
            code: `reward_${g.rule}`,
            metadata: { rule: g.rule, reference: g.reference },
          });
        }
        await this.ledger.transfers(transfers);
        await this.store.recordRewardEvents(
          c,
          grants.map((g) => ({
            id: g.id,
            userId: g.userId,
            rule: g.rule,
            points: g.points,
            reference: g.rule === 'purchase' ? g.reference : `referral:${userId}`,
          })),
        );
        // points owed from an earlier refund are paid back first
        for (const u of users) await this.settle(c, u, `grant:${reference}`);
      }
      await this.store.markRewardGranted(c, reference);
    });
  }

  /**
   * Takes back what a paid order earned, because its payment was refunded (a cancellation) or
   * reversed (a dispute resolved for the user): its purchase points and the referral bonuses it
   * granted, in the caller's transaction `c` (the one that refunds, with the order locked). The grant
   * of an order taken back before it was granted never happens. What the ledger holds is what is taken
   * back (a grant whose bookkeeping a crash interrupted included); points already spent are owed.
   */
  async reverseOrder(c: PoolClient, orderId: string): Promise<void> {
    const reference = orderReference(orderId);
    const due = await this.store.rewardDueForUpdate(c, reference);
    if (!due || due.reversedAt) return;
    await this.store.markRewardReversed(c, reference);
    const referrerUserId = await this.store.referralRewardedBy(c, due.userId, orderId);
    const referral = referralReference(due.userId, orderId);
    const legs = [{ userId: due.userId, id: grantId('purchase', reference) }];
    if (referrerUserId)
      legs.push({ userId: referrerUserId, id: grantId('referral_referrer', referral) }, { userId: due.userId, id: grantId('referral_referred', referral) });
    const granted = (await Promise.all(legs.map(async (l) => ({ ...l, transfer: await this.ledger.transfer(l.id) })))).filter((l) => l.transfer !== null);
    if (granted.length) {
      const users = [...new Set(granted.map((l) => l.userId))];
      await this.store.lockRewardsOf(c, users);
      const issued = await this.ledger.system(POINTS, ISSUED_POINTS);
      const reversals: (LedgerTransferInput & { userId: string; points: bigint })[] = [];
      for (const l of granted) {
        reversals.push({
          id: derivedUuid('reward-reversal', l.id),
          // the user now owes them; `settle` pays the debt from the points they hold
          debitAccountId: await this.owedAccount(l.userId),
          creditAccountId: issued,
          amount: l.transfer!.amount.amount,
          code: 'reward_reversal',
          metadata: { reference, reverses: l.id },
          reverses: l.id,
          userId: l.userId,
          points: BigInt(l.transfer!.amount.amount),
        });
      }
      await this.ledger.transfers(reversals.map(({ userId: _u, points: _p, ...t }) => t));
      await this.store.recordRewardEvents(
        c,
        reversals.map((r) => ({ id: r.id, userId: r.userId, rule: 'reversal', points: -r.points, reference })),
      );
      for (const u of users) await this.settle(c, u, `reversal:${reference}`);
      for (const u of users) await this.takeBackCash(c, u, reference);
    }
    if (referrerUserId) await this.store.releaseReferralReward(c, due.userId, orderId);
  }

  /**
   * Pays what the user owes in points from the points they hold, once per `trigger` (its id is
   * derived from it: a retry after the transfer was applied finds it and does nothing). Called in the
   * transaction `c` that holds the user's rewards lock, so the balances it reads stay as read.
   */
  private async settle(c: PoolClient, userId: string, trigger: string): Promise<void> {
    // only a user whose points were ever taken back can owe any (most never are: no ledger call for them)
    if (!(await this.store.hasPointsReversal(c, userId))) return;
    const owed = await this.owedAccount(userId);
    const o = await this.ledger.accountState(owed);
    const owing = o.debitsPosted - o.creditsPosted;
    if (owing <= 0n) return;
    const id = derivedUuid('reward-settlement', userId, trigger);
    if (await this.ledger.transfer(id)) return;
    const held = await this.pointsAccount(userId);
    const h = await this.ledger.accountState(held);
    const available = h.creditsPosted - h.debitsPosted - h.debitsPending;
    const paid = available < owing ? available : owing;
    if (paid <= 0n) return;
    await this.ledger.transfers([
      { id, debitAccountId: held, creditAccountId: owed, amount: paid.toString(), code: 'reward_settlement', metadata: { trigger } },
    ]);
  }

  /**
   * Points of a refunded purchase that were redeemed already: the cash they were redeemed for goes back
   * (their value in the reference currency, from the user's wallet to the payout account) and the debt
   * is cleared, so a refund never leaves a net gain. When the wallet cannot pay it (spent meanwhile), the
   * points stay owed as before: nothing can be redeemed until later points pay them back.
   */
  private async takeBackCash(c: PoolClient, userId: string, reference: string): Promise<void> {
    const owed = await this.owedAccount(userId);
    const o = await this.ledger.accountState(owed);
    const owing = o.debitsPosted - o.creditsPosted;
    if (owing <= 0n) return;
    const cur = this.referenceCurrency;
    const value = BigInt(
      new Decimal(REWARD_RULES.pointValue)
        .mul(owing.toString())
        .mul(new Decimal(10).pow(exponentOf(cur)))
        .ceil()
        .toFixed(0),
    );
    const id = derivedUuid('reward-cash-back', userId, reference);
    try {
      await this.ledger.transfers([
        {
          id,
          debitAccount: this.ledger.walletKey(userId, cur),
          creditAccountId: await this.ledger.system(cur, REWARDS_ACCOUNT),
          amount: toMoney(value, cur).amount,
          code: 'reward_cash_back',
          metadata: { reference, points: owing.toString(), description: 'Redeemed points of a refunded purchase' },
        },
        {
          id: derivedUuid('reward-debt-cleared', userId, reference),
          debitAccountId: await this.ledger.system(POINTS, ISSUED_POINTS),
          creditAccountId: owed,
          amount: owing.toString(),
          code: 'reward_settlement',
          metadata: { reference, cashBack: id },
        },
      ]);
    } catch (err) {
      if (err instanceof DomainError && err.code === INSUFFICIENT_FUNDS) return;
      throw err;
    }
    await this.store.recordRewardEvents(c, [{ id, userId, rule: 'cash_back', points: owing, reference }]);
  }

  private pointsAccount(userId: string): Promise<string> {
    return this.ledger.account('user', userId, POINTS, USER_POINTS);
  }

  private owedAccount(userId: string): Promise<string> {
    return this.ledger.account('system', userId, POINTS, OWED_POINTS);
  }

  /**
   * Points → wallet credit, in one linked batch: the points go back to the issuing account and the
   * rewards payout account credits the wallet with their value (REWARD_RULES.pointValue of the
   * reference currency each), converted at the node's rate into a fiat `currency` and rounded down.
   * Under the user's rewards lock; while points are owed, there are none to redeem.
   */
  redeem(userId: string, points: number, currency: string, key: string | null | undefined): Promise<{ points: bigint; credited: bigint; currency: string }> {
    return this.idempotency.run({ owner: `user:${userId}`, key, operation: 'redeemRewardPoints', input: { points, currency } }, async (ids) => {
      const cur = (currency ?? '').toUpperCase();
      if (!FIAT_CURRENCIES.includes(cur))
        throw badInput(`Points are redeemed into a fiat currency: one of ${FIAT_CURRENCIES.join(', ')}.`, {
          currency: [`One of ${FIAT_CURRENCIES.join(', ')}.`],
        });
      if (!Number.isInteger(points) || points < Number(REWARD_RULES.minimumRedemption) || points % Number(REWARD_RULES.pointsPerUnitRedeemed) !== 0)
        throw badInput(`points is a multiple of ${REWARD_RULES.pointsPerUnitRedeemed}, at least ${REWARD_RULES.minimumRedemption}.`, {
          points: [`A multiple of ${REWARD_RULES.pointsPerUnitRedeemed}, at least ${REWARD_RULES.minimumRedemption}.`],
        });
      const p = BigInt(points);
      const redemptionId = ids('points');
      const creditId = ids('credit');
      // a request taken over after a crash: the credit it made stands (the rate may have moved since)
      const done = await this.ledger.transfer(creditId);
      if (done) return { points: p, credited: toMinor(done.amount.amount, cur), currency: cur };
      const value = new Decimal(REWARD_RULES.pointValue).mul(p.toString());
      const rate = cur === this.referenceCurrency ? '1' : await this.rate(this.referenceCurrency, cur);
      const credited = BigInt(
        value
          .mul(rate)
          .mul(new Decimal(10).pow(exponentOf(cur)))
          .floor()
          .toFixed(0),
      );
      if (credited <= 0n) throw badInput(`${p} points are worth less than the smallest unit of ${cur}.`, { points: ['More points.'] });
      return inTransaction(this.store.pool, async (c) => {
        await this.store.lockRewardsOf(c, [userId]);
        const [userPoints, issued, payout] = await Promise.all([
          this.pointsAccount(userId),
          this.ledger.system(POINTS, ISSUED_POINTS),
          this.ledger.system(cur, REWARDS_ACCOUNT),
        ]);
        try {
          await this.ledger.transfers([
            { id: redemptionId, debitAccountId: userPoints, creditAccountId: issued, amount: p.toString(), code: 'reward_redemption' },
            {
              id: creditId,
              debitAccountId: payout,
              // by key: a refused redemption leaves no empty wallet behind
              creditAccount: this.ledger.walletKey(userId, cur),
              amount: toMoney(credited, cur).amount,
              code: 'reward_redemption_credit',
              metadata: { points: p.toString(), rate },
            },
          ]);
        } catch (err) {
          if (err instanceof DomainError && err.code === INSUFFICIENT_FUNDS) throw new DomainError('INSUFFICIENT_POINTS', 422, 'Not enough points.');
          throw err;
        }
        await this.store.recordRewardEvents(c, [{ id: redemptionId, userId, rule: 'redemption', points: -p, reference: `redemption:${redemptionId}` }]);
        return { points: p, credited, currency: cur };
      });
    });
  }

  history(userId: string) {
    return this.store.rewardEvents({ userId, limit: 50 });
  }

  referrals(referrerUserId?: string) {
    return this.store.referrals({ referrerUserId, limit: 200 });
  }

  events() {
    return this.store.rewardEvents({ limit: 200 });
  }
}
