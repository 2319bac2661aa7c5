import { randomBytes } from 'node:crypto';
import type { PoolClient } from 'pg';
import { DomainError, badInput } from '../../../../lib/errors';
import { derivedUuid, type IdempotentRequests } from '../../../../lib/idempotency';
import type { JobQueue } from '../../../../lib/jobs';
import type { Logger } from '../../../../lib/logger';
import { exponentOf, toMoney } from '../../../../lib/money';
import type { CommerceStore, RewardDueRow } from '../store/commerce-store';
import { INSUFFICIENT_FUNDS, type LedgerClient, type LedgerTransferInput } from '../../../../lib/ledger-client';
import { REWARD_RULES } from './catalogue';

/** Points live in the ledger (currency POINTS): a user's points account cannot go below zero, the issuing account may. */
export const POINTS = 'POINTS';
const USER_POINTS = 'rewards:points';
const ISSUED_POINTS = 'rewards:issued';
/** The system account redemptions are paid from, per currency. */
export const REWARDS_ACCOUNT = 'rewards:payout';
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** The job that grants owed points (sent when a grant fails, and every minute as a backstop). */
export const REWARDS_QUEUE = 'commerce-reward-grants';
/** A failed drain is retried after about 2, 4, 8, 16 and 32 s; the minutely schedule carries on after that. */
export const DRAIN_RETRY = { retryLimit: 5, retryDelay: 2, retryBackoff: true, expireInSeconds: 300 };
const DRAIN_BATCH = 100;

/**
 * Points and referrals. Earning rules (REWARD_RULES): points per whole unit of a paid shop order;
 * a referral pays both sides once, at the referred user's first qualifying transaction. What a
 * transaction earns is owed (commerce.reward_due, the outbox) in the transaction that pays it, and
 * granted from there: at once, else by the drain job. Every points movement is a ledger transfer
 * whose id is derived from what earned it, so a re-delivery or a concurrent twin (two first orders
 * paid at once) is applied once: the ledger answers `exists`.
 */
export class Rewards {
  constructor(
    private readonly store: CommerceStore,
    private readonly ledger: LedgerClient,
    private readonly idempotency: IdempotentRequests,
    private readonly jobs: JobQueue,
    private readonly logger: Logger,
  ) {}

  /** Read without touching the ledger (reads stay available in read-only mode). */
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
  owe(c: PoolClient, userId: string, orderId: string, amountMinor: bigint, currency: string): Promise<void> {
    return this.store.insertRewardDue(c, { reference: `order:${orderId}`, userId, amount: amountMinor, currency });
  }

  /**
   * Grants what `owe` recorded, after its commit. Never fails the caller (the payment stands): when the
   * ledger or this module's database cannot be reached, the drain job retries it.
   */
  async grantOwed(orderId: string): Promise<void> {
    const reference = `order:${orderId}`;
    try {
      const due = await this.store.rewardDue(reference);
      if (due && !due.grantedAt) await this.grant(due);
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

  /** The points of one qualifying transaction and the referral bonus if one is due; every id derived, so a second run grants nothing twice. */
  private async grant(due: RewardDueRow): Promise<void> {
    const { userId } = due;
    const whole = due.amount / 10n ** BigInt(exponentOf(due.currency));
    const earned = whole * REWARD_RULES.pointsPerUnitSpent;
    const grants: { userId: string; rule: string; points: bigint; reference: string }[] = [];
    if (earned > 0n) grants.push({ userId, rule: 'purchase', points: earned, reference: due.reference });
    const referral = await this.store.referralOf(userId);
    if (referral) {
      // the ids come from the referral, not the order: whichever first order gets here first grants it, the others are `exists`
      grants.push({ userId: referral.referrerUserId, rule: 'referral_referrer', points: REWARD_RULES.referrerBonus, reference: `referral:${userId}` });
      grants.push({ userId, rule: 'referral_referred', points: REWARD_RULES.referredBonus, reference: `referral:${userId}` });
    }
    if (grants.length) {
      const issued = await this.ledger.system(POINTS, ISSUED_POINTS);
      const transfers: (LedgerTransferInput & { grant: (typeof grants)[number] })[] = [];
      for (const g of grants) {
        const account = await this.ledger.account('user', g.userId, POINTS, USER_POINTS);
        transfers.push({
          id: derivedUuid('reward', g.rule, g.reference),
          debitAccountId: issued,
          creditAccountId: account,
          amount: g.points.toString(),
          code: `reward_${g.rule}`,
          metadata: { rule: g.rule, reference: g.reference },
          grant: g,
        });
      }
      const outcomes = await this.ledger.transfers(transfers.map(({ grant: _grant, ...t }) => t));
      // the history keeps what the ledger created now or before (ids are the transfers')
      await this.store.recordRewardEvents(
        transfers.map((t, i) => ({
          id: outcomes[i]?.id ?? t.id,
          userId: t.grant.userId,
          rule: t.grant.rule,
          points: t.grant.points,
          reference: t.grant.reference,
        })),
      );
      if (referral) await this.store.markReferralRewarded(userId);
    }
    await this.store.markRewardGranted(due.reference);
  }

  /**
   * Points → wallet credit, in one linked batch: the points go back to the issuing account and the
   * rewards payout account credits the wallet (REWARD_RULES.pointsPerUnitRedeemed points per unit).
   */
  redeem(userId: string, points: number, currency: string, key: string | null | undefined): Promise<{ points: bigint; credited: bigint; currency: string }> {
    return this.idempotency.run({ owner: `user:${userId}`, key, operation: 'redeemRewardPoints', input: { points, currency } }, async (ids) => {
      const cur = (currency ?? '').toUpperCase();
      const exponent = exponentOf(cur);
      if (cur === POINTS) throw badInput('Redeem into a wallet currency.', { currency: ['A wallet currency.'] });
      if (!Number.isInteger(points) || points < Number(REWARD_RULES.minimumRedemption) || points % Number(REWARD_RULES.pointsPerUnitRedeemed) !== 0)
        throw badInput(`points is a multiple of ${REWARD_RULES.pointsPerUnitRedeemed}, at least ${REWARD_RULES.minimumRedemption}.`, {
          points: [`A multiple of ${REWARD_RULES.pointsPerUnitRedeemed}, at least ${REWARD_RULES.minimumRedemption}.`],
        });
      const p = BigInt(points);
      const credited = (p / REWARD_RULES.pointsPerUnitRedeemed) * 10n ** BigInt(exponent);
      const [userPoints, issued, wallet, payout] = await Promise.all([
        this.ledger.account('user', userId, POINTS, USER_POINTS),
        this.ledger.system(POINTS, ISSUED_POINTS),
        this.ledger.wallet(userId, cur),
        this.ledger.system(cur, REWARDS_ACCOUNT),
      ]);
      const redemptionId = ids('points');
      try {
        await this.ledger.transfers([
          { id: redemptionId, debitAccountId: userPoints, creditAccountId: issued, amount: p.toString(), code: 'reward_redemption' },
          {
            id: ids('credit'),
            debitAccountId: payout,
            creditAccountId: wallet,
            amount: toMoney(credited, cur).amount,
            code: 'reward_redemption_credit',
            metadata: { points: p.toString() },
          },
        ]);
      } catch (err) {
        if (err instanceof DomainError && err.code === INSUFFICIENT_FUNDS) throw new DomainError('INSUFFICIENT_POINTS', 422, 'Not enough points.');
        throw err;
      }
      await this.store.recordRewardEvents([{ id: redemptionId, userId, rule: 'redemption', points: -p, reference: `redemption:${redemptionId}` }]);
      return { points: p, credited, currency: cur };
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
