import type { Api } from 'grammy';
import type { Logger } from '../lib/logger';
import { escapeHtml, formatKickoff } from './replies';
import type { PredictionsClient } from './predictions-client';

/** Telegram allows about 30 messages a second to different chats: the notifier stays under it, and auto-retry takes a 429. */
const SEND_GAP_MS = 40;

export interface FollowNotifierOptions {
  /** How long before kick-off the reminder goes. */
  reminderMinutes: number;
  /** Between two looks for notices due. */
  intervalSeconds: number;
  /** Time zone for a subscriber who set none. */
  timeZone: string;
  logger: Logger;
}

/**
 * Tells followers, by private message, when a followed team's next prediction is published and
 * reminds them before its kick-off. Every `intervalSeconds` it asks the gateway which notices are due,
 * sends them one after another (paced under Telegram's limit; auto-retry waits out a 429), and
 * records each as sent, so none goes twice whatever the restarts. A chat that refuses messages (the
 * user blocked the bot) is recorded too, so it is not tried again and again.
 */
export class FollowNotifier {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private stopped = true;

  constructor(
    private readonly predictions: PredictionsClient,
    private readonly api: Pick<Api, 'sendMessage'>,
    private readonly opts: FollowNotifierOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(1_000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.runOnce().catch((err: unknown) => {
        this.opts.logger.warn({ err }, 'follow notices: could not deliver');
        return 0;
      });
      void this.running.then(() => this.schedule(this.opts.intervalSeconds * 1000));
    }, ms);
    this.timer.unref();
  }

  /** One round: every notice due, sent and recorded; returns how many were sent. */
  async runOnce(): Promise<number> {
    const notices = await this.predictions.followNotices(this.opts.reminderMinutes, 'follow-notices');
    let sent = 0;
    for (const n of notices) {
      if (this.stopped && this.timer !== undefined) break;
      const chat = /^telegram:(-?\d+)$/.exec(n.subscriber)?.[1];
      if (chat) {
        const when = formatKickoff(n.kickoff, n.timeZone ?? this.opts.timeZone);
        const match = `<b>${escapeHtml(n.homeTeamName)}</b> vs <b>${escapeHtml(n.awayTeamName)}</b>`;
        const text =
          n.kind === 'published'
            ? `📣 New prediction for a team you follow:\n${match}\nKick-off ${when}\nPrediction: <b>${escapeHtml(n.outcomeLabel)}</b> (${Math.round(n.confidence * 100)}%)`
            : `⏰ Kick-off soon: ${match}\n${when}\nPrediction: <b>${escapeHtml(n.outcomeLabel)}</b> (${Math.round(n.confidence * 100)}%)`;
        try {
          await this.api.sendMessage(Number(chat), text, { parse_mode: 'HTML', link_preview_options: { is_disabled: true } });
          sent++;
        } catch (err) {
          const code = (err as { error_code?: number }).error_code;
          // blocked, or the chat is gone: recorded all the same; anything else is tried again next round
          if (code !== 403 && code !== 400) throw err;
          this.opts.logger.info({ subscriber: n.subscriber, code }, 'follow notice not deliverable');
        }
        await new Promise((r) => setTimeout(r, SEND_GAP_MS));
      }
      await this.predictions.markFollowNoticesSent([{ subscriber: n.subscriber, matchId: n.matchId, kind: n.kind }], 'follow-notices');
    }
    return sent;
  }
}
