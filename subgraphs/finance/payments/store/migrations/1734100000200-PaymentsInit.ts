import type { MigrationInterface, QueryRunner } from 'typeorm';
import { idempotencyTableSql } from '../../../../../lib/idempotency';

/**
 * The payments module's own records: idempotency keys of its money-moving requests, FX quotes (a
 * quote is executed at most once: `conversion_key` claims it for one request), and provider events
 * (webhooks and callbacks of external parties, kept verbatim for the admin console; unique per
 * provider and event id, so a delivery that comes twice is recorded once).
 */
export class PaymentsInit1734100000200 implements MigrationInterface {
  name = 'PaymentsInit1734100000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(idempotencyTableSql('payments'));
    await q.query(`
      CREATE TABLE payments.fx_quote (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        source_currency text NOT NULL,
        target_currency text NOT NULL,
        -- minor units of each currency
        source_amount bigint NOT NULL CHECK (source_amount > 0),
        fee bigint NOT NULL CHECK (fee >= 0),
        target_amount bigint NOT NULL CHECK (target_amount > 0),
        rate text NOT NULL,
        provider text NOT NULL,
        expires_at timestamptz NOT NULL,
        conversion_key text,
        converted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (source_currency <> target_currency)
      )`);
    await q.query('CREATE INDEX fx_quote_user ON payments.fx_quote (user_id, created_at DESC)');
    await q.query(`
      CREATE TABLE payments.provider_event (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        provider text NOT NULL,
        event_id text NOT NULL,
        type text NOT NULL,
        status text NOT NULL DEFAULT 'received' CHECK (status IN ('received', 'processed', 'failed', 'ignored')),
        payload jsonb NOT NULL DEFAULT '{}',
        error text,
        received_at timestamptz NOT NULL DEFAULT now(),
        processed_at timestamptz,
        UNIQUE (provider, event_id)
      )`);
    await q.query('CREATE INDEX provider_event_received ON payments.provider_event (received_at DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE payments.provider_event');
    await q.query('DROP TABLE payments.fx_quote');
    await q.query('DROP TABLE payments.idempotency_key');
  }
}
