import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One account per e-mail address, where the data lives:
 * - a unique index on the normalised address (`lower(btrim(email))`, non-empty addresses), so that
 *   concurrent sign-ups with one address make one account whatever the application does;
 * - existing duplicates are FLAGGED, not deleted: in each group of accounts sharing an address, the
 *   holder kept is the one verified first (else the oldest); the others lose the address (email '',
 *   unverified) and get a row in `identity.email_duplicate` (their user, the address they had, the
 *   account that kept it), for an operator to follow up; they still sign in with their user name;
 * - `identity.signup_request`: a sign-up with an address another account claims but has not verified
 *   (a pending claim): no account until the link mailed to the address is used; then the account is
 *   created verified and the pending claim loses the address (the verified sign-up wins).
 */
export class IdentityUniqueEmail1798000000100 implements MigrationInterface {
  name = 'IdentityUniqueEmail1798000000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE identity.email_duplicate (
      user_id uuid PRIMARY KEY REFERENCES identity.node_user (id) ON DELETE CASCADE,
      email text NOT NULL,
      kept_by uuid REFERENCES identity.node_user (id) ON DELETE SET NULL,
      flagged_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`WITH ranked AS (
        SELECT id, email, first_value(id) OVER w AS keeper, row_number() OVER w AS n
          FROM identity.node_user WHERE btrim(email) <> ''
        WINDOW w AS (PARTITION BY lower(btrim(email)) ORDER BY email_verified_at ASC NULLS LAST, date_joined, id)
      ), flagged AS (
        INSERT INTO identity.email_duplicate (user_id, email, kept_by) SELECT id, email, keeper FROM ranked WHERE n > 1 RETURNING user_id
      )
      UPDATE identity.node_user SET email = '', email_verified_at = NULL WHERE id IN (SELECT user_id FROM flagged)`);
    await q.query(`CREATE UNIQUE INDEX node_user_email_unique ON identity.node_user (lower(btrim(email))) WHERE email <> ''`);
    await q.query(`CREATE TABLE identity.signup_request (
      id uuid PRIMARY KEY,
      token_hash bytea NOT NULL UNIQUE,
      username text NOT NULL,
      email text NOT NULL,
      password_hash text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE identity.signup_request');
    await q.query('DROP INDEX identity.node_user_email_unique');
    await q.query('DROP TABLE identity.email_duplicate');
  }
}
