import { notFound } from '../../../../lib/errors';
import type { OutboxMail } from '../../../../lib/mailer';
import type { SandboxSmsRow } from '../store/phone-store';
import { FINANCE_MAIL_KIND_PREFIX } from './messages';

/** One message of the development outbox: a mail or a text message the node "sent". */
export interface OutboxMessage {
  id: string;
  channel: 'mail' | 'sms';
  /** The message's kind (MESSAGE_KINDS: email_verify, password_reset, phone_code…). */
  kind: string;
  sentAt: Date;
  from: string | null;
  to: string;
  /** A mail's subject; a text message's first words. */
  subject: string;
  body: string;
}

export interface DevOutboxDeps {
  /** Development (NODE_ENV not production): the outbox exists; in production it is 404. */
  development: boolean;
  /** The newest mails of the file outbox (SMTP_URL unset) whose X-Mail-Kind passes `accept`. */
  mails: (first: number, accept: (kind: string | undefined) => boolean) => Promise<OutboxMail[]>;
  /** The newest text messages of the offline sandbox SMS provider. */
  sms: (first: number) => Promise<SandboxSmsRow[]>;
}

/** At most this many messages in one listing. */
export const DEV_OUTBOX_MAX = 200;

/**
 * The development outbox (like Mailpit beside a real app): the mails and text messages the node
 * "sent" — what the file outbox (DATA_DIR/outbox, when SMTP_URL is unset) and the sandbox SMS
 * provider (identity.sms_outbox) kept — newest first. Not in production: 404 there.
 */
export class DevOutbox {
  constructor(private readonly d: DevOutboxDeps) {}

  async list(first: number): Promise<OutboxMessage[]> {
    if (!this.d.development) throw notFound('There is no outbox in production: mails and text messages go to their providers.');
    const n = Math.min(Math.max(Math.trunc(first) || 1, 1), DEV_OUTBOX_MAX);
    const [mails, texts] = await Promise.all([this.d.mails(n, (kind) => !!kind?.startsWith(FINANCE_MAIL_KIND_PREFIX)), this.d.sms(n)]);
    const messages: OutboxMessage[] = [
      ...mails.map((m) => ({
        id: `mail:${m.id}`,
        channel: 'mail' as const,
        kind: (m.kind ?? '').slice(FINANCE_MAIL_KIND_PREFIX.length),
        sentAt: m.sentAt,
        from: m.from,
        to: m.to,
        subject: m.subject,
        body: m.text,
      })),
      ...texts.map((t) => ({
        id: `sms:${t.id}`,
        channel: 'sms' as const,
        kind: 'phone_code',
        sentAt: t.createdAt,
        from: null,
        to: t.to,
        subject: 'Text message',
        body: t.body,
      })),
    ];
    return messages.sort((a, b) => b.sentAt.getTime() - a.sentAt.getTime()).slice(0, n);
  }
}
