import type { AttemptThrottle } from '../../../../lib/attempts';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DomainError, badInput, conflict, forbidden, notFound } from '../../../../lib/errors';
import type { Logger } from '../../../../lib/logger';
import type { Mailer, OutgoingMail } from '../../../../lib/mailer';
import { pageSize } from '../../../../lib/pagination';
import type { KeyedLimiter } from '../../../../lib/rate-limits';
import type { ApplicationRow, ApplicationSource, ApplicationStatus, ApplicationStore, Decision } from '../store/application-store';
import type { ApiKeyService } from './api-keys';
import type { MailRead } from './application-mail';
import { inProcessMailReader, type MailReader } from './mail-reader';
import { effectiveLimit, planByCode, type PlanCode } from './plans';
import { CONFIRMATION_LINK_DAYS } from '../vocabulary';

export const NAME_LENGTH = { min: 2, max: 200 };
export const USAGE_LENGTH = { min: 10, max: 2000 };
const EMAIL_MAX = 254;
const REASON_MAX = 1000;

/** What the form (and an e-mail) asks for: name or organisation, intended usage, contact e-mail. */
export interface ApplicationInput {
  name: string;
  usage: string;
  email: string;
}

export interface Submission {
  application: ApplicationRow;
  /** false: the same application (same e-mail address and usage, or the same message) was already open. */
  created: boolean;
}

/**
 * What an applicant is told after submitting, whatever happened: a new application, the same one
 * again, a confirmation link mailed or not. Anyone may submit any address, so the answer says
 * nothing about what exists (no reference, no status).
 */
export const RECEIVED_MESSAGE =
  'Application received. We have e-mailed a link to the address you gave: open it to confirm that the address is yours. ' +
  'An administrator then reviews the application and, once it is approved, e-mails you the API key, the daily limit of its plan ' +
  'and a link to the API reference. (If you applied before with the same address and intended usage, that application stands and no new one is made.)';

/** The abuse limits of the anonymous intake (each holds across processes: lib/rate-limits.ts). */
export interface ApplicationLimits {
  /** Applications by the form, POST /api/applications/ or GraphQL, per client address. */
  applications: KeyedLimiter;
  /** Inbound-mail webhook calls, per client address. */
  inboundMail: KeyedLimiter;
  /** Wrong inbound-mail secrets, per client address: past it, even the right secret waits. */
  /** Wrong webhook secrets per client address (5 per 15 minutes), reserved before the secret is checked. */
  inboundSecretAttempts: AttemptThrottle;
  /** Confirmation mails, per recipient (a third party cannot flood an address with them). */
  confirmationMails: KeyedLimiter;
}

/** Who submits: anyone (the form, JSON, GraphQL), the mail system through the webhook, or a trusted operator (CLI, administrator). */
export type Submitter = { kind: 'public'; clientAddress?: string } | { kind: 'inbound-mail'; clientAddress?: string } | { kind: 'trusted' };

/** A confirmation link's state: not yet used, used (the application is confirmed), or unknown/expired. */
export type ConfirmationState = { state: 'ready' | 'confirmed'; name: string } | { state: 'invalid' };

export interface ApplicationSettings {
  /** The prediction API's address as applicants reach it (links in the mails): PUBLIC_URL_PREDICTIONS (required in production). */
  publicUrl?: string;
  /**
   * Without `publicUrl` (development): the links go to the origin of the request the application came
   * through, else (the SMTP mailbox, the CLI) to this address.
   */
  fallbackUrl?: string;
  /** Shared secret of the inbound-mail webhook; unset: the webhook is disabled. */
  inboundMailSecret?: string;
  /** Where e-mailed applications are parsed: the mail worker (services.ts); unset: on the calling thread. */
  mailReader?: MailReader;
}

export const mailNotSent = () =>
  new DomainError(
    'MAIL_NOT_SENT',
    503,
    'The e-mail to the applicant could not be sent, so nothing was decided; the application is still pending. Check the mail settings (SMTP_URL) and try again.',
  );

