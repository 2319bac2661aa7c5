import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from './config';
import type { Logger } from './logger';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
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
  const from = config.MAIL_FROM;
  if (config.SMTP_URL) {
    const transport = nodemailer.createTransport(config.SMTP_URL);
    return {
      async send(mail) {
        const info = await transport.sendMail({ from, ...mail });
        logger.info({ to: mail.to, subject: mail.subject, messageId: info.messageId }, 'mail sent (smtp)');
        return { messageId: info.messageId, destination: 'smtp' };
      },
    };
  }
  const dir = outboxDir(config);
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await composer.sendMail({ from, ...mail });
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
