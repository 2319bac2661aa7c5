import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Mobile packages for real: a branding names the finance node's public https address the apps open;
 * each organisation has one Android signing key (its PKCS#12 keystore and password sealed with the
 * registry's secret box), made by its first build and reused by every later one, and a versionCode
 * that grows with every build, so an update installs over the last one.
 */
export class MobileSigning1766000000000 implements MigrationInterface {
  name = 'MobileSigning1766000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE licensing.branding ADD COLUMN public_url text CHECK (public_url ~ '^https://')`);
    await q.query(`
      CREATE TABLE licensing.mobile_signing_key (
        organisation_id uuid PRIMARY KEY REFERENCES licensing.organisation(id) ON DELETE CASCADE,
        keystore_sealed text NOT NULL,
        password_sealed text NOT NULL,
        alias text NOT NULL,
        version_code integer NOT NULL DEFAULT 0 CHECK (version_code >= 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE licensing.mobile_signing_key');
    await q.query('ALTER TABLE licensing.branding DROP COLUMN public_url');
  }
}
