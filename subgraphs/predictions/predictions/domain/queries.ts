import { badInput, notFound } from '../../../../lib/errors';
import { decodeCursor, encodeCursor, pageSize } from '../../../../lib/pagination';
import type { PredictionRow, PredictionStore, RunRow, VersionRow } from '../store/prediction-store';
import type { ActiveModel } from './active-model';
import type { Statistics } from './statistics';
import type { FootballData } from './football-data';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface BacktestPage {
  rows: PredictionRow[];
  hasNextPage: boolean;
  endCursor: string | null;
}

/** A list's length: 1..100 (a 400 naming `limit` otherwise). */
function checkFirst(first: number): void {
  if (!Number.isInteger(first) || first < 1 || first > 100) throw badInput('first must be between 1 and 100.', { limit: ['must be between 1 and 100'] });
}

/** What "latest" holds: the upcoming fixtures, or — when none is known — the most recent played matches. */
export interface LatestPredictions {
  state: 'upcoming' | 'recent' | 'none';
  notice: string | null;
  rows: PredictionRow[];
}

/** What the prediction API reads: predictions, versions and training jobs, with the rules of each read. */
export class PredictionQueries {
  constructor(
    private readonly store: PredictionStore,
    private readonly active: ActiveModel,
    private readonly statistics: Statistics,
    private readonly football: Pick<FootballData, 'resolveTeam'>,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * The latest predictions, never empty while predictions exist: the upcoming fixtures first (soonest
   * first); when no fixture is known (off-season, a feed behind), the most recent played matches with
   * their outcome (latest first). The notice says which.
   */
  async latest(first: number, competition?: string): Promise<LatestPredictions> {
    checkFirst(first);
    const active = await this.active.get();
    // one statement: the upcoming list, else the recent one
    const latest = active ? await this.store.latest(active.version.id, first, this.clock(), competition) : { upcoming: false, rows: [] };
    if (latest.upcoming) return { state: 'upcoming', notice: null, rows: latest.rows };
    const recent = latest.rows;
    if (!recent.length) return { state: 'none', notice: 'No prediction is known yet.', rows: [] };
    const through = recent[0].kickoff.toISOString().slice(0, 10);
    return {
      state: 'recent',
      notice: `No upcoming fixture is known${competition ? ` in ${competition}` : ''}: these are the most recent played matches' predictions, with their outcome (the latest on ${through}).`,
      rows: recent,
    };
  }

  /**
   * The active version's predictions for the next fixtures from now, soonest first (none before a
   * version is active). A match whose kick-off has passed without a result is awaiting its result:
   * it is in no upcoming list.
   */
  async upcoming(first: number, competition?: string): Promise<PredictionRow[]> {
    checkFirst(first);
    const active = await this.active.get();
    return active ? this.store.upcoming(active.version.id, first, this.clock(), competition) : [];
  }

  /**
   * The active version's predictions, filtered and keyset-paginated: UPCOMING (kicking off after now,
   * soonest first) or RESOLVED (the track record: each beside its result, latest first).
   */
  async find(
    filter: {
      state: 'upcoming' | 'resolved';
      competition?: string | null;
      team?: string | null;
      from?: Date | null;
      to?: Date | null;
      correct?: boolean | null;
      source?: 'backtest' | 'upcoming' | null;
    },
    page: { first?: number | null; after?: string | null },
  ): Promise<BacktestPage> {
    const limit = pageSize(page.first, 20, 100);
    if (filter.from && filter.to && filter.from > filter.to) throw badInput('from must not be after to.', { from: ['must not be after to'] });
    let teamId: number | undefined;
    if (filter.team) {
      const r = await this.football.resolveTeam(filter.team, filter.competition ?? undefined);
      if (r.status !== 'FOUND') {
        const names = r.candidates.map((c) => c.name);
        throw badInput(r.status === 'AMBIGUOUS' ? `"${filter.team}" is ambiguous: ${names.join(', ')}.` : `No team matches "${filter.team}".`, {
          team: names.length ? names : [`no team matches "${filter.team}"`],
        });
      }
      teamId = r.team.id;
    }
    const active = await this.active.get();
    if (!active) return { rows: [], hasNextPage: false, endCursor: null };
    const cursor = page.after ? decodeCursor(page.after) : undefined;
    const rows = await this.store.findPredictions(active.version.id, {
      state: filter.state,
      now: this.clock(),
      competition: filter.competition ?? undefined,
      teamId,
      from: filter.from ?? undefined,
      to: filter.to ?? undefined,
      correct: filter.correct ?? undefined,
      source: filter.source ?? undefined,
      after: cursor && { kickoff: cursor.at, id: cursor.id },
      limit: limit + 1,
    });
    const out = rows.slice(0, limit);
    const last = out[out.length - 1];
    return { rows: out, hasNextPage: rows.length > limit, endCursor: last ? encodeCursor(last.kickoff, last.matchId) : null };
  }

  /** Every version, oldest first, with its accuracy over its own resolved predictions. */
  async versions(): Promise<{ version: VersionRow; accuracy: number | null }[]> {
    const [versions, accuracy] = await Promise.all([this.store.versions(), this.statistics.compareVersions()]);
    const byNumber = new Map(accuracy.map((a) => [a.number, a.accuracy]));
    return versions.map((version) => ({ version, accuracy: byNumber.get(version.number) ?? null }));
  }

  /** The accuracy of one version (null when none of its predictions is resolved). */
  async accuracyOf(version: VersionRow): Promise<number | null> {
    return (await this.statistics.compareVersions()).find((a) => a.number === version.number)?.accuracy ?? null;
  }

  async job(id: string): Promise<RunRow> {
    const run = UUID_RE.test(id) ? await this.store.run(id) : undefined;
    if (!run) throw notFound('No such training job.');
    return run;
  }

  /** The retrain in progress, else the latest one. */
  async currentJob(): Promise<RunRow | undefined> {
    return (await this.store.activeRun()) ?? (await this.store.runs(1))[0];
  }

  async jobs(first: number): Promise<RunRow[]> {
    if (!Number.isInteger(first) || first < 1 || first > 100) throw badInput('first must be between 1 and 100.');
    return this.store.runs(first);
  }

  /** A version's walk-forward backtest by kick-off, keyset-paginated; no version: the active one. */
  async backtest(opts: { version: number | null; competition?: string; first: number; after: string | null }): Promise<BacktestPage> {
    const limit = pageSize(opts.first, 50, 500);
    const v = opts.version === null ? (await this.active.get())?.version : await this.store.versionByNumber(opts.version);
    if (!v) throw notFound(opts.version === null ? 'No model version is active yet.' : `No model version ${opts.version}.`);
    const cursor = opts.after ? decodeCursor(opts.after) : undefined;
    const rows = await this.store.backtest(v.id, { competition: opts.competition, after: cursor && { kickoff: cursor.at, id: cursor.id }, limit: limit + 1 });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { rows: page, hasNextPage: rows.length > limit, endCursor: last ? encodeCursor(last.kickoff, last.matchId) : null };
  }

  /** The active version's predictions for a batch of matches, in the order asked, in one query (entity batching). */
  async activeFor(matchIds: readonly number[]): Promise<(PredictionRow | null)[]> {
    const active = await this.active.get();
    if (!active) return matchIds.map(() => null);
    const rows = await this.store.byMatchIds(active.version.id, matchIds);
    const byMatch = new Map(rows.map((r) => [r.matchId, r]));
    return matchIds.map((id) => byMatch.get(id) ?? null);
  }

  /** Every version's prediction for one match. */
  history(matchId: number): Promise<PredictionRow[]> {
    return this.store.history(matchId);
  }
}
