import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AccessInit1732200000000 implements MigrationInterface {
  name = 'AccessInit1732200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE access.api_key (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        prefix text NOT NULL UNIQUE,
        hash bytea NOT NULL,
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        email text,
        role text NOT NULL CHECK (role IN ('client', 'admin')),
        plan_code text NOT NULL CHECK (plan_code IN ('free', 'pro', 'enterprise')),
        daily_limit integer CHECK (daily_limit > 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz,
        last_used_at timestamptz
      )`);
    await q.query(`
      CREATE TABLE access.daily_usage (
        key_id uuid NOT NULL REFERENCES access.api_key(id) ON DELETE CASCADE,
        day date NOT NULL,
        count integer NOT NULL CHECK (count >= 0),
        PRIMARY KEY (key_id, day)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE access.daily_usage');
    await q.query('DROP TABLE access.api_key');
  }
}
