import { Writable } from 'node:stream';
import pino from 'pino';
import type { Transformer } from 'grammy';
import type { Update, UserFromGetMe } from 'grammy/types';
import type { Logger } from '../../../lib/logger';

/**
 * Telegram's side of the bot tests, without a network: an API transformer that answers every Bot
 * API call the bot makes (and records it), with getUpdates keeping Telegram's offset rules.
 */

export const TEST_TOKEN = '123456:TEST-token_for-the-bot-tests';

export const BOT_INFO: UserFromGetMe = {
  id: 123456,
  is_bot: true,
  first_name: 'Matchday',
  username: 'matchday_test_bot',
  can_join_groups: true,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
  can_connect_to_business: false,
  has_main_web_app: false,
  has_topics_enabled: false,
  allows_users_to_create_topics: false,
  can_manage_bots: false,
  supports_join_request_queries: false,
};

export interface ApiCall {
  method: string;
  payload: Record<string, any>;
}

type ApiResponse = { ok: true; result: unknown } | { ok: false; error_code: number; description: string; parameters?: { retry_after?: number } };
type Scripted = (normal: () => Promise<ApiResponse>, signal?: AbortSignal) => ApiResponse | Promise<ApiResponse>;

export class FakeTelegram {
  readonly calls: ApiCall[] = [];
  /** Updates Telegram holds for the bot (ids below `confirmedOffset` are forgotten). */
  private queue: Update[] = [];
  /** The highest offset a getUpdates call has confirmed. */
  confirmedOffset = 0;
  private readonly scripted: { method: string; answer: Scripted }[] = [];
  private wake: (() => void)[] = [];
  private nextMessageId = 1000;

  /** The answer to the next call of `method` (then the normal ones again); `normal()` is what Telegram would have answered. */
  answerNext(method: string, answer: Scripted): void {
    this.scripted.push({ method, answer });
  }

  /** A user's update reaches Telegram, for the bot to fetch (long polling). */
  push(...updates: Update[]): void {
    this.queue.push(...updates);
    for (const w of this.wake.splice(0)) w();
  }

  callsOf(method: string): ApiCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** The texts the bot sent or edited into messages, in order. */
  texts(): string[] {
    return this.calls.filter((c) => c.method === 'sendMessage' || c.method === 'editMessageText').map((c) => c.payload.text as string);
  }

  readonly transformer: Transformer = async (_prev, method, payload, grammySignal) => {
    // grammY types its signal with the abort-controller shim's class; on Node it is the built-in one
    const signal = grammySignal as AbortSignal | undefined;
    const call = { method, payload: (payload ?? {}) as Record<string, any> };
    this.calls.push(call);
    const i = this.scripted.findIndex((s) => s.method === method);
    const normal = () => this.answer(call, signal);
    const response = i >= 0 ? await this.scripted.splice(i, 1)[0].answer(normal, signal) : await normal();
    return response as any;
  };

  private async answer({ method, payload }: ApiCall, signal?: AbortSignal): Promise<ApiResponse> {
    switch (method) {
      case 'getMe':
        return { ok: true, result: BOT_INFO };
      case 'sendMessage':
        return { ok: true, result: this.message(payload) };
      case 'editMessageText':
        return { ok: true, result: { ...this.message(payload), message_id: payload.message_id } };
      case 'getUpdates':
        return { ok: true, result: await this.getUpdates(payload, signal) };
      default:
        return { ok: true, result: true };
    }
  }

  private message(payload: Record<string, any>) {
    return { message_id: this.nextMessageId++, date: Math.floor(Date.now() / 1000), chat: { id: payload.chat_id, type: 'private' }, text: payload.text };
  }

  /** Telegram's rules: a call confirms every update below its offset; it waits up to `timeout` seconds for one. */
  private async getUpdates(payload: Record<string, any>, signal?: AbortSignal): Promise<Update[]> {
    const offset = (payload.offset as number | undefined) ?? 0;
    this.confirmedOffset = Math.max(this.confirmedOffset, offset);
    const deadline = Date.now() + ((payload.timeout as number | undefined) ?? 0) * 1000;
    for (;;) {
      // an aborted request never sees its answer
      if (signal?.aborted) throw new Error('The request was aborted.');
      this.queue = this.queue.filter((u) => u.update_id >= this.confirmedOffset);
      if (this.queue.length > 0 || Date.now() >= deadline) return this.queue.slice(0, (payload.limit as number | undefined) ?? 100);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        this.wake.push(() => (clearTimeout(timer), resolve()));
        signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
    }
  }
}

let nextUpdateId = 1;
const user = (id: number) => ({ id, is_bot: false, first_name: 'Ann', username: 'ann' });

/** A user's message, with a bot_command entity when it starts with a command (as Telegram sends it). */
export function messageUpdate(text: string, opts: { userId?: number; chatId?: number; updateId?: number; firstName?: string; group?: boolean } = {}): Update {
  const userId = opts.userId ?? 42;
  const command = /^\/\S+/.exec(text);
  return {
    update_id: opts.updateId ?? nextUpdateId++,
    message: {
      message_id: nextUpdateId,
      date: Math.floor(Date.now() / 1000),
      chat: opts.group ? { id: opts.chatId ?? -100, type: 'group', title: 'Supporters' } : { id: opts.chatId ?? userId, type: 'private', first_name: 'Ann' },
      from: { ...user(userId), first_name: opts.firstName ?? 'Ann' },
      text,
      ...(command ? { entities: [{ type: 'bot_command' as const, offset: 0, length: command[0].length }] } : {}),
    },
  };
}

/** A press on an inline button of the bot's message `messageId`. */
export function buttonUpdate(data: string, opts: { userId?: number; messageId?: number } = {}): Update {
  const userId = opts.userId ?? 42;
  return {
    update_id: nextUpdateId++,
    callback_query: {
      id: `cb${nextUpdateId}`,
      from: user(userId),
      chat_instance: 'ci',
      data,
      message: { message_id: opts.messageId ?? 1000, date: Math.floor(Date.now() / 1000), chat: { id: userId, type: 'private', first_name: 'Ann' }, text: '…' },
    },
  };
}

/** A logger whose JSON lines the test can read. */
export function capturingLogger(): { logger: Logger; lines: () => Record<string, any>[] } {
  const lines: Record<string, any>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'debug', base: undefined }, stream), lines: () => lines };
}

/** The inline keyboard of a sent or edited message, as [text, callback data] per button. */
export function buttonsOf(call: ApiCall): [string, string][] {
  const rows = (call.payload.reply_markup?.inline_keyboard ?? []) as { text: string; callback_data: string }[][];
  // Telegram refuses empty rows
  if (rows.some((row) => row.length === 0)) throw new Error(`an empty row of buttons: ${JSON.stringify(rows)}`);
  return rows.flat().map((b) => [b.text, b.callback_data]);
}

/** A request that never reaches Telegram (lost on the way): it only ends when the caller aborts it. */
export const lostRequest: Scripted = (_normal, signal) =>
  new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(new Error('The request was aborted.')), { once: true }));

/** Resolves once `condition()` holds (checked every 20 ms); fails after `timeoutMs` with `what`. */
export async function until(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
