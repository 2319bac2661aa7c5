import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * TigerBeetle's model in PostgreSQL: accounts with posted and pending debits and credits (minor units,
 * bigint), immutable transfers whose client-supplied id is the idempotency key, pending transfers
 * resolved at most once (post, void or expiry: a new transfer naming `pending_id`), and the balance
 * rules as CHECK constraints, the backstop under the service's own checks.
 */
export class LedgerInit1733000000200 implements MigrationInterface {
  name = 'LedgerInit1733000000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ledger.account (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        owner_type text NOT NULL CHECK (owner_type IN ('user', 'system')),
        -- the user's id; the nil uuid for system accounts
        owner_id uuid NOT NULL,
        currency text NOT NULL CHECK (currency ~ '^[A-Z0-9]{3,6}$'),
        code text NOT NULL CHECK (code ~ '^[a-z0-9_:]{1,64}$'),
        debits_pending bigint NOT NULL DEFAULT 0 CHECK (debits_pending >= 0),
        debits_posted bigint NOT NULL DEFAULT 0 CHECK (debits_posted >= 0),
        credits_pending bigint NOT NULL DEFAULT 0 CHECK (credits_pending >= 0),
        credits_posted bigint NOT NULL DEFAULT 0 CHECK (credits_posted >= 0),
        debits_must_not_exceed_credits boolean NOT NULL DEFAULT false,
        credits_must_not_exceed_debits boolean NOT NULL DEFAULT false,
        version bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (owner_type, owner_id, currency, code),
        CONSTRAINT account_no_overdraft CHECK (NOT debits_must_not_exceed_credits OR debits_posted + debits_pending <= credits_posted),
        CONSTRAINT account_no_overcredit CHECK (NOT credits_must_not_exceed_debits OR credits_posted + credits_pending <= debits_posted)
      )`);
    await q.query(`
      CREATE TABLE ledger.transfer (
        id uuid PRIMARY KEY,
        debit_account_id uuid NOT NULL REFERENCES ledger.account(id),
        credit_account_id uuid NOT NULL REFERENCES ledger.account(id),
        amount bigint NOT NULL CHECK (amount >= 0),
        currency text NOT NULL,
        code text NOT NULL CHECK (code ~ '^[a-z0-9_:]{1,64}$'),
        kind text NOT NULL CHECK (kind IN ('single', 'pending', 'post_pending', 'void_pending', 'expire_pending')),
        pending_id uuid REFERENCES ledger.transfer(id),
        timeout_at timestamptz,
        -- the legs of one linked batch share it (TigerBeetle's linked chain; a correlation id)
        batch_id uuid NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (debit_account_id <> credit_account_id),
        CHECK ((kind IN ('post_pending', 'void_pending', 'expire_pending')) = (pending_id IS NOT NULL)),
        CHECK (kind = 'pending' OR timeout_at IS NULL),
        CHECK (kind NOT IN ('single', 'pending') OR amount > 0)
      )`);
    // a pending transfer resolves at most once
    await q.query('CREATE UNIQUE INDEX transfer_resolves_once ON ledger.transfer (pending_id) WHERE pending_id IS NOT NULL');
    await q.query('CREATE INDEX transfer_debit_account ON ledger.transfer (debit_account_id, created_at)');
    await q.query('CREATE INDEX transfer_credit_account ON ledger.transfer (credit_account_id, created_at)');
    await q.query(`CREATE INDEX transfer_open_pending ON ledger.transfer (timeout_at) WHERE kind = 'pending' AND timeout_at IS NOT NULL`);
    await q.query('CREATE INDEX transfer_created ON ledger.transfer (created_at DESC)');
    // transfers are immutable
    await q.query(`
      CREATE FUNCTION ledger.transfers_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'ledger transfers are immutable (post a correcting transfer instead)'; END $$`);
    await q.query(
      `CREATE TRIGGER transfer_immutable BEFORE UPDATE OR DELETE ON ledger.transfer FOR EACH ROW EXECUTE FUNCTION ledger.transfers_are_immutable()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE ledger.transfer');
    await q.query('DROP FUNCTION ledger.transfers_are_immutable()');
    await q.query('DROP TABLE ledger.account');
  }
}
