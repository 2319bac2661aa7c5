import type { AddressInfo } from 'node:net';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';
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
  /** Why it is off though a port was meant (the default port was taken); null otherwise. */
  offBecause: string | null;
  counts: MailboxCounts;
}

/** A message larger than this is refused at once (SIZE): an application is a few kilobytes. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

/** The mailbox's abuse limits: nothing a stranger sends is free, and no stranger takes every connection. */
export interface MailboxLimits {
  /** Connections open at once (smtp-server's maxClients); past it a new one is answered 421 and closed. */
  connections: number;
  /** New connections per client address and minute. */
  connectionsPerMinute: number;
  /** Messages per connection. */
  messagesPerConnection: number;
  /** Messages per client address and minute, and per envelope sender (MAIL FROM) and minute. */
  messagesPerMinute: number;
}

export const MAILBOX_LIMITS: MailboxLimits = { connections: 32, connectionsPerMinute: 60, messagesPerConnection: 10, messagesPerMinute: 30 };

const smtpError = (message: string, responseCode: number) => Object.assign(new Error(message), { responseCode });

/** rate-limiter-flexible in memory: the mailbox answers a flood before it costs a database round trip. */
function limiter(points: number, duration: number) {
  const l = new RateLimiterMemory({ points, duration });
  return async (key: string, refusal: string, responseCode = 421) => {
    try {
      await l.consume(key);
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) throw res;
      throw smtpError(`${refusal} Try again in ${Math.ceil(res.msBeforeNext / 1000)} s.`, responseCode);
    }
  };
}

/**
 * The application mailbox: a built-in SMTP receiver (smtp-server) for APPLICATION_MAIL_ADDRESS, so
 * that applying by e-mail works with no mail provider. Mail with the subject "API Access Request"
 * becomes an application exactly as the inbound-mail webhook's (same parser, same per-address limit,
 * same confirmation link); any other mail is accepted, counted and dropped; an application that
 * cannot be read is refused with its reason (550), which the sender's server returns to the sender.
 * Only mail for the mailbox's own address is taken: it relays nothing.
 *
 * Anyone may write, so nothing a stranger sends runs on the event loop or goes unlimited: each
 * message is parsed in the mail worker (domain/mail-reader.ts: a time, heap and part budget), and
 * connections and messages are limited per connection, per client address and per envelope sender
 * (MailboxLimits), with a bound on open connections.
 */
export class ApplicationMailbox {
  private server: SMTPServer | undefined;
  private listeningPort: number | null = null;
  private offBecause: string | null = null;
  readonly counts: MailboxCounts = { received: 0, applications: 0, ignored: 0, refused: 0 };
  private readonly limits: MailboxLimits;
  private readonly limit: Record<'connections' | 'perConnection' | 'perAddress' | 'perSender', ReturnType<typeof limiter>>;

  constructor(
    private readonly applications: ApplicationService,
    private readonly opts: {
      address: string;
      host: string;
      port: number | 'off';
      /** The port is the default, not asked for: when it is taken, the system starts without the mailbox (and says so). */
      portOptional?: boolean;
      limits?: Partial<MailboxLimits>;
    },
    private readonly logger: Logger,
  ) {
    this.limits = { ...MAILBOX_LIMITS, ...opts.limits };
    this.limit = {
      connections: limiter(this.limits.connectionsPerMinute, 60),
      perConnection: limiter(this.limits.messagesPerConnection, 600),
      perAddress: limiter(this.limits.messagesPerMinute, 60),
      perSender: limiter(this.limits.messagesPerMinute, 60),
    };
  }

  info(): MailboxInfo {
    return { address: this.opts.address, host: this.opts.host, port: this.listeningPort, offBecause: this.offBecause, counts: { ...this.counts } };
  }

