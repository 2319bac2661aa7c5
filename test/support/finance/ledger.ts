import type { Store } from '../../../lib/database';

/**
 * The ledger's invariants in one currency: Σ(credits_posted − debits_posted) = 0; every guarded
 * account (a wallet) has credits_posted − debits_posted − debits_pending ≥ 0; every account's four
 * counters equal the sums of its transfers (posted: single and post_pending; pending: pending
 * transfers not resolved yet). Returns the number of accounts checked.
 */
export async function invariants(s: Store, currency: string) {
  const { rows } = await s.pool.query(
    `SELECT a.id, a.owner_type, a.debits_must_not_exceed_credits AS guarded,
            a.debits_posted::text AS dpo, a.credits_posted::text AS cpo, a.debits_pending::text AS dpe, a.credits_pending::text AS cpe,
            COALESCE((SELECT sum(CASE WHEN t.kind IN ('single', 'post_pending') THEN t.amount ELSE 0 END) FROM ledger.transfer t WHERE t.debit_account_id = a.id), 0)::text AS dpo_sum,
            COALESCE((SELECT sum(CASE WHEN t.kind IN ('single', 'post_pending') THEN t.amount ELSE 0 END) FROM ledger.transfer t WHERE t.credit_account_id = a.id), 0)::text AS cpo_sum,
            COALESCE((SELECT sum(t.amount) FROM ledger.transfer t WHERE t.debit_account_id = a.id AND t.kind = 'pending'
                        AND NOT EXISTS (SELECT 1 FROM ledger.transfer r WHERE r.pending_id = t.id)), 0)::text AS dpe_sum,
            COALESCE((SELECT sum(t.amount) FROM ledger.transfer t WHERE t.credit_account_id = a.id AND t.kind = 'pending'
                        AND NOT EXISTS (SELECT 1 FROM ledger.transfer r WHERE r.pending_id = t.id)), 0)::text AS cpe_sum
       FROM ledger.account a WHERE a.currency = $1`,
    [currency],
  );
  let net = 0n;
  for (const r of rows) {
    const [dpo, cpo, dpe, cpe] = [r.dpo, r.cpo, r.dpe, r.cpe].map(BigInt);
    net += cpo - dpo;
    // the counters are exactly what the transfers say
    expect([r.id, dpo, cpo, dpe, cpe]).toEqual([r.id, BigInt(r.dpo_sum), BigInt(r.cpo_sum), BigInt(r.dpe_sum), BigInt(r.cpe_sum)]);
    if (r.guarded) expect(cpo - dpo - dpe >= 0n).toBe(true);
  }
  expect(net).toBe(0n);
  // every user's daily outflow counters (the limits' source) are exactly what their transfers say
  const drifting = await s.pool.query(
    `WITH sums AS (
       SELECT d.owner_id, t.currency, (t.created_at AT TIME ZONE 'UTC')::date AS day,
              sum(CASE WHEN t.kind = 'single' OR r.id IS NULL THEN t.amount WHEN r.kind = 'post_pending' THEN r.amount ELSE 0 END) AS amount
         FROM ledger.transfer t
         JOIN ledger.account d ON d.id = t.debit_account_id
         JOIN ledger.account c ON c.id = t.credit_account_id
         LEFT JOIN ledger.transfer r ON r.pending_id = t.id
        WHERE t.currency = $1 AND t.kind IN ('single', 'pending') AND d.owner_type = 'user' AND NOT (c.owner_type = 'user' AND c.owner_id = d.owner_id)
        GROUP BY 1, 2, 3)
     SELECT s.owner_id, o.owner_id FROM sums s FULL JOIN (SELECT * FROM ledger.daily_outflow WHERE currency = $1) o USING (owner_id, currency, day)
      WHERE COALESCE(s.amount, 0) <> COALESCE(o.amount, 0)`,
    [currency],
  );
  expect(drifting.rows).toEqual([]);
  return rows.length;
}
