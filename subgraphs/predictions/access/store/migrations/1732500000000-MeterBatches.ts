import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Metering as one function call for a batch of requests of one key (ApiKeyStore.meter): the key must
 * be active (a revocation counts at once, whatever a cached key row says), its last use is recorded
 * (at most every 30 s), and of `requests` requests as many are granted as today's count leaves under
 * the limit, under the count row's lock. Returns how many were granted and the count after them, so
 * each request learns its own count: the k-th granted one is `used - granted + k`.
 */
export class MeterBatches1732500000000 implements MigrationInterface {
  name = 'MeterBatches1732500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION access.meter(p_key uuid, p_day date, p_requests int, p_limit int, p_now timestamptz,
                                   OUT active boolean, OUT granted int, OUT used int)
      LANGUAGE plpgsql AS $$
      DECLARE
        last_used timestamptz;
        before int;
      BEGIN
        SELECT last_used_at INTO last_used FROM access.api_key WHERE id = p_key AND revoked_at IS NULL;
        IF NOT FOUND THEN
          active := false; granted := 0; used := NULL;
          RETURN;
        END IF;
        active := true;
        IF last_used IS NULL OR last_used < p_now - interval '30 seconds' THEN
          UPDATE access.api_key SET last_used_at = p_now WHERE id = p_key;
        END IF;
        INSERT INTO access.daily_usage (key_id, day, count) VALUES (p_key, p_day, LEAST(p_requests, p_limit))
          ON CONFLICT (key_id, day) DO NOTHING;
        IF FOUND THEN
          granted := LEAST(p_requests, p_limit); used := granted;
          RETURN;
        END IF;
        SELECT count INTO before FROM access.daily_usage WHERE key_id = p_key AND day = p_day FOR UPDATE;
        granted := GREATEST(0, LEAST(p_requests, p_limit - before));
        IF granted > 0 THEN
          UPDATE access.daily_usage SET count = before + granted WHERE key_id = p_key AND day = p_day;
        END IF;
        used := before + granted;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP FUNCTION access.meter(uuid, date, int, int, timestamptz)');
  }
}
