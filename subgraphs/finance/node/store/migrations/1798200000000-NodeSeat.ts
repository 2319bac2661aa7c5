import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The registry licence key a node activated with is kept beside its deployment key, so
 * that its heartbeats carry it whether or not VENDOR_API_KEY is set (the demo node of `npm start`
 * activates with the key the registry of its process printed). `node.instance` holds this node's own
 * id, made at its first registration (not here: a database cloned from a migrated template must not
 * share it): two nodes on one machine are two seats.
 */
export class NodeSeat1798200000000 implements MigrationInterface {
  name = 'NodeSeat1798200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE node.deployment ADD COLUMN licence_key text');
    await q.query(`CREATE TABLE node.instance (
      id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
      instance_id uuid NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE node.instance');
    await q.query('ALTER TABLE node.deployment DROP COLUMN licence_key');
  }
}
