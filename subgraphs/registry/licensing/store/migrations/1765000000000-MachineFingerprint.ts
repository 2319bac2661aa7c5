import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A deployment is a machine, identified by the fingerprint its installer computes (SHA-256 of the
 * machine id and the product), no longer by its host name: two machines of the same name hold two
 * seats, and neither is answered the other's deploymentKey. Rows registered before keep their seat
 * under the fingerprint a registration without one gets (SHA-256 of "hostname:<name>").
 */
export class MachineFingerprint1765000000000 implements MigrationInterface {
  name = 'MachineFingerprint1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE licensing.deployment ADD COLUMN machine_fingerprint text');
    await q.query(`UPDATE licensing.deployment SET machine_fingerprint = encode(sha256(convert_to('hostname:' || hostname, 'UTF8')), 'hex')`);
    await q.query('ALTER TABLE licensing.deployment ALTER COLUMN machine_fingerprint SET NOT NULL');
    await q.query('ALTER TABLE licensing.deployment DROP CONSTRAINT deployment_licence_id_hostname_key');
    await q.query('ALTER TABLE licensing.deployment ADD CONSTRAINT deployment_licence_machine UNIQUE (licence_id, machine_fingerprint)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE licensing.deployment DROP CONSTRAINT deployment_licence_machine');
    await q.query('ALTER TABLE licensing.deployment ADD CONSTRAINT deployment_licence_id_hostname_key UNIQUE (licence_id, hostname)');
    await q.query('ALTER TABLE licensing.deployment DROP COLUMN machine_fingerprint');
  }
}
