import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `licensing.meter`: counts a batch of a licence's requests in its rate window in one statement (group
 * commit, store/licence-store.ts `meter`). Under the window row's lock, only as many as the limit leaves
 * are counted: `granted` of `p_requests`, and `used`, the window's count after them. A window other than
 * the stored one starts afresh, as the one-request statement before it did.
 */
export class MeterBatches1766300000000 implements MigrationInterface {
  name = 'MeterBatches1766300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION licensing.meter(p_licence uuid, p_window timestamptz, p_requests int, p_limit int, OUT granted int, OUT used int)
      LANGUAGE plpgsql AS $$
      DECLARE
        stored timestamptz;
        before int;
      BEGIN
        INSERT INTO licensing.rate_window (licence_id, window_start, count) VALUES (p_licence, p_window, LEAST(p_requests, p_limit))
          ON CONFLICT (licence_id) DO NOTHING;
        IF FOUND THEN
          granted := LEAST(p_requests, p_limit); used := granted;
          RETURN;
        END IF;
        SELECT window_start, count INTO STRICT stored, before FROM licensing.rate_window WHERE licence_id = p_licence FOR UPDATE;
        IF stored <> p_window THEN
          before := 0;
        END IF;
        granted := GREATEST(0, LEAST(p_requests, p_limit - before));
        IF granted > 0 OR stored <> p_window THEN
          UPDATE licensing.rate_window SET window_start = p_window, count = before + granted WHERE licence_id = p_licence;
        END IF;
        used := before + granted;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP FUNCTION licensing.meter(uuid, timestamptz, int, int)');
  }
}
