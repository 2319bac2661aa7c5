import { DomainError, badInput } from '../../../../lib/errors';
import { readJson } from '../../../../lib/bounded-body';

/** A text message to one phone number (E.164). */
export interface SmsMessage {
  to: string;
  body: string;
}

/**
 * Sends text messages (phone verification codes). Two implementations: the offline sandbox, which
 * keeps each message in `identity.sms_outbox` (tests and administrators read it there), and
 * `TwilioSms`, which speaks Twilio's Messages API. Message bodies hold codes: they are never logged.
 */
export interface SmsProvider {
  /** `sandbox`, `twilio` (or `disabled`: the sandbox refused in production). */
  readonly name: string;
  /** Sends the message; resolves to the provider's message id. */
  send(message: SmsMessage): Promise<{ id: string }>;
}

/** Where the sandbox keeps what it "sends" (the identity store implements it). */
export interface SmsOutbox {
  record(message: SmsMessage): Promise<string>;
}

/** The offline sandbox: nothing leaves the node, each message is a row of `identity.sms_outbox`. */
export class SandboxSms implements SmsProvider {
  readonly name = 'sandbox';
  constructor(private readonly outbox: SmsOutbox) {}

  async send(message: SmsMessage): Promise<{ id: string }> {
    return { id: await this.outbox.record(message) };
  }
}

export interface TwilioSettings {
  /** The API's origin, e.g. https://api.twilio.com (a compatible provider's, or a local peer's). */
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** The sender: a number of the account, or an alphanumeric sender id. */
  from: string;
  timeoutMs: number;
}

const unavailable = (message: string) => new DomainError('PROVIDER_UNAVAILABLE', 503, message);

/**
 * Twilio's Messages API: `POST {baseUrl}/2010-04-01/Accounts/{sid}/Messages.json`, form-encoded
 * `To`, `From`, `Body`, HTTP basic auth `sid:token`; 201 with the message (`sid`, `status`). A number
 * the provider refuses (Twilio's 400 with code 21211, 21614…) is the client's mistake (400 on
 * `phone`); anything else (network, timeout, 401, 5xx) is 503 `provider_unavailable`.
 */
export class TwilioSms implements SmsProvider {
  readonly name = 'twilio';
  constructor(private readonly settings: TwilioSettings) {}

  async send(message: SmsMessage): Promise<{ id: string }> {
    const { baseUrl, accountSid, authToken, from, timeoutMs } = this.settings;
    const url = `${baseUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`;
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({ To: message.to, From: from, Body: message.body }).toString(),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError';
      throw unavailable(timedOut ? `The SMS provider did not answer within ${timeoutMs} ms.` : 'The SMS provider could not be reached.');
    }
    const body = (await readJson(res).catch(() => ({}))) as { sid?: unknown; code?: unknown; message?: unknown };
    if (res.status === 400) throw badInput('The SMS provider cannot send to this number.', { phone: ['This number cannot receive text messages.'] });
    if (!res.ok || typeof body.sid !== 'string') throw unavailable(`The SMS provider answered ${res.status}.`);
    return { id: body.sid };
  }
}
