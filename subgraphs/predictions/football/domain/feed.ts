import type { Logger } from '../../../../lib/logger';
import { DomainError } from '../../../../lib/errors';
import { displayUrl, type FeedResponse } from '../store/feed-client';
import type { FeedRunRow, FeedSourceRow, FeedStore } from '../store/feed-store';
import { competitionByCode, validateSeason, type RawSeasonFile } from './dataset';
import type { ParsedFeed } from './feed-formats';
import { FeedParseError, FeedReader, type FeedRead } from './feed-parse';
import type { ImportOptions, ImportReport } from './loader';

/** One configured source: a competition's season at a URL. */
export interface FeedSource {
  key: string;
  competition: string;
  season: string;
  url: string;
  /** A season that may not be published yet (the default sources' next season): its 404 is no failure, and nothing is recorded. */
  optional?: boolean;
}

/** `<competition>@<season>=<url>` entries (FOOTBALL_FEED_URLS) → sources; a wrong entry stops the start. */
export function parseFeedSources(entries: readonly string[]): FeedSource[] {
  const sources = entries.map((entry) => {
    const m = /^([a-z]{2}\.\d)@(\d{4}-\d{2})=(https?:\/\/\S+)$/.exec(entry.trim());
    if (!m) throw new Error(`FOOTBALL_FEED_URLS: "${entry}" is not <competition>@<season>=<url>`);
    if (!competitionByCode(m[1])) throw new Error(`FOOTBALL_FEED_URLS: unknown competition "${m[1]}" in "${entry}"`);
    validateSeason(m[2]);
    return { key: `${m[1]}@${m[2]}`, competition: m[1], season: m[2], url: m[3] };
  });
  const keys = new Set<string>();
  for (const s of sources) {
    if (keys.has(s.key)) throw new Error(`FOOTBALL_FEED_URLS: ${s.key} is configured twice`);
    keys.add(s.key);
  }
  return sources;
}

export type SourceStatus = 'changed' | 'unchanged' | 'not-modified' | 'not-published' | 'failed';

export interface SourceOutcome {
  key: string;
  url: string;
  status: SourceStatus;
  format: string | null;
  matches: number;
  inserted: number;
  updated: number;
  newTeams: string[];
  odds: number;
  /** Rows of other divisions in a multi-division CSV. */
  skipped: number;
  error: string | null;
  ms: number;
}

export interface SyncReport {
  runId: number;
  trigger: string;
  ms: number;
  sources: SourceOutcome[];
  changed: number;
  failed: number;
}

export interface FeedStatus {
  configured: boolean;
  intervalMinutes: number;
  running: FeedRunRow | undefined;
  lastRun: FeedRunRow | undefined;
  lastSuccessAt: Date | null;
  lastError: { at: Date; message: string } | null;
  sources: (FeedSourceRow & { displayUrl: string })[];
}

export interface FootballFeedDeps {
  /** The sources, or what they are on a date (the default sources follow the season). */
  sources: readonly FeedSource[] | ((now: Date) => readonly FeedSource[]);
  /** Failures one line a pass (the default sources, unreachable offline), not one a source. */
  quiet?: boolean;
  clock?: () => Date;
  intervalMinutes: number;
  store: FeedStore;
  /** The one import path (FootballServices.importSeason): validates the whole file, then writes it in one transaction. */
  importSeason(competition: string, season: string, file: RawSeasonFile, opts: ImportOptions): Promise<ImportReport>;
  fetch(url: string, validators: { etag: string | null; lastModified: string | null }): Promise<FeedResponse>;
  /** GETs and parses a source off the event loop in one step (FeedReader.read); when absent, `fetch` then `parse`. */
  read?(url: string, validators: { etag: string | null; lastModified: string | null }, competition: string): Promise<FeedRead>;
  /** Reads a fetched body into a season file, off the event loop (default: a FeedReader of its own). */
  parse?(body: Buffer, competition: string): Promise<{ parsed: ParsedFeed; checksum: string }>;
  logger: Logger;
}

