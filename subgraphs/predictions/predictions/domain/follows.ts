import { badInput, DomainError } from '../../../../lib/errors';
import type { DueNotice, FollowRow, FollowStore } from '../store/follow-store';
import type { ActiveModel } from './active-model';
import type { FootballData } from './football-data';

/** A subscriber follows at most this many teams. */
export const MAX_FOLLOWS = 20;
const SUBSCRIBER = /^[A-Za-z0-9:_-]{1,64}$/;

/** An IANA time zone this runtime knows ("Europe/Berlin", "UTC"); undefined otherwise. */
export function canonicalTimeZone(zone: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-GB', { timeZone: zone.trim() }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * Follows for an API client's own subscribers (the bot's chats): teams followed, a time zone, and
 * the notices due — a followed team's next prediction once it is published, and a reminder before
 * its kick-off — each once. Subscribers are the client's: another key sees none of them.
 */
export class FollowService {
  constructor(
    private readonly store: FollowStore,
    private readonly football: Pick<FootballData, 'resolveTeam'>,
    private readonly active: ActiveModel,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  private check(subscriber: string): void {
    if (!SUBSCRIBER.test(subscriber))
      throw badInput('subscriber: 1–64 characters of A-Z a-z 0-9 : _ -', { subscriber: ['1–64 characters of A-Z a-z 0-9 : _ -'] });
  }

  private async team(name: string): Promise<{ id: number; name: string }> {
    const r = await this.football.resolveTeam(name.trim());
    if (r.status === 'FOUND') return { id: r.team.id, name: r.team.name };
    const names = r.candidates.map((c) => c.name);
    throw badInput(
      r.status === 'AMBIGUOUS'
        ? `"${name}" could be ${names.join(', ')}.`
        : `No team matches "${name}"${names.length ? `; did you mean ${names.join(', ')}?` : '.'}`,
      {
        team: names,
      },
    );
  }

  async follow(owner: string, subscriber: string, teamName: string): Promise<{ team: { id: number; name: string }; follows: FollowRow[] }> {
    this.check(subscriber);
    const team = await this.team(teamName);
    const current = await this.store.follows(owner, subscriber);
    if (current.length >= MAX_FOLLOWS && !current.some((f) => f.teamId === team.id)) {
      throw new DomainError('CONFLICT', 409, `You follow ${MAX_FOLLOWS} teams already: unfollow one first.`);
    }
    await this.store.follow(owner, subscriber, team);
    return { team, follows: await this.store.follows(owner, subscriber) };
  }

  /** Unfollows one team (by name), or every team. */
  async unfollow(owner: string, subscriber: string, teamName: string | null): Promise<{ removed: number; follows: FollowRow[] }> {
    this.check(subscriber);
    const team = teamName?.trim() ? await this.team(teamName) : undefined;
    const removed = await this.store.unfollow(owner, subscriber, team?.id);
    return { removed, follows: await this.store.follows(owner, subscriber) };
  }

  follows(owner: string, subscriber: string): Promise<FollowRow[]> {
    this.check(subscriber);
    return this.store.follows(owner, subscriber);
  }

  async setTimeZone(owner: string, subscriber: string, zone: string): Promise<string> {
    this.check(subscriber);
    const canonical = canonicalTimeZone(zone);
    if (!canonical)
      throw badInput(`"${zone.slice(0, 60)}" is not a time zone I know; try e.g. Europe/London, America/New_York or UTC.`, { zone: ['an IANA time zone'] });
    await this.store.setTimeZone(owner, subscriber, canonical);
    return canonical;
  }

  timeZone(owner: string, subscriber: string): Promise<string | null> {
    this.check(subscriber);
    return this.store.timeZone(owner, subscriber);
  }

  /** Notices due now (none before a version is active); `reminderMinutes` before kick-off for the reminders. */
  async due(owner: string, reminderMinutes: number, limit: number): Promise<DueNotice[]> {
    if (!Number.isInteger(reminderMinutes) || reminderMinutes < 1 || reminderMinutes > 7 * 24 * 60)
      throw badInput('reminderMinutes must be between 1 and 10080.');
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw badInput('first must be between 1 and 500.');
    const active = await this.active.get();
    if (!active) return [];
    const now = this.clock();
    return this.store.due(owner, active.version.id, now, new Date(now.getTime() + reminderMinutes * 60_000), limit);
  }

  async markSent(owner: string, notices: { subscriber: string; matchId: number; kind: string }[]): Promise<void> {
    for (const n of notices) {
      this.check(n.subscriber);
      if (n.kind !== 'published' && n.kind !== 'reminder') throw badInput('kind must be published or reminder.');
    }
    await this.store.markSent(owner, notices);
  }
}