  async start(): Promise<void> {
    if (this.opts.port === 'off') return;
    const server = this.createServer();
    server.on('error', (err) => this.logger.warn({ err: { message: err.message } }, 'application mailbox: SMTP error'));
    try {
      await new Promise<void>((resolve, reject) => {
        server.server.once('error', reject);
        server.listen(this.opts.port as number, this.opts.host, () => {
          server.server.off('error', reject);
          resolve();
        });
      });
    } catch (err) {
      const why = `the application mailbox cannot listen on ${this.opts.host}:${this.opts.port} (${(err as Error).message})`;
      if (!this.opts.portOptional) throw new Error(why, { cause: err });
      const code = (err as NodeJS.ErrnoException).code;
      this.offBecause = code === 'EADDRINUSE' ? `port ${this.opts.port} is taken` : `port ${this.opts.port} cannot be used (${code ?? (err as Error).message})`;
      // the default port, not asked for: the rest of the system starts; applying by the form and the webhook still works
      this.logger.warn(
        { host: this.opts.host, port: this.opts.port },
        `${why}: starting without it (smtpPort: null). Set APPLICATION_SMTP_PORT to a free port, or to off.`,
      );
      return;
    }
    this.server = server;
    this.listeningPort = (server.server.address() as AddressInfo).port;
    this.logger.info({ address: this.opts.address, host: this.opts.host, port: this.listeningPort }, 'application mailbox listening (SMTP)');
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.listeningPort = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private createServer(): SMTPServer {
    return new SMTPServer({
      secure: false,
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      size: MAX_MESSAGE_BYTES,
      maxClients: this.limits.connections,
      socketTimeout: 60_000,
      banner: 'Match Prediction API: application mailbox',
      logger: false,
      onConnect: (session, callback) => {
        this.limit.connections(session.remoteAddress, 'Too many connections from your address.').then(() => callback(), callback);
      },
      onMailFrom: (address, session, callback) => {
        this.admit(address, session).then(() => callback(), callback);
      },
      onRcptTo: (address, _session, callback) => {
        if (address.address.toLowerCase() !== this.opts.address.toLowerCase()) {
          return callback(smtpError(`No mailbox here for <${address.address}>; applications go to <${this.opts.address}>.`, 550));
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
            return callback(smtpError('Message too large for an application.', 552));
          }
          this.take(Buffer.concat(chunks), session).then(
            () => callback(),
            (err: Error & { responseCode?: number }) => callback(err),
          );
        });
      },
    });
  }

  /** A new message (MAIL FROM), before a byte of it is read: within the limits per connection, client address and sender. */
  private async admit(address: SMTPServerAddress, session: SMTPServerSession): Promise<void> {
    await this.limit.perConnection(session.id, 'Too many messages on this connection; reconnect later.');
    await this.limit.perAddress(session.remoteAddress, 'Too many messages from your address.', 450);
    if (address.address) await this.limit.perSender(address.address.toLowerCase(), 'Too many messages from this sender.', 450);
  }

  /** One delivered message, read in the mail worker: an application, or counted and dropped. */
  private async take(raw: Buffer, session: SMTPServerSession): Promise<void> {
    this.counts.received++;
    const read = await this.applications.readMail(raw).catch((err: unknown) => {
      throw this.smtpRefusal(err);
    });
    if (read.overBudget) {
      // not read at all (too many parts, too slow, too big): the sender hears why, whatever the subject
      this.counts.refused++;
      throw smtpError((read.problem?.message ?? 'The message could not be read.').slice(0, 400), 552);
    }
    if (!isApplicationSubject(read.subject)) {
      this.counts.ignored++;
      this.logger.info(
        { from: session.envelope.mailFrom ? 'sender given' : 'no sender', problem: read.problem?.message },
        'application mailbox: mail without the application subject, dropped',
      );
      return;
    }
    try {
      await this.applications.submitReadMail(read, { kind: 'inbound-mail', clientAddress: session.remoteAddress });
      this.counts.applications++;
    } catch (err) {
      throw this.smtpRefusal(err);
    }
  }

  /** A domain refusal as the SMTP answer the sender's server bounces (the reason, never more); anything else: try again later. */
  private smtpRefusal(err: unknown): Error {
    if (!(err instanceof DomainError) || err.status >= 500) return smtpError('Temporary failure; please send again later.', 451);
    this.counts.refused++;
    return smtpError(err.message.replace(/[\r\n]+/g, ' ').slice(0, 400), err.status === 429 ? 452 : 550);
  }
}
