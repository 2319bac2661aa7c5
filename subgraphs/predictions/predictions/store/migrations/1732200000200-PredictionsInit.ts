import type { MigrationInterface, QueryRunner } from 'typeorm';

export class PredictionsInit1732200000200 implements MigrationInterface {
  name = 'PredictionsInit1732200000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE predictions.model_version (
        id serial PRIMARY KEY,
        number integer NOT NULL UNIQUE,
        kind text NOT NULL,
        hyper jsonb NOT NULL,
        state jsonb NOT NULL,
        training_from date NOT NULL,
        trained_through date NOT NULL,
        match_count integer NOT NULL,
        evaluation jsonb NOT NULL,
        metrics jsonb,
        training_ms integer NOT NULL,
        is_active boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        activated_at timestamptz
      )`);
    // exactly one active version at a time
    await q.query('CREATE UNIQUE INDEX model_version_one_active ON predictions.model_version ((true)) WHERE is_active');
    await q.query(`
      CREATE TABLE predictions.prediction (
        id bigserial PRIMARY KEY,
        version_id integer NOT NULL REFERENCES predictions.model_version(id) ON DELETE CASCADE,
        match_id integer NOT NULL,
        source text NOT NULL CHECK (source IN ('backtest', 'upcoming')),
        competition text NOT NULL,
        season text NOT NULL,
        kickoff timestamptz NOT NULL,
        home_team_id integer NOT NULL,
        away_team_id integer NOT NULL,
        p_home double precision NOT NULL,
        p_draw double precision NOT NULL,
        p_away double precision NOT NULL,
        exp_home_goals double precision NOT NULL,
        exp_away_goals double precision NOT NULL,
        predicted_outcome char(1) NOT NULL CHECK (predicted_outcome IN ('H', 'D', 'A')),
        confidence double precision NOT NULL CHECK (confidence BETWEEN 0 AND 1),
        actual_outcome char(1) CHECK (actual_outcome IN ('H', 'D', 'A')),
        correct boolean,
        created_at timestamptz NOT NULL DEFAULT now(),
        resolved_at timestamptz,
        UNIQUE (version_id, match_id)
      )`);
    await q.query(`CREATE INDEX prediction_upcoming_idx ON predictions.prediction (version_id, kickoff, match_id) WHERE actual_outcome IS NULL`);
    await q.query('CREATE INDEX prediction_match_idx ON predictions.prediction (match_id)');
    await q.query(`
      CREATE TABLE predictions.training_run (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        kind text NOT NULL,
        status text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
        phase text,
        progress double precision NOT NULL DEFAULT 0,
        requested_by text NOT NULL,
        version_id integer REFERENCES predictions.model_version(id) ON DELETE SET NULL,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz,
        heartbeat_at timestamptz NOT NULL DEFAULT now()
      )`);
    // one retrain at a time: a second one queued or running is a conflict
    await q.query(`CREATE UNIQUE INDEX training_run_one_active ON predictions.training_run ((true)) WHERE status IN ('queued', 'running')`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['training_run', 'prediction', 'model_version']) await q.query(`DROP TABLE predictions.${t}`);
  }
}
