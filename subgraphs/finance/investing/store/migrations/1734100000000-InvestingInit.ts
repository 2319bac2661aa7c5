import type { MigrationInterface, QueryRunner } from 'typeorm';
import { idempotencyTableSql } from '../../../../../lib/idempotency';

/**
 * Instruments keyed by (provider, symbol), orders with their ledger reservation, fills, positions, and
 * the runs of the sync and price-refresh commands (the admin console shows the last ones).
 * Quantities and prices are numeric (exact decimals); money in the ledger is minor units.
 */
export class InvestingInit1734100000000 implements MigrationInterface {
  name = 'InvestingInit1734100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE investing.instrument (
        provider text NOT NULL CHECK (provider IN ('decentralized_exchange', 'equities_brokerage', 'market_data')),
        symbol text NOT NULL CHECK (symbol ~ '^[A-Za-z0-9.:_-]{1,64}$'),
        name text NOT NULL DEFAULT '',
        asset_class text NOT NULL,
        issuer text,
        tradable boolean NOT NULL DEFAULT true,
        fractionable boolean NOT NULL DEFAULT false,
        active boolean NOT NULL DEFAULT true,
        quote_currency text NOT NULL,
        last_price numeric(30, 9),
        last_price_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (provider, symbol)
      )`);
    await q.query(`
      CREATE TABLE investing."order" (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        provider text NOT NULL,
        symbol text NOT NULL,
        client_order_id text NOT NULL,
        side text NOT NULL CHECK (side IN ('buy', 'sell')),
        type text NOT NULL CHECK (type IN ('market', 'limit')),
        qty numeric(30, 9),
        notional numeric(30, 9),
        limit_price numeric(30, 9),
        currency text NOT NULL,
        status text NOT NULL,
        provider_order_id text,
        filled_qty numeric(30, 9) NOT NULL DEFAULT 0,
        filled_avg_price numeric(30, 9),
        -- the buy's pending ledger transfer (the reserved cost) and how much it holds, in minor units
        reservation_id uuid,
        reserved_minor bigint NOT NULL DEFAULT 0,
        quote_price numeric(30, 9),
        settled boolean NOT NULL DEFAULT false,
        reject_reason text,
        submitted_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        filled_at timestamptz,
        UNIQUE (user_id, client_order_id),
        CHECK ((qty IS NULL) <> (notional IS NULL)),
        FOREIGN KEY (provider, symbol) REFERENCES investing.instrument (provider, symbol)
      )`);
    await q.query(`CREATE INDEX order_user ON investing."order" (user_id, submitted_at DESC, id)`);
    await q.query(`CREATE INDEX order_open ON investing."order" (status) WHERE NOT settled`);
    await q.query(`
      CREATE TABLE investing.fill (
        id bigserial PRIMARY KEY,
        order_id uuid NOT NULL REFERENCES investing."order"(id),
        user_id uuid NOT NULL,
        provider text NOT NULL,
        symbol text NOT NULL,
        side text NOT NULL,
        qty numeric(30, 9) NOT NULL CHECK (qty > 0),
        price numeric(30, 9) NOT NULL CHECK (price > 0),
        -- cumulative filled quantity of the order after this fill: one row per step (a replay inserts nothing)
        cumulative_qty numeric(30, 9) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (order_id, cumulative_qty)
      )`);
    await q.query('CREATE INDEX fill_user ON investing.fill (user_id, created_at DESC, id DESC)');
    await q.query(`
      CREATE TABLE investing.position (
        user_id uuid NOT NULL,
        provider text NOT NULL,
        symbol text NOT NULL,
        qty numeric(30, 9) NOT NULL DEFAULT 0 CHECK (qty >= 0),
        -- shares held by open sell orders
        held_qty numeric(30, 9) NOT NULL DEFAULT 0 CHECK (held_qty >= 0 AND held_qty <= qty),
        cost_basis numeric(30, 9) NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, provider, symbol)
      )`);
    await q.query(`
      CREATE TABLE investing.run (
        id bigserial PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('sync', 'refresh')),
        provider text,
        trigger text NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        ok integer NOT NULL DEFAULT 0,
        failed integer NOT NULL DEFAULT 0,
        deactivated integer NOT NULL DEFAULT 0,
        error text
      )`);
    await q.query('CREATE INDEX run_started ON investing.run (kind, started_at DESC)');
    await q.query(idempotencyTableSql('investing'));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE investing.idempotency_key, investing.run, investing.position, investing.fill, investing."order", investing.instrument');
  }
}
