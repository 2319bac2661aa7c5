import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each user's outflows per currency and UTC day as a counter row, kept by a trigger on every transfer
 * insert, in the transaction that moves the money: the limit check reads one row instead of summing
 * the day's transfers (which grew with every transfer a busy user made). What counts is what
 * limits.ts says: debits of a user's account to an account that is not the user's, posted or pending;
 * a resolution takes back what its pending transfer no longer moves (all of it when voided or
 * expired), on the day the pending transfer counted.
 */
export class LedgerDailyOutflow1735000000200 implements MigrationInterface {
  name = 'LedgerDailyOutflow1735000000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ledger.daily_outflow (
        owner_id uuid NOT NULL,
        currency text NOT NULL,
        day date NOT NULL,
        amount bigint NOT NULL CHECK (amount >= 0),
        PRIMARY KEY (owner_id, currency, day)
      )`);
    await q.query(`
      CREATE FUNCTION ledger.count_outflow() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        counted ledger.transfer;
        delta bigint;
        owner uuid;
      BEGIN
        IF NEW.kind IN ('single', 'pending') THEN
          counted := NEW;
          delta := NEW.amount;
        ELSE
          SELECT * INTO counted FROM ledger.transfer WHERE id = NEW.pending_id;
          delta := CASE WHEN NEW.kind = 'post_pending' THEN NEW.amount ELSE 0 END - counted.amount;
        END IF;
        IF delta = 0 THEN RETURN NULL; END IF;
        SELECT d.owner_id INTO owner FROM ledger.account d, ledger.account c
         WHERE d.id = counted.debit_account_id AND c.id = counted.credit_account_id
           AND d.owner_type = 'user' AND NOT (c.owner_type = 'user' AND c.owner_id = d.owner_id);
        IF owner IS NULL THEN RETURN NULL; END IF;
        IF delta > 0 THEN
          INSERT INTO ledger.daily_outflow AS o (owner_id, currency, day, amount)
          VALUES (owner, counted.currency, (counted.created_at AT TIME ZONE 'UTC')::date, delta)
          ON CONFLICT (owner_id, currency, day) DO UPDATE SET amount = o.amount + EXCLUDED.amount;
        ELSE
          UPDATE ledger.daily_outflow SET amount = amount + delta
           WHERE owner_id = owner AND currency = counted.currency AND day = (counted.created_at AT TIME ZONE 'UTC')::date;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER transfer_counts_outflow AFTER INSERT ON ledger.transfer FOR EACH ROW EXECUTE FUNCTION ledger.count_outflow()`);
    // the transfers made before this migration
    await q.query(`
      INSERT INTO ledger.daily_outflow (owner_id, currency, day, amount)
      SELECT d.owner_id, t.currency, (t.created_at AT TIME ZONE 'UTC')::date,
             sum(CASE WHEN t.kind = 'single' OR r.id IS NULL THEN t.amount WHEN r.kind = 'post_pending' THEN r.amount ELSE 0 END)
        FROM ledger.transfer t
        JOIN ledger.account d ON d.id = t.debit_account_id
        JOIN ledger.account c ON c.id = t.credit_account_id
        LEFT JOIN ledger.transfer r ON r.pending_id = t.id
       WHERE t.kind IN ('single', 'pending') AND d.owner_type = 'user' AND NOT (c.owner_type = 'user' AND c.owner_id = d.owner_id)
       GROUP BY 1, 2, 3`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER transfer_counts_outflow ON ledger.transfer');
    await q.query('DROP FUNCTION ledger.count_outflow()');
    await q.query('DROP TABLE ledger.daily_outflow');
  }
}