const zero = (key: string, url: string): Omit<SourceOutcome, 'status' | 'ms'> => ({
  key,
  url: displayUrl(url),
  format: null,
  matches: 0,
  inserted: 0,
  updated: 0,
  newTeams: [],
  odds: 0,
  skipped: 0,
  error: null,
});

export const feedNotConfigured = () => new DomainError('FEED_NOT_CONFIGURED', 409, 'No feed source is configured (FOOTBALL_FEED_URLS).');

/**
 * The live data feed: pulls each configured source (conditional GET), recognises its format, and
 * imports it through the loader's import path — the whole file is validated before anything is
 * written, and written in one transaction, so a malformed, truncated or inconsistent file changes
 * nothing and is reported. One pass at a time across processes.
 */
export class FootballFeed {
  private reader: FeedReader | undefined;

  constructor(private readonly deps: FootballFeedDeps) {}

  get configured(): boolean {
    return typeof this.deps.sources === 'function' || this.deps.sources.length > 0;
  }

  /** The sources followed now. */
  sources(): readonly FeedSource[] {
    const { sources, clock } = this.deps;
    return typeof sources === 'function' ? sources(clock ? clock() : new Date()) : sources;
  }

  get intervalMinutes(): number {
    return this.deps.intervalMinutes;
  }

  async sync(trigger: string): Promise<SyncReport> {
    if (!this.configured) throw feedNotConfigured();
    const { store, logger } = this.deps;
    return store.exclusively(async () => {
      const started = Date.now();
      const sources = this.sources();
      const runId = await store.startRun(trigger, sources.length);
      const outcomes: SourceOutcome[] = [];
      let error: string | null = null;
      try {
        for (const source of sources) {
          outcomes.push(await this.syncSource(source));
          await store.progress(runId, outcomes.length);
        }
      } catch (err) {
        error = (err as Error).message;
        throw err;
      } finally {
        const failed = outcomes.filter((o) => o.status === 'failed');
        await store
          .finishRun(runId, {
            changed: outcomes.filter((o) => o.status === 'changed').length,
            failed: failed.length,
            error: error ?? (failed.length ? failed.map((f) => `${f.key}: ${f.error}`).join('; ') : null),
          })
          .catch((err: unknown) => logger.warn({ err }, 'feed: could not record the end of a pass'));
      }
      const report: SyncReport = {
        runId,
        trigger,
        ms: Date.now() - started,
        sources: outcomes,
        changed: outcomes.filter((o) => o.status === 'changed').length,
        failed: outcomes.filter((o) => o.status === 'failed').length,
      };
      logger.info({ runId, trigger, ms: report.ms, changed: report.changed, failed: report.failed }, 'football feed: pass done');
      if (this.deps.quiet && report.failed) {
        const first = outcomes.find((o) => o.status === 'failed');
        logger.warn(
          { failed: report.failed, of: outcomes.length, first: first?.error },
          'football feed: default sources failed (offline?), nothing of them was written',
        );
      }
      return report;
    });
  }

