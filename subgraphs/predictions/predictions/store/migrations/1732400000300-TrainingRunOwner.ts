import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A training run records the process that runs it (`owner`) and its pg-boss job (`job_id`, sent in
 * the same transaction as the run): a run whose owner died, or whose job is gone, is found at once
 * and failed with a reason instead of blocking new retrains.
 */
export class TrainingRunOwner1732400000300 implements MigrationInterface {
  name = 'TrainingRunOwner1732400000300';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE predictions.training_run ADD COLUMN owner text, ADD COLUMN job_id uuid');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE predictions.training_run DROP COLUMN owner, DROP COLUMN job_id');
  }
}
