import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { DomainError } from '../../../lib/errors';
import type { Logger } from '../../../lib/logger';
import { isApplicationSubject } from './domain/application-mail';
import type { ApplicationService } from './domain/applications';

/** What the mailbox has taken in since this process started. */
export interface MailboxCounts {
  received: number;
  applications: number;
  /** Mail without the subject "API Access Request": dropped. */
  ignored: number;
  /** Applications refused (their reason went back to the sender in the SMTP answer). */
  refused: number;
}

export interface MailboxInfo {
  address: string;
  host: string;
  /** The port it listens on; null when it is off. */
  port: number | null;
  counts: MailboxCounts;
}

/** A message larger than this is refused at once (SIZE): an application is a few kilobytes. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

/**
 * The application mailbox: a built-in SMTP receiver (smtp-server) for APPLICATION_MAIL_ADDRESS, so
 * that applying by e-mail works with no mail provider. Mail with the subject "API Access Request"
 * becomes an application exactly as the inbound-mail webhook's (same parser, same per-address limit,
 * same confirmation link); any other mail is accepted, counted and dropped; an application that
 * cannot be read is refused with its reason (550), which the sender's server returns to the sender.
 * Only mail for the mailbox's own address is taken: it relays nothing.
 */
export class ApplicationMailbox {
  private server: SMTPServer | undefined;
  private listeningPort: number | null = null;
  readonly counts: MailboxCounts = { received: 0, applications: 0, ignored: 0, refused: 0 };

  constructor(
    private readonly applications: ApplicationService,
    private readonly opts: { address: string; host: string; port: number | 'off' },
    private readonly logger: Logger,
  ) {}

  info(): MailboxInfo {
    return { address: this.opts.address, host: this.opts.host, port: this.listeningPort, counts: { ...this.counts } };
  }

  async start(): Promise<void> {
    if (this.opts.port === 'off') return;
    const server = new SMTPServer({
      secure: false,
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      size: MAX_MESSAGE_BYTES,
      banner: 'Match Prediction API: application mailbox',
      logger: false,
      onRcptTo: (address, _session, callback) => {
        if (address.address.toLowerCase() !== this.opts.address.toLowerCase()) {
          return callback(
            Object.assign(new Error(`No mailbox here for <${address.address}>; applications go to <${this.opts.address}>.`), { responseCode: 550 }),
          );
        }
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= MAX_MESSAGE_BYTES) chunks.push(c);
        });
        stream.on('error', (err) => callback(err));
        stream.on('end', () => {
          if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded || size > MAX_MESSAGE_BYTES) {
            return callback(Object.assign(new Error('Message too large for an application.'), { responseCode: 552 }));
          }
          this.take(Buffer.concat(chunks), session).then(
            () => callback(),
            (err: Error & { responseCode?: number }) => callback(err),
          );
        });
      },
    });
    server.on('error', (err) => this.logger.warn({ err: { message: err.message } }, 'application mailbox: SMTP error'));
    await new Promise<void>((resolve, reject) => {
      const failed = (err: Error) => reject(new Error(`the application mailbox cannot listen on ${this.opts.host}:${this.opts.port} (${err.message})`));
      server.server.once('error', failed);
      server.listen(this.opts.port as number, this.opts.host, () => {
        server.server.off('error', failed);
        resolve();
      });
    });
    this.server = server;
    this.listeningPort = (server.server.address() as AddressInfo).port;
    this.logger.info({ address: this.opts.address, host: this.opts.host, port: this.listeningPort }, 'application mailbox listening (SMTP)');
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** One delivered message: an application, or counted and dropped. */
  private async take(raw: Buffer, session: SMTPServerSession): Promise<void> {
    this.counts.received++;
    let subject: string | undefined;
    try {
      subject = (await PostalMime.parse(raw)).subject;
    } catch {
      subject = undefined;
    }
    if (!isApplicationSubject(subject)) {
      this.counts.ignored++;
      this.logger.info(
        { from: session.envelope.mailFrom ? 'sender given' : 'no sender' },
        'application mailbox: mail without the application subject, dropped',
      );
      return;
    }
    try {
      await this.applications.submitEmail(raw, { kind: 'inbound-mail', clientAddress: session.remoteAddress });
      this.counts.applications++;
    } catch (err) {
      if (!(err instanceof DomainError) || err.status >= 500)
        throw Object.assign(new Error('Temporary failure; please send again later.'), { responseCode: 451 });
      this.counts.refused++;
      // the sender's server bounces this to the applicant: the reason, never more
      throw Object.assign(new Error(err.message.replace(/[\r\n]+/g, ' ').slice(0, 400)), { responseCode: err.status === 429 ? 452 : 550 });
    }
  }
}
