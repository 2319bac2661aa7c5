import type { MigrationInterface, QueryRunner } from 'typeorm';
import { idempotencyTableSql } from '../../../../../lib/idempotency';

/**
 * Virtual cards (schema `cards`): the card's number only sealed (lib/secret-box, bound to the card's
 * id), its last four digits in clear; spend limits in minor units; authorisations from the issuer,
 * one row per issuer authorisation id (a redelivered webhook finds it); every reveal of a number
 * audited.
 */
export class CardsInit1734100000000 implements MigrationInterface {
  name = 'CardsInit1734100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE cards.card (
        id uuid PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        user_id uuid NOT NULL,
        provider text NOT NULL,
        provider_card_id text NOT NULL,
        pan_sealed text NOT NULL,
        last4 text NOT NULL CHECK (last4 ~ '^[0-9]{4}$'),
        brand text NOT NULL,
        exp_month int NOT NULL CHECK (exp_month BETWEEN 1 AND 12),
        exp_year int NOT NULL,
        currency text NOT NULL,
        status text NOT NULL CHECK (status IN ('active', 'frozen')),
        per_authorisation_limit bigint CHECK (per_authorisation_limit > 0),
        daily_limit bigint CHECK (daily_limit > 0),
        -- the holder's verified level as of their last card request (authorisations arrive without a user)
        kyc_level text NOT NULL DEFAULT 'none',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (provider, provider_card_id)
      )`);
    await q.query('CREATE INDEX card_user ON cards.card (user_id, created_at DESC, seq DESC)');
    await q.query(`
      CREATE TABLE cards.authorisation (
        id uuid PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        card_id uuid NOT NULL REFERENCES cards.card(id),
        provider_authorisation_id text NOT NULL,
        amount bigint NOT NULL CHECK (amount > 0),
        currency text NOT NULL,
        merchant_name text NOT NULL DEFAULT '',
        merchant_category text NOT NULL DEFAULT '',
        status text NOT NULL CHECK (status IN ('pending', 'declined', 'captured', 'released')),
        decline_reason text,
        captured_amount bigint,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (card_id, provider_authorisation_id),
        CHECK ((status = 'declined') = (decline_reason IS NOT NULL))
      )`);
    await q.query('CREATE INDEX authorisation_card ON cards.authorisation (card_id, created_at DESC, seq DESC)');
    await q.query(`
      CREATE TABLE cards.reveal (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        card_id uuid NOT NULL REFERENCES cards.card(id),
        user_id uuid NOT NULL,
        request_id text NOT NULL,
        client_address text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(idempotencyTableSql('cards'));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE cards.reveal, cards.authorisation, cards.card, cards.idempotency_key');
  }
}
