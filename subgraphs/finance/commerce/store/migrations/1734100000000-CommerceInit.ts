import type { MigrationInterface, QueryRunner } from 'typeorm';
import { idempotencyTableSql } from '../../../../../lib/idempotency';

/**
 * Shop, utilities, gift cards, disputes and rewards (schema `commerce`). Money is bigint minor units
 * with its currency; every state change of an order or a dispute is a row of its history; the
 * ledger holds the balances (the rows here only name the transfers).
 */
export class CommerceInit1734100000000 implements MigrationInterface {
  name = 'CommerceInit1734100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE commerce.product (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        description text NOT NULL DEFAULT '',
        price bigint NOT NULL CHECK (price > 0),
        currency text NOT NULL,
        stock integer NOT NULL CHECK (stock >= 0),
        active boolean NOT NULL DEFAULT true,
        image_key text,
        image_type text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE commerce.cart_item (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL,
        product_id uuid NOT NULL REFERENCES commerce.product(id),
        quantity integer NOT NULL CHECK (quantity > 0),
        added_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (user_id, product_id)
      )`);
    await q.query(`
      CREATE TABLE commerce.shop_order (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'paid', 'fulfilled', 'cancelled')),
        currency text NOT NULL,
        total bigint NOT NULL CHECK (total > 0),
        payment_transfer_id uuid,
        refund_transfer_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX shop_order_user ON commerce.shop_order (user_id, created_at DESC)');
    await q.query(`
      CREATE TABLE commerce.order_item (
        order_id uuid NOT NULL REFERENCES commerce.shop_order(id),
        product_id uuid NOT NULL REFERENCES commerce.product(id),
        name text NOT NULL,
        unit_price bigint NOT NULL,
        quantity integer NOT NULL CHECK (quantity > 0),
        PRIMARY KEY (order_id, product_id)
      )`);
    await q.query(`
      CREATE TABLE commerce.order_event (
        id bigserial PRIMARY KEY,
        order_id uuid NOT NULL REFERENCES commerce.shop_order(id),
        from_status text,
        to_status text NOT NULL,
        actor text NOT NULL,
        at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE commerce.utility_request (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN ('airtime', 'data', 'bill')),
        status text NOT NULL CHECK (status IN ('pending_integration', 'pending', 'successful', 'failed', 'reversed')),
        provider_code text NOT NULL,
        country text NOT NULL,
        phone_number text,
        account_number text,
        plan_id text,
        amount bigint NOT NULL CHECK (amount > 0),
        currency text NOT NULL,
        dispatched_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX utility_request_user ON commerce.utility_request (user_id, created_at DESC)');
    await q.query(`
      CREATE TABLE commerce.gift_card_order (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL,
        brand_id text NOT NULL,
        country text NOT NULL,
        denomination bigint NOT NULL CHECK (denomination > 0),
        currency text NOT NULL,
        quantity integer NOT NULL CHECK (quantity BETWEEN 1 AND 10),
        recipient_email text,
        fulfilment text NOT NULL DEFAULT 'pending' CHECK (fulfilment IN ('pending', 'fulfilled', 'failed')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE commerce.dispute (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL,
        transfer_id uuid NOT NULL,
        amount bigint NOT NULL,
        currency text NOT NULL,
        reason text NOT NULL,
        description text NOT NULL,
        status text NOT NULL CHECK (status IN ('open', 'under_review', 'resolved', 'rejected', 'cancelled')),
        resolution_note text,
        reversal_transfer_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // one live dispute per transaction (a closed one may be followed by another)
    await q.query(`CREATE UNIQUE INDEX dispute_live_per_transfer ON commerce.dispute (transfer_id) WHERE status IN ('open', 'under_review')`);
    // a transaction is reversed at most once
    await q.query('CREATE UNIQUE INDEX dispute_reversed_once ON commerce.dispute (transfer_id) WHERE reversal_transfer_id IS NOT NULL');
    await q.query(`
      CREATE TABLE commerce.dispute_attachment (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        dispute_id uuid NOT NULL REFERENCES commerce.dispute(id),
        object_key text NOT NULL,
        filename text NOT NULL,
        content_type text NOT NULL,
        size integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE commerce.dispute_message (
        id bigserial PRIMARY KEY,
        dispute_id uuid NOT NULL REFERENCES commerce.dispute(id),
        author_role text NOT NULL CHECK (author_role IN ('user', 'admin')),
        author text NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE commerce.dispute_event (
        id bigserial PRIMARY KEY,
        dispute_id uuid NOT NULL REFERENCES commerce.dispute(id),
        from_status text,
        to_status text NOT NULL,
        actor text NOT NULL,
        note text,
        at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE commerce.referral_code (
        user_id uuid PRIMARY KEY,
        code text NOT NULL UNIQUE
      )`);
    await q.query(`
      CREATE TABLE commerce.referral (
        referred_user_id uuid PRIMARY KEY,
        referrer_user_id uuid NOT NULL CHECK (referrer_user_id <> referred_user_id),
        created_at timestamptz NOT NULL DEFAULT now(),
        rewarded_at timestamptz
      )`);
    await q.query(`
      CREATE TABLE commerce.reward_event (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        rule text NOT NULL,
        points bigint NOT NULL,
        reference text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX reward_event_user ON commerce.reward_event (user_id, created_at DESC)');
    await q.query(idempotencyTableSql('commerce'));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'idempotency_key',
      'reward_event',
      'referral',
      'referral_code',
      'dispute_event',
      'dispute_message',
      'dispute_attachment',
      'dispute',
      'gift_card_order',
      'utility_request',
      'order_event',
      'order_item',
      'shop_order',
      'cart_item',
      'product',
    ])
      await q.query(`DROP TABLE commerce.${table}`);
  }
}