const confirmationNotSent = () =>
  new DomainError(
    'MAIL_NOT_SENT',
    503,
    'The e-mail with the confirmation link could not be sent. Please submit the application again in a few minutes (it will not be made twice).',
  );

const CONFIRMATION_TOKEN = /^[A-Za-z0-9_-]{43}$/;
const tokenDigest = (token: string) => createHash('sha256').update(token, 'utf8').digest();

const alreadyDecided = (a: ApplicationRow) =>
  conflict(
    a.status === 'unconfirmed'
      ? 'The applicant has not confirmed the e-mail address yet (the link mailed to it): no decision before that.'
      : a.status === 'pending'
        ? 'This application was decided at the same moment by someone else.'
        : `This application was already ${a.status} (${a.decidedAt?.toISOString()}); a decision is final.`,
    { status: a.status },
  );

const codePoints = (s: string) => [...s].length;
const CONTROL = /[\p{Cc}]/u;
const CONTROL_EXCEPT_LINES = /[^\P{Cc}\n\t]/u;
// one dot-separated domain of letters, digits and hyphens, with a top-level label; no quoted local parts
const EMAIL = /^[^\s@<>()[\]\\,;:"]{1,64}@(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Normalises and checks an application; every field's messages at once (the form shows them all). */
export function validateApplication(input: Partial<ApplicationInput>): ApplicationInput & { usageDigest: string } {
  const name = (input.name ?? '').normalize('NFC').replace(/\s+/g, ' ').trim();
  const usage = (input.usage ?? '')
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const rawEmail = (input.email ?? '').trim();
  const at = rawEmail.lastIndexOf('@');
  const email = at > 0 ? rawEmail.slice(0, at) + rawEmail.slice(at).toLowerCase() : rawEmail;

  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (!name) add('name', 'Enter your name or the name of your organisation.');
  else if (codePoints(name) < NAME_LENGTH.min || codePoints(name) > NAME_LENGTH.max)
    add('name', `Name or organisation must be ${NAME_LENGTH.min} to ${NAME_LENGTH.max} characters long.`);
  else if (CONTROL.test(name)) add('name', 'Name or organisation contains characters that are not allowed.');
  if (!usage) add('usage', 'Describe how you intend to use the API (your project or integration).');
  else if (codePoints(usage) < USAGE_LENGTH.min || codePoints(usage) > USAGE_LENGTH.max)
    add('usage', `Intended usage must be ${USAGE_LENGTH.min} to ${USAGE_LENGTH.max} characters long (it is ${codePoints(usage)}).`);
  else if (CONTROL_EXCEPT_LINES.test(usage)) add('usage', 'Intended usage contains characters that are not allowed.');
  if (!email) add('email', 'Enter a contact e-mail address.');
  else if (email.length > EMAIL_MAX || !EMAIL.test(email)) add('email', 'Enter a valid e-mail address, like name@example.com.');
  if (Object.keys(errors).length) throw badInput(Object.values(errors).flat().join(' '), errors);

  // "the same application": same address (any case) and the same usage up to case and spacing
  const usageDigest = createHash('sha256').update(usage.toLowerCase().replace(/\s+/g, ' '), 'utf8').digest('hex');
  return { name, usage, email, usageDigest };
}

function secretMatches(given: string, expected: string): boolean {
  // hashing first gives equal lengths, so the comparison time says nothing about the secret
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

const formatCount = (n: number) => n.toLocaleString('en-US');

/**
 * Access applications (contract §5): pending → approved (a key is issued and mailed) or rejected
 * (a polite mail). A decision is taken once: a second one is a CONFLICT, also when two arrive at once.
 */
export class ApplicationService {
  constructor(
    private readonly store: ApplicationStore,
    private readonly apiKeys: ApiKeyService,
    private readonly mailer: Mailer,
    private readonly settings: ApplicationSettings,
    private readonly limits: ApplicationLimits,
    private readonly logger: Logger,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * An application (form, JSON, GraphQL, or read from an e-mail). The same one again returns the
   * existing application. While its address is unconfirmed, each submission mails a new
   * confirmation link (within the per-recipient limit).
   */
  async submit(
    input: Partial<ApplicationInput>,
    submitter: Submitter,
    source: ApplicationSource = 'form',
    messageId: string | null = null,
    origin: string | null = null,
  ): Promise<Submission> {
    const a = validateApplication(input);
    if (submitter.kind === 'public') {
      await this.limits.applications.consume(submitter.clientAddress, 'Too many applications from your address; please try again later.');
    }
    const { row, created } = await this.store.insertOrFind({ ...a, source, messageId, origin: requestOrigin(origin) });
    if (created) this.logger.info({ applicationId: row.id, source }, 'access application received');
    if (row.status === 'unconfirmed') await this.sendConfirmation(row);
    return { application: row, created };
  }

  /** An application e-mailed with the subject `API Access Request`, as a raw RFC 822 message. */
  async submitEmail(raw: string | Uint8Array, submitter: Submitter, origin: string | null = null): Promise<Submission> {
    await this.countInboundMail(submitter);
    return this.submitRead(await this.readMail(raw), origin);
  }

  /** A raw message read in the mail worker (off the event loop, within its budget): its subject, and the application or why it is none. */
  readMail(raw: string | Uint8Array): Promise<MailRead> {
    return (this.settings.mailReader ?? inProcessMailReader).read(typeof raw === 'string' ? Buffer.from(raw) : raw);
  }

  /** An e-mailed application already read (the mailbox reads each message once, for its subject first). */
  async submitReadMail(read: MailRead, submitter: Submitter): Promise<Submission> {
    await this.countInboundMail(submitter);
    return this.submitRead(read);
  }

  private async countInboundMail(submitter: Submitter): Promise<void> {
    if (submitter.kind === 'inbound-mail') {
      await this.limits.inboundMail.consume(submitter.clientAddress, 'Too many messages from your address; please try again later.');
    }
  }

  private async submitRead(read: MailRead, origin: string | null = null): Promise<Submission> {
    const mailed = read.application;
    if (!mailed) throw badInput(read.problem?.message ?? 'The message is not an application.', read.problem?.details);
    return this.submit(mailed, { kind: 'trusted' }, 'email', mailed.messageId, origin);
  }

  /**
   * The inbound-mail webhook's secret (X-Inbound-Mail-Secret), checked by the gateway's credential
   * verification. Each attempt is reserved per client address before the secret is compared: past
   * the allowance every attempt is refused (429) until the window ends, so the secret cannot be guessed.
   */
  async verifyInboundSecret(secret: string, clientAddress: string | undefined): Promise<void> {
    const expected = this.settings.inboundMailSecret;
    if (!expected) throw forbidden('The inbound e-mail webhook is disabled (INBOUND_MAIL_SECRET is not set).');
    // reserved before it is checked (lib/attempts.ts): concurrent guesses cannot outrun the allowance
    if (await this.limits.inboundSecretAttempts.guard('inbound-mail-secret', clientAddress, async () => secretMatches(secret, expected))) return;
    this.logger.warn({ clientAddress }, 'wrong inbound e-mail secret');
    throw forbidden('The inbound e-mail secret is wrong (header X-Inbound-Mail-Secret).');
  }

  /** Why an e-mailed application without the webhook's secret is refused. */
  inboundSecretMissing(): DomainError {
    return this.settings.inboundMailSecret
      ? forbidden('The inbound e-mail secret is missing (header X-Inbound-Mail-Secret).')
      : forbidden('The inbound e-mail webhook is disabled (INBOUND_MAIL_SECRET is not set).');
  }

  /** What a confirmation link shows before it is used. */
  async confirmationState(token: string): Promise<ConfirmationState> {
    if (!CONFIRMATION_TOKEN.test(token)) return { state: 'invalid' };
    const row = await this.store.findByConfirmation(tokenDigest(token), this.linkExpiry());
    if (!row) return { state: 'invalid' };
    return { state: row.status === 'unconfirmed' ? 'ready' : 'confirmed', name: row.name };
  }

  /** Uses a confirmation link: the application's address is confirmed and it goes to review. Using it again changes nothing. */
  async confirm(token: string): Promise<ConfirmationState> {
    if (!CONFIRMATION_TOKEN.test(token)) return { state: 'invalid' };
    const result = await this.store.confirm(tokenDigest(token), this.linkExpiry(), this.clock());
    if (!result) return { state: 'invalid' };
    if (result.confirmedNow) this.logger.info({ applicationId: result.row.id }, 'access application confirmed by its applicant');
    return { state: 'confirmed', name: result.row.name };
  }

  private linkExpiry(): Date {
    return new Date(this.clock().getTime() - CONFIRMATION_LINK_DAYS * 86_400_000);
  }

  /** A new confirmation link for an unconfirmed application, unless its address has had its share of them. */
  private async sendConfirmation(row: ApplicationRow): Promise<void> {
    if (!(await this.limits.confirmationMails.tryConsume(row.email.toLowerCase()))) {
      this.logger.warn({ applicationId: row.id }, 'confirmation mail not sent: this address had its share of them');
      return;
    }
    const token = randomBytes(32).toString('base64url');
    if (!(await this.store.setConfirmation(row.id, tokenDigest(token), this.clock()))) return;
    await this.deliver(this.confirmationMail(row, token), confirmationNotSent);
  }

  list(opts: { status?: ApplicationStatus | null; first?: number | null } = {}): Promise<ApplicationRow[]> {
    return this.store.list({ status: opts.status ?? null, limit: pageSize(opts.first, 50, 200) });
  }

  async get(id: string): Promise<ApplicationRow> {
    const row = UUID.test(id?.trim() ?? '') ? await this.store.findById(id.trim()) : undefined;
    if (!row) throw notFound(`No application with id "${String(id).slice(0, 40)}".`);
    return row;
  }

  /**
   * Approves a pending application: issues a key on `plan` (Enterprise may set `dailyLimit`), links
   * it to the application and mails it to the applicant, all in one transaction holding the
   * application's row lock. If the mail cannot be sent, nothing is issued.
   */
  approve(id: string, opts: { plan: string; dailyLimit?: number | null; decidedBy: string }): Promise<ApplicationRow> {
    return this.decide(id, async (current, decision) => {
      const { key, record } = await this.apiKeys.create(
        { name: current.name, email: current.email, plan: opts.plan, dailyLimit: opts.dailyLimit ?? null },
        decision.tx,
      );
      const decided = await decision.approve({ planCode: record.planCode, keyId: record.id, decidedBy: opts.decidedBy, decidedAt: this.clock() });
      if (!decided) throw alreadyDecided(current);
      await this.deliver(this.approvalMail(current, key, record.planCode, effectiveLimit(record.planCode, record.dailyLimit)));
      this.logger.info({ applicationId: id, keyPrefix: record.prefix, plan: record.planCode }, 'access application approved');
      return decided;
    });
  }

  /** Rejects a pending application and tells the applicant, with the reason when one is given. */
  reject(id: string, opts: { reason?: string | null; decidedBy: string }): Promise<ApplicationRow> {
    const reason = opts.reason?.trim() || null;
    if (reason && codePoints(reason) > REASON_MAX)
      throw badInput(`reason must be at most ${REASON_MAX} characters.`, { reason: [`At most ${REASON_MAX} characters.`] });
    return this.decide(id, async (current, decision) => {
      const decided = await decision.reject({ reason, decidedBy: opts.decidedBy, decidedAt: this.clock() });
      if (!decided) throw alreadyDecided(current);
      await this.deliver(this.rejectionMail(current, reason));
      this.logger.info({ applicationId: id }, 'access application rejected');
      return decided;
    });
  }

  private decide(id: string, work: (current: ApplicationRow, decision: Decision) => Promise<ApplicationRow>): Promise<ApplicationRow> {
    // an unconfirmed application is not decided on: its address may not be the applicant's
    const ref = id?.trim() ?? '';
    if (!UUID.test(ref)) throw notFound(`No application with id "${String(id).slice(0, 40)}".`);
    return this.store.decide(ref, async (current, decision) => {
      if (!current) throw notFound(`No application with id "${ref}".`);
      if (current.status !== 'pending') throw alreadyDecided(current);
      return work(current, decision);
    });
  }

  private async deliver(mail: OutgoingMail, failure: () => DomainError = mailNotSent): Promise<void> {
    try {
      await this.mailer.send(mail);
    } catch (err) {
      // the message is not logged: an approval mail holds the key, a confirmation mail its link
      this.logger.error({ err: { message: (err as Error).message, code: (err as { code?: string }).code }, to: mail.to }, 'mail to an applicant failed');
      throw failure();
    }
  }

  /** The links of an application's mails: PUBLIC_URL_PREDICTIONS, else (development) the origin it came through, else the fallback. */
  private baseUrl(app: Pick<ApplicationRow, 'origin'>): string {
    return (this.settings.publicUrl ?? app.origin ?? this.settings.fallbackUrl ?? 'http://localhost:8080').replace(/\/+$/, '');
  }

  private approvalMail(app: ApplicationRow, key: string, plan: PlanCode, limit: number | null): OutgoingMail {
    const planName = planByCode(plan).name;
    const allowance = limit === null ? 'no daily limit' : `${formatCount(limit)} requests per day`;
    const docs = `${this.baseUrl(app)}/api/docs/`;
    const text = [
      `Hello ${app.name},`,
      '',
      'your application for access to the Match Prediction API has been approved.',
      '',
      'Your API key:',
      '',
      `    ${key}`,
      '',
      'Keep it secret: it is shown only in this message (we store only a hash of it).',
      '',
      `Plan: ${planName}, ${allowance}.`,
      limit === null
        ? 'Your key is not metered.'
        : 'Each API request counts once; the count resets every day at 00:00 UTC. Every response carries\n' +
          'X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset; past the limit the API answers\n' +
          '429 with Retry-After.',
      '',
      'Authenticate every request with the header',
      '',
      `    Authorization: Bearer ${key}`,
      '',
      'for example:',
      '',
      `    curl -H "Authorization: Bearer ${key}" ${this.baseUrl(app)}/api/`,
      '',
      `API reference: ${docs}`,
      '',
      'If the key is ever exposed, reply to this message: we revoke it and issue a new one.',
      '',
      'Match Prediction API',
    ].join('\n');
    return { to: app.email, subject: 'Your Match Prediction API key', text };
  }

  /** No name in it: the applicant typed the name, and this mail goes to an address not yet known to be theirs. */
  private confirmationMail(app: ApplicationRow, token: string): OutgoingMail {
    const link = `${this.baseUrl(app)}/apply/confirm/?token=${token}`;
    const text = [
      'Hello,',
      '',
      'someone asked for a Match Prediction API key and gave this e-mail address. If that was you,',
      `confirm the address: open this link (it works for ${CONFIRMATION_LINK_DAYS} days) and press the button on the page.`,
      '',
      `    ${link}`,
      '',
      'An administrator then reviews the application. Once it is approved, we e-mail you the API key,',
      'the daily limit of its plan and a link to the API reference. Nothing is sent before you confirm.',
      '',
      'If you did not apply, ignore this message: without the confirmation nothing happens.',
      '',
      'Match Prediction API',
    ].join('\n');
    return { to: app.email, subject: 'Confirm your e-mail address for the Match Prediction API', text };
  }

  private rejectionMail(app: ApplicationRow, reason: string | null): OutgoingMail {
    const text = [
      `Hello ${app.name},`,
      '',
      'thank you for your interest in the Match Prediction API. We have reviewed your application and',
      'are unable to approve it at this time.',
      ...(reason ? ['', `Reason: ${reason}`] : []),
      '',
      `You are welcome to apply again, with more detail about your intended usage: ${this.baseUrl(app)}/apply/`,
      '',
      'Match Prediction API',
    ].join('\n');
    return { to: app.email, subject: 'Your Match Prediction API access request', text };
  }
}

/** An origin a request named (`http(s)://host[:port]`), or null for anything else (it goes into mails' links). */
export function requestOrigin(value: string | null | undefined): string | null {
  if (!value || value.length > 200) return null;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value.replace(/\/+$/, '') ? url.origin : null;
  } catch {
    return null;
  }
}
