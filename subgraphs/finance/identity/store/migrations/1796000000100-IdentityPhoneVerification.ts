import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Phone numbers are verified by a one-time code before they receive transfers:
 * - `node_user.phone_verified_at`: null while the number is a pending claim. Numbers stored before
 *   this migration stay UNVERIFIED (their owners ask for a code again): marking them verified would
 *   keep the hole this closes (a number anyone could claim first).
 * - only verified numbers are unique: a pending claim never blocks anyone else;
 * - `phone_code`: the one code of a user's pending claim (HMAC of user, number and code), its
 *   expiry and the wrong guesses it has had;
 * - `sms_outbox`: what the offline sandbox SMS provider "sent" (tests and administrators read it).
 */
export class IdentityPhoneVerification1796000000100 implements MigrationInterface {
  name = 'IdentityPhoneVerification1796000000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE identity.node_user ADD COLUMN phone_verified_at timestamptz');
    await q.query('ALTER TABLE identity.node_user ADD CONSTRAINT node_user_phone_verified_has_phone CHECK (phone_verified_at IS NULL OR phone IS NOT NULL)');
    await q.query('DROP INDEX identity.node_user_phone');
    await q.query('CREATE UNIQUE INDEX node_user_phone ON identity.node_user (phone) WHERE phone_verified_at IS NOT NULL');
    await q.query('CREATE INDEX node_user_phone_pending ON identity.node_user (phone) WHERE phone IS NOT NULL AND phone_verified_at IS NULL');
    await q.query(`CREATE TABLE identity.phone_code (
      user_id uuid PRIMARY KEY REFERENCES identity.node_user (id) ON DELETE CASCADE,
      phone text NOT NULL,
      code_hash bytea NOT NULL,
      failures integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE TABLE identity.sms_outbox (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      to_number text NOT NULL,
      body text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query('CREATE INDEX sms_outbox_to ON identity.sms_outbox (to_number, created_at DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE identity.sms_outbox');
    await q.query('DROP TABLE identity.phone_code');
    await q.query('DROP INDEX identity.node_user_phone_pending');
    await q.query('DROP INDEX identity.node_user_phone');
    // pending claims may share a number: only the verified ones (or the first of each) keep it
    await q.query(`UPDATE identity.node_user u SET phone = NULL WHERE phone IS NOT NULL AND phone_verified_at IS NULL
      AND EXISTS (SELECT 1 FROM identity.node_user o WHERE o.phone = u.phone AND o.id <> u.id AND (o.phone_verified_at IS NOT NULL OR o.id < u.id))`);
    await q.query('CREATE UNIQUE INDEX node_user_phone ON identity.node_user (phone) WHERE phone IS NOT NULL');
    await q.query('ALTER TABLE identity.node_user DROP CONSTRAINT node_user_phone_verified_has_phone');
    await q.query('ALTER TABLE identity.node_user DROP COLUMN phone_verified_at');
  }
}
