import type { MigrationInterface, QueryRunner } from 'typeorm';
import { idempotencyTableSql } from '../../../../../lib/idempotency';

/**
 * Crypto deposits and swaps (schema `crypto`): one deposit address per user and asset; deposits by
 * the exchange's id (a redelivered confirmation finds its row: credited once); quotes with their
 * rate, fee and expiry; at most one swap per quote. Amounts in minor units (8 decimals for assets).
 */
export class CryptoInit1734100000100 implements MigrationInterface {
  name = 'CryptoInit1734100000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE crypto.deposit_address (
        id uuid PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        user_id uuid NOT NULL,
        asset text NOT NULL,
        network text NOT NULL,
        address text NOT NULL,
        provider text NOT NULL,
        provider_address_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (user_id, asset),
        UNIQUE (provider, address)
      )`);
    await q.query(`
      CREATE TABLE crypto.deposit (
        id uuid PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        provider text NOT NULL,
        provider_deposit_id text NOT NULL,
        address_id uuid NOT NULL REFERENCES crypto.deposit_address(id),
        user_id uuid NOT NULL,
        asset text NOT NULL,
        amount bigint NOT NULL CHECK (amount > 0),
        tx_hash text NOT NULL DEFAULT '',
        status text NOT NULL CHECK (status IN ('confirmed', 'credited')),
        created_at timestamptz NOT NULL DEFAULT now(),
        credited_at timestamptz,
        UNIQUE (provider, provider_deposit_id)
      )`);
    await q.query('CREATE INDEX deposit_user ON crypto.deposit (user_id, created_at DESC, seq DESC)');
    await q.query(`
      CREATE TABLE crypto.quote (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        from_asset text NOT NULL,
        to_asset text NOT NULL,
        from_amount bigint NOT NULL CHECK (from_amount > 0),
        fee bigint NOT NULL CHECK (fee >= 0 AND fee < from_amount),
        to_amount bigint NOT NULL CHECK (to_amount > 0),
        rate text NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (from_asset <> to_asset)
      )`);
    await q.query(`
      CREATE TABLE crypto.swap (
        id uuid PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        quote_id uuid NOT NULL UNIQUE REFERENCES crypto.quote(id),
        user_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX swap_user ON crypto.swap (user_id, created_at DESC, seq DESC)');
    await q.query(idempotencyTableSql('crypto'));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE crypto.swap, crypto.quote, crypto.deposit, crypto.deposit_address, crypto.idempotency_key');
  }
}
