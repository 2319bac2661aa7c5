import type { TestApp } from '../platform/app';
import { http } from '../platform/http';

/**
 * Phone numbers verified the way a user does it (PUT /api/v1/profile/phone/, the code from the
 * offline sandbox SMS provider's outbox, POST …/verify/), for tests that then send money to them.
 */

/** The newest sandbox text message to `phone` (E.164), or undefined. */
export async function lastSmsTo(t: TestApp, phone: string): Promise<{ body: string; createdAt: Date } | undefined> {
  const { rows } = await t.app.services.identity.store.pool.query<{ body: string; createdAt: Date }>(
    'SELECT body, created_at AS "createdAt" FROM identity.sms_outbox WHERE to_number = $1 ORDER BY created_at DESC, id DESC LIMIT 1',
    [phone],
  );
  return rows[0];
}

/** The verification code of the newest sandbox message to `phone`. */
export async function smsCodeTo(t: TestApp, phone: string): Promise<string> {
  const message = await lastSmsTo(t, phone);
  const code = /\b(\d{6})\b/.exec(message?.body ?? '')?.[1];
  if (!code) throw new Error(`no verification code was sent to ${phone}`);
  return code;
}

const json = (t: TestApp, method: string, path: string, token: string, body: unknown) =>
  http(`${t.urls.finance}${path}`, { method, key: token, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Sets `phone` as the user's number and verifies it with the code sent to it; the verification's answer. */
export async function setVerifiedPhone(t: TestApp, token: string, phone: string) {
  const set = await json(t, 'PUT', '/api/v1/profile/phone/', token, { phone });
  if (set.status !== 202) throw new Error(`PUT /api/v1/profile/phone/ answered ${set.status}: ${JSON.stringify(set.body)}`);
  const verified = await json(t, 'POST', '/api/v1/profile/phone/verify/', token, { code: await smsCodeTo(t, set.body.phone as string) });
  if (verified.status !== 200) throw new Error(`POST /api/v1/profile/phone/verify/ answered ${verified.status}: ${JSON.stringify(verified.body)}`);
  return verified.body as { username: string; phone: string; verified: true };
}