  private async syncSource(source: FeedSource): Promise<SourceOutcome> {
    const { store, logger } = this.deps;
    const started = Date.now();
    if (!source.optional) await store.register(source);
    const known = await store.source(source.key);
    const base = zero(source.key, source.url);
    let format: string | null = known?.format ?? null;
    try {
      const res = await this.readOptional(source, known);
      if (!res) return { ...base, status: 'not-published', ms: Date.now() - started };
      if (res.status === 'not-modified') {
        const outcome: SourceOutcome = { ...base, format, status: 'not-modified', ms: Date.now() - started };
        await store.recordSuccess(source.key, { format: null, etag: null, lastModified: null, checksum: null, changed: false, report: { ...outcome } });
        return outcome;
      }
      const { parsed, checksum } = res;
      format = parsed.format;
      if (known?.checksum === checksum) {
        // a server without validators: the same bytes again
        const outcome: SourceOutcome = {
          ...base,
          format,
          status: 'unchanged',
          matches: parsed.file.matches.length,
          skipped: parsed.skipped,
          ms: Date.now() - started,
        };
        await store.recordSuccess(source.key, { format, etag: res.etag, lastModified: res.lastModified, checksum, changed: false, report: { ...outcome } });
        return outcome;
      }
      const imported = await this.deps.importSeason(source.competition, source.season, parsed.file, { source: 'feed', newClubs: true, pastResultsOnly: true });
      const changed = imported.inserted + imported.updated > 0;
      const outcome: SourceOutcome = {
        ...base,
        format,
        status: changed ? 'changed' : 'unchanged',
        matches: imported.matches,
        inserted: imported.inserted,
        updated: imported.updated,
        newTeams: imported.newTeams ?? [],
        odds: imported.odds ?? 0,
        skipped: parsed.skipped,
        ms: Date.now() - started,
      };
      await store.recordSuccess(source.key, { format, etag: res.etag, lastModified: res.lastModified, checksum, changed, report: { ...outcome } });
      if (outcome.newTeams.length) logger.warn({ source: source.key, teams: outcome.newTeams }, 'football feed: new clubs added');
      return outcome;
    } catch (err) {
      if (err instanceof FeedParseError && err.format) format = err.format;
      const message = (err as Error).message;
      const outcome: SourceOutcome = { ...base, format, status: 'failed', error: message, ms: Date.now() - started };
      logger[this.deps.quiet ? 'debug' : 'warn'](
        { source: source.key, url: base.url, error: message },
        'football feed: source failed; nothing of it was written',
      );
      await store.recordFailure(source.key, message, { ...outcome });
      return outcome;
    }
  }

  /** An optional source not published yet (404, never seen): undefined; else the source's file, the source registered. */
  private async readOptional(source: FeedSource, known: FeedSourceRow | undefined): Promise<FeedRead | undefined> {
    if (!source.optional) return this.readSource(source, known);
    try {
      const res = await this.readSource(source, known);
      if (!known) await this.deps.store.register(source);
      return res;
    } catch (err) {
      if (!known && /HTTP 404\b/.test((err as Error).message)) return undefined;
      if (!known) await this.deps.store.register(source);
      throw err;
    }
  }

  /** The source's file, fetched and parsed off the event loop (the deps' `read`), else fetched here and parsed in a worker. */
  private async readSource(source: FeedSource, known: FeedSourceRow | undefined): Promise<FeedRead> {
    const validators = { etag: known?.etag ?? null, lastModified: known?.lastModified ?? null };
    if (this.deps.read) return this.deps.read(source.url, validators, source.competition);
    const res = await this.deps.fetch(source.url, validators);
    if (res.status === 'not-modified') return res;
    const { parsed, checksum } = this.deps.parse
      ? await this.deps.parse(res.body, source.competition)
      : await (this.reader ??= new FeedReader()).parse(res.body, source.competition);
    return { status: 'ok', parsed, checksum, etag: res.etag, lastModified: res.lastModified };
  }

  /** Passes left running by a process that died are failed. */
  failAbandoned(): Promise<void> {
    return this.deps.store.failAbandonedRuns();
  }

  async status(): Promise<FeedStatus> {
    const { store } = this.deps;
    const [rows, lastRun, lastSucceeded, lastFailed] = await Promise.all([
      store.sources(),
      store.lastRun(),
      store.lastRunWith('succeeded'),
      store.lastRunWith('failed'),
    ]);
    const configured = new Set(this.sources().map((s) => s.key));
    const sources = rows.filter((r) => configured.has(r.key)).map((r) => ({ ...r, displayUrl: displayUrl(r.url) }));
    // the latest failure, of a pass or of one source
    const failures = [
      ...(lastFailed?.error ? [{ at: lastFailed.finishedAt ?? lastFailed.startedAt, message: lastFailed.error }] : []),
      ...sources.filter((s) => s.lastError && s.lastErrorAt).map((s) => ({ at: s.lastErrorAt!, message: `${s.key}: ${s.lastError}` })),
    ].sort((a, b) => b.at.getTime() - a.at.getTime());
    return {
      configured: this.configured,
      intervalMinutes: this.deps.intervalMinutes,
      running: lastRun?.status === 'running' ? lastRun : undefined,
      lastRun,
      lastSuccessAt: lastSucceeded?.finishedAt ?? null,
      lastError: failures[0] ?? null,
      sources,
    };
  }
}
