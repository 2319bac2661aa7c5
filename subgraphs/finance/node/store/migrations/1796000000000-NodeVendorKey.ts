import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The vendor key the node trusts: pinned by the first licence installed, when the
 * node was not built with keys of its own (vendor-keys.pem). A licence signed by another key is refused.
 * A node that already has a licence pins its key the first time it evaluates it (NodeService).
 */
export class NodeVendorKey1796000000000 implements MigrationInterface {
  name = 'NodeVendorKey1796000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE node.vendor_key (
      id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
      fingerprint text NOT NULL CHECK (fingerprint ~ '^[0-9a-f]{64}$'),
      public_key text NOT NULL,
      source text NOT NULL,
      pinned_at timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE node.vendor_key');
  }
}
