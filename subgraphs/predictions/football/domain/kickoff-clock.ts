import type { Logger } from '../../../../lib/logger';

/** Longest wait between two looks at the next kick-off (a clock change, a missed announcement). */
const MAX_WAIT_MS = 15 * 60_000;

/**
 * The upcoming lists change by time alone when a match kicks off (it leaves them, awaiting its
 * result), with no write to any table, so no trigger announces it. This announces it: at each
 * kick-off it calls `announce` (which evicts the answers the gateways cached before it), then waits
 * for the next one. Re-armed when the fixtures change.
 */
export class KickoffClock {
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private lastAnnounced = 0;

  constructor(
    private readonly nextKickoffAfter: (after: Date) => Promise<Date | undefined>,
    private readonly announce: () => Promise<void>,
    private readonly clock: () => Date,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.stopped = false;
    this.lastAnnounced = this.clock().getTime();
    void this.arm();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The fixtures changed: the next kick-off may be another one. */
  rearm(): void {
    if (!this.stopped) void this.arm();
  }

  private async arm(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    let wait = MAX_WAIT_MS;
    try {
      const now = this.clock().getTime();
      // a kick-off between the last announcement and now (a late timer) is announced at once
      const next = await this.nextKickoffAfter(new Date(Math.min(this.lastAnnounced, now)));
      if (next) wait = Math.min(Math.max(next.getTime() - now + 1, 0), MAX_WAIT_MS);
      if (next && next.getTime() <= now) {
        this.lastAnnounced = now;
        await this.announce();
        wait = 0;
      }
    } catch (err) {
      this.logger.warn({ err: { message: (err as Error).message } }, 'kick-off clock: could not read the next kick-off');
    }
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.arm(), Math.max(wait, 1_000));
    this.timer.unref();
  }
}
