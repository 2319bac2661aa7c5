import type { MigrationInterface, QueryRunner } from 'typeorm';
import { idempotencyTableSql } from '../../../../../lib/idempotency';

/**
 * Virtual accounts, money movements through external providers (their lifecycle; the money itself is
 * in the ledger) and the provider events received (replay protection: one row per provider event id).
 */
export class BankingInit1734200000000 implements MigrationInterface {
  name = 'BankingInit1734200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE banking.virtual_account (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        rail text NOT NULL,
        currency text NOT NULL,
        account_number text NOT NULL,
        bank_code text NOT NULL,
        bank_name text NOT NULL,
        holder_name text NOT NULL,
        provider_reference text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (user_id, currency),
        UNIQUE (rail, account_number)
      );
      CREATE TABLE banking.movement (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN ('inbound_credit', 'bank_transfer', 'mobile_money_deposit', 'mobile_money_withdrawal', 'ramp_on', 'ramp_off')),
        provider text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'posted', 'voided')),
        amount bigint NOT NULL CHECK (amount > 0),
        currency text NOT NULL,
        -- the ledger transfer that moved (or holds) the money
        ledger_transfer_id uuid NOT NULL UNIQUE,
        -- a ramp's second leg (the other currency: fiat for crypto or back), moved with the first
        counter_transfer_id uuid UNIQUE,
        counter_amount bigint CHECK (counter_amount > 0),
        counter_currency text,
        -- the provider's id of the movement (a credit's transaction id); unique per provider
        provider_reference text,
        counterparty jsonb NOT NULL DEFAULT '{}',
        failure_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (provider, provider_reference)
      );
      CREATE INDEX movement_user ON banking.movement (user_id, created_at DESC, id DESC);
      CREATE INDEX movement_status ON banking.movement (status, created_at);
      CREATE TABLE banking.provider_event (
        provider text NOT NULL,
        event_id text NOT NULL,
        type text NOT NULL,
        payload jsonb NOT NULL,
        outcome text,
        received_at timestamptz NOT NULL DEFAULT now(),
        processed_at timestamptz,
        PRIMARY KEY (provider, event_id)
      );
      CREATE INDEX provider_event_received ON banking.provider_event (received_at DESC);
      ${idempotencyTableSql('banking')}
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE banking.idempotency_key, banking.provider_event, banking.movement, banking.virtual_account');
  }
}
