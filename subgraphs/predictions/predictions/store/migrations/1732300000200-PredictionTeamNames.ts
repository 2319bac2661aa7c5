import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each prediction keeps the team names it was made for, as the football data gave them: the
 * predictions subgraph can then provide Match.homeTeam/awayTeam names itself (@provides), so a
 * list of predictions with team names is one subgraph fetch instead of two.
 */
export class PredictionTeamNames1732300000200 implements MigrationInterface {
  name = 'PredictionTeamNames1732300000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE predictions.prediction ADD COLUMN home_team_name text NOT NULL DEFAULT '', ADD COLUMN away_team_name text NOT NULL DEFAULT ''`);
    await q.query(`ALTER TABLE predictions.prediction ALTER COLUMN home_team_name DROP DEFAULT, ALTER COLUMN away_team_name DROP DEFAULT`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE predictions.prediction DROP COLUMN home_team_name, DROP COLUMN away_team_name');
  }
}
