import type { MigrationInterface, QueryRunner } from 'typeorm';

export class FootballInit1732200000100 implements MigrationInterface {
  name = 'FootballInit1732200000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE football.competition (
        id serial PRIMARY KEY,
        code text NOT NULL UNIQUE,
        name text NOT NULL,
        country text NOT NULL,
        tier smallint NOT NULL
      )`);
    await q.query(`
      CREATE TABLE football.team (
        id serial PRIMARY KEY,
        name text NOT NULL UNIQUE,
        country text NOT NULL
      )`);
    await q.query(`
      CREATE TABLE football.team_alias (
        team_id integer NOT NULL REFERENCES football.team(id) ON DELETE CASCADE,
        alias text NOT NULL,
        PRIMARY KEY (team_id, alias)
      )`);
    await q.query(`
      CREATE TABLE football.match (
        id serial PRIMARY KEY,
        competition_id integer NOT NULL REFERENCES football.competition(id),
        season text NOT NULL CHECK (season ~ '^[0-9]{4}-[0-9]{2}$'),
        stage text NOT NULL,
        round text,
        match_date date NOT NULL,
        kickoff timestamptz NOT NULL,
        home_team_id integer NOT NULL REFERENCES football.team(id),
        away_team_id integer NOT NULL REFERENCES football.team(id),
        status text NOT NULL CHECK (status IN ('scheduled', 'finished', 'cancelled', 'awarded', 'postponed')),
        home_goals smallint CHECK (home_goals >= 0),
        away_goals smallint CHECK (away_goals >= 0),
        home_goals_ht smallint CHECK (home_goals_ht >= 0),
        away_goals_ht smallint CHECK (away_goals_ht >= 0),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (home_team_id <> away_team_id),
        CHECK ((home_goals IS NULL) = (away_goals IS NULL)),
        UNIQUE (competition_id, season, stage, home_team_id, away_team_id)
      )`);
    await q.query('CREATE INDEX match_kickoff_idx ON football.match (kickoff, id)');
    await q.query(`CREATE INDEX match_scheduled_idx ON football.match (kickoff, id) WHERE status = 'scheduled'`);
    await q.query('CREATE INDEX match_home_idx ON football.match (home_team_id, kickoff)');
    await q.query('CREATE INDEX match_away_idx ON football.match (away_team_id, kickoff)');
    await q.query('CREATE INDEX match_competition_season_idx ON football.match (competition_id, season, kickoff)');
    await q.query(`
      CREATE TABLE football.data_import (
        id serial PRIMARY KEY,
        source text NOT NULL,
        checksum text NOT NULL,
        matches integer NOT NULL,
        inserted integer NOT NULL,
        updated integer NOT NULL,
        imported_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['data_import', 'match', 'team_alias', 'team', 'competition']) await q.query(`DROP TABLE football.${t}`);
  }
}
