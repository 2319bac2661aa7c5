import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { DomainError, badInput, conflict, notFound } from '../../../../lib/errors';
import type { AttemptThrottle } from '../../../../lib/attempts';
import { tooManyRequests, type KeyedLimiter } from '../../../../lib/rate-limits';
import type { IdentityStore, UserRow } from '../store/identity-store';
import type { PhoneAudit, PhoneStore } from '../store/phone-store';
import { normalisePhone } from './identity-service';
import type { Messenger } from './messages';

/** How long a code is valid. */
export const PHONE_CODE_TTL_SECONDS = 10 * 60;
/** Wrong guesses a code survives: the last one ends it (a new code is needed). */
export const PHONE_CODE_MAX_FAILURES = 5;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A user's number and whether it is verified; `codeExpiresAt` when a code was just sent. */
export interface PhoneState {
  user: UserRow;
  codeExpiresAt: Date | null;
}

export interface PhoneVerificationDeps {
  users: IdentityStore;
  phones: PhoneStore;
  /** Sends the code (the node's text messages: named after its branding). */
  messages: Messenger;
  /** Code guesses, reserved before they are checked (lib/attempts.ts PHONE_CODE_ATTEMPTS): 5 per code wherever they come from. */
  attempts: AttemptThrottle;
  /** Codes sent per user: e.g. one a minute and five a day. */
  sends: KeyedLimiter[];
  /** Keys the codes' HMAC (a node secret); unset: plain SHA-256 of user, number and code. */
  codeKey: string | undefined;
}

const wrongCode = () => badInput('The code is not valid.', { code: ['The code is not valid.'] });
const codeEnded = (expiresAt: Date) =>
  tooManyRequests(
    'Too many wrong codes: this code no longer works. Ask for a new code (PUT /api/v1/profile/phone/).',
    Math.max(1, (expiresAt.getTime() - Date.now()) / 1000),
  );
const codeExpired = () =>
  new DomainError('CODE_EXPIRED', 400, 'The code has expired: ask for a new one (PUT /api/v1/profile/phone/).', { code: ['The code has expired.'] });

/**
 * Phone numbers verified by a one-time code before they can receive transfers. Setting a number
 * makes it a pending claim and sends a 6-digit code by SMS (10 minutes, single use, stored as an
 * HMAC, compared in constant time); the code verifies it. A pending claim never blocks anyone:
 * only verified numbers are unique, and verifying a number drops other users' pending claims of it.
 * Guesses are reserved before they are checked, against the code itself: five per code, from any
 * number of addresses; the fifth wrong one ends the code (later guesses: 429 until a new code is sent).
 * The codes sent are throttled too. An operator (admin `setNodeUserPhone`) sets a number verified at once.
 */
export class PhoneVerificationService {
  constructor(private readonly deps: PhoneVerificationDeps) {}

  private async userOf(ref: string): Promise<UserRow> {
    const user = UUID.test(ref) ? await this.deps.users.byId(ref) : await this.deps.users.byUsername((ref ?? '').trim().toLowerCase());
    if (!user) throw notFound('No such user.');
    return user;
  }

  private codeHash(userId: string, phone: string, code: string): Buffer {
    const input = `phone-code\n${userId}\n${phone}\n${code}`;
    return createHmac('sha256', this.deps.codeKey ?? 'phone-code')
      .update(input)
      .digest();
  }

  /**
   * The user's number (PUT /api/v1/profile/phone/): null or "" clears it; a new number becomes a
   * pending claim and gets a code by SMS; the number already verified stays as it is. 409 when
   * another user has it verified; 429 past the sending limits.
   */
  async request(ref: string, phone: string | null): Promise<PhoneState> {
    const user = await this.userOf(ref);
    if (phone === null || phone.trim() === '') return { user: (await this.deps.phones.clear(user.id)) ?? user, codeExpiresAt: null };
    const e164 = normalisePhone(phone);
    if (user.phone === e164 && user.phoneVerifiedAt) return { user, codeExpiresAt: null };
    if (await this.deps.phones.verifiedByOther(user.id, e164)) throw conflict('Another user has this phone number.');
    for (const limit of this.deps.sends)
      await limit.consume(user.id, 'Too many verification codes requested. Request was throttled. Wait before asking for another code.');
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const claimed = await this.deps.phones.claim(user.id, e164, this.codeHash(user.id, e164, code), PHONE_CODE_TTL_SECONDS);
    if (!claimed) throw notFound('No such user.');
    try {
      await this.deps.messages.sms(e164, `your verification code is ${code}. It expires in 10 minutes.`);
    } catch (err) {
      await this.deps.phones.dropCode(user.id);
      throw err;
    }
    return { user: claimed.user, codeExpiresAt: claimed.expiresAt };
  }

  /**
   * The code of the user's pending number (POST /api/v1/profile/phone/verify/): the number is then
   * verified. 400 (field `code`) when wrong, 400 `code_expired`, 409 when another user verified the
   * number first, 429 (Retry-After) past the guesses allowed.
   */
  async verify(userId: string, code: string, clientAddress: string | undefined): Promise<UserRow> {
    const pending = UUID.test(userId) ? await this.deps.phones.code(userId) : undefined;
    if (!pending) throw badInput('There is no code to check: set your number first to get one.', { code: ['Ask for a code first.'] });
    if (pending.expired) {
      await this.deps.phones.dropCode(userId);
      throw codeExpired();
    }
    // the fifth wrong guess ended it: refused, until a new code is asked for
    if (pending.failures >= PHONE_CODE_MAX_FAILURES) throw codeEnded(pending.expiresAt);
    const given = (code ?? '').trim();
    // one rule, per code: its guesses are reserved against the code itself (wherever they come from), the fifth wrong one ends it
    const codeKey = `${userId}:${pending.codeHash.toString('base64url')}`;
    const held = await this.deps.attempts.guard(codeKey, clientAddress, async () => {
      const matches = /^\d{6}$/.test(given) && timingSafeEqual(this.codeHash(userId, pending.phone, given), pending.codeHash);
      if (!matches) await this.deps.phones.recordWrongCode(userId, PHONE_CODE_MAX_FAILURES);
      return matches;
    });
    if (!held) throw wrongCode();
    const verified = await this.deps.phones.verify(userId, pending.phone).catch((err: { code?: string }) => {
      if (err.code === '23505') throw conflict('Another user has verified this phone number.');
      throw err;
    });
    // used concurrently: the other request verified it
    if (!verified) throw wrongCode();
    return verified;
  }

  /** An operator sets (or clears) a user's number: verified at once. 409 when another user has it verified. */
  async setVerified(ref: string, phone: string | null, audit?: PhoneAudit): Promise<UserRow> {
    const user = await this.userOf(ref);
    if (phone === null || phone.trim() === '') return (await this.deps.phones.clear(user.id, audit)) ?? user;
    const e164 = normalisePhone(phone);
    const updated = await this.deps.phones.setVerified(user.id, e164, audit).catch((err: { code?: string }) => {
      if (err.code === '23505') throw conflict('Another user has this phone number.');
      throw err;
    });
    if (!updated) throw notFound('No such user.');
    return updated;
  }

  /** The sandbox's messages, newest first (administrators; the tests). */
  sandboxOutbox(to: string | null, first: number) {
    return this.deps.phones.outbox(to ? normalisePhone(to) : null, first);
  }
}
