import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';
import PostalMime from 'postal-mime';
import type { Config } from './config';
import type { Logger } from './logger';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The sender's display name (e.g. the finance node's branding); the address stays MAIL_FROM's. Unset: MAIL_FROM as it is. */
  fromName?: string;
  /** What kind of message it is (e.g. `finance:email_verify`): header X-Mail-Kind, so the development outbox can tell them apart. */
  kind?: string;
}

/** The header that carries OutgoingMail.kind. */
export const MAIL_KIND_HEADER = 'x-mail-kind';

/** MAIL_FROM with another display name: the address part is kept. */
export function senderWithName(mailFrom: string, name: string | undefined): string | { name: string; address: string } {
  if (!name?.trim()) return mailFrom;
  const [first] = addressparser(mailFrom, { flatten: true });
  return first?.address ? { name: name.trim(), address: first.address } : mailFrom;
}

export interface SentMail {
  messageId: string;
  /** Where the message went: `smtp` or the outbox file. */
  destination: string;
}

/** Sends the system's mail. Message bodies may hold credentials: they are never logged. */
export interface Mailer {
  send(mail: OutgoingMail): Promise<SentMail>;
}

export const outboxDir = (config: Pick<Config, 'dataDir'>) => join(config.dataDir, 'outbox');

/**
 * SMTP (nodemailer) when SMTP_URL is set; otherwise a file outbox: one RFC 822 `.eml` per message in
 * DATA_DIR/outbox/, built by nodemailer exactly as it would be sent, so any mail client opens it.
 */
export function createMailer(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'dataDir'>, logger: Logger): Mailer {
  const message = ({ fromName, kind, ...mail }: OutgoingMail) => ({
    from: senderWithName(config.MAIL_FROM, fromName),
    ...mail,
    ...(kind ? { headers: { [MAIL_KIND_HEADER]: kind } } : {}),
  });
  if (config.SMTP_URL) {
    const transport = nodemailer.createTransport(config.SMTP_URL);
    return {
      async send(mail) {
        const info = await transport.sendMail(message(mail));
        logger.info({ to: mail.to, subject: mail.subject, messageId: info.messageId }, 'mail sent (smtp)');
        return { messageId: info.messageId, destination: 'smtp' };
      },
    };
  }
  const dir = outboxDir(config);
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await composer.sendMail(message(mail));
      await mkdir(dir, { recursive: true, mode: 0o700 });
      // written under a temporary name first: a reader never sees half a message
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const file = join(dir, name);
      try {
        await writeFile(`${file}.tmp`, info.message as Buffer, { mode: 0o600 });
        await rename(`${file}.tmp`, file);
      } catch (err) {
        // a full disk leaves no half-written message behind
        await rm(`${file}.tmp`, { force: true }).catch(() => undefined);
        throw err;
      }
      logger.info({ to: mail.to, subject: mail.subject, file }, 'mail written to the outbox');
      return { messageId: info.messageId, destination: file };
    },
  };
}

/** A message of the file outbox, as read back (the development outbox page). */
export interface OutboxMail {
  /** The file's name in DATA_DIR/outbox. */
  id: string;
  sentAt: Date;
  from: string;
  to: string;
  subject: string;
  text: string;
  /** X-Mail-Kind, when the sender set one. */
  kind?: string;
}

/** When a file of the outbox was written: its name begins with the ISO time (colons and dots as dashes). */
const sentAtOf = (name: string) => {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2})-(\d{2})-(\d{2})-(\d{3})Z/.exec(name);
  return m ? new Date(`${m[1]}:${m[2]}:${m[3]}.${m[4]}Z`) : new Date(0);
};

/** The newest `first` messages of the file outbox (SMTP_URL unset), newest first; none when it is empty or absent. */
export async function readOutbox(
  config: Pick<Config, 'dataDir'>,
  first: number,
  accept: (kind: string | undefined) => boolean = () => true,
): Promise<OutboxMail[]> {
  const dir = outboxDir(config);
  const names = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  const out: OutboxMail[] = [];
  // newest first: the names sort by time
  for (const name of names
    .filter((n) => n.endsWith('.eml'))
    .sort()
    .reverse()) {
    if (out.length >= first) break;
    const raw = await readFile(join(dir, name)).catch(() => undefined);
    if (!raw) continue;
    const mail = await PostalMime.parse(raw);
    const kind = mail.headers.find((h) => h.key === MAIL_KIND_HEADER)?.value;
    if (!accept(kind)) continue;
    const addr = (a: { name?: string; address?: string } | undefined) => (a ? (a.name ? `${a.name} <${a.address ?? ''}>` : (a.address ?? '')) : '');
    out.push({
      id: name,
      sentAt: sentAtOf(name),
      from: addr(mail.from),
      to: (mail.to ?? []).map((a) => addr(a)).join(', '),
      subject: mail.subject ?? '',
      text: mail.text ?? '',
      kind,
    });
  }
  return out;
}
