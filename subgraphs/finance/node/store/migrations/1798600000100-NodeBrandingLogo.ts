import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The uploaded logo: its object in the object store (`branding/logo/<sha256>.<ext>`), type
 * (from its bytes), size and SHA-256 (the ETag it is served with). `logo_url` then holds the public path
 * (`/api/v1/config/logo/?v=…`); a `logo_url` without these columns is a value saved before uploads existed
 * (a data: URI or an https URL), which the node no longer shows (docs/finance.md, "Branding and the logo").
 */
export class NodeBrandingLogo1798600000100 implements MigrationInterface {
  name = 'NodeBrandingLogo1798600000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE node.branding
      ADD COLUMN logo_object_key text,
      ADD COLUMN logo_content_type text,
      ADD COLUMN logo_size integer,
      ADD COLUMN logo_sha256 text,
      ADD COLUMN logo_uploaded_at timestamptz,
      ADD CONSTRAINT branding_logo_whole CHECK (
        (logo_object_key IS NULL) = (logo_content_type IS NULL) AND (logo_object_key IS NULL) = (logo_size IS NULL)
        AND (logo_object_key IS NULL) = (logo_sha256 IS NULL) AND (logo_object_key IS NULL) = (logo_uploaded_at IS NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE node.branding DROP CONSTRAINT branding_logo_whole, DROP COLUMN logo_object_key, DROP COLUMN logo_content_type,
      DROP COLUMN logo_size, DROP COLUMN logo_sha256, DROP COLUMN logo_uploaded_at`);
  }
}
