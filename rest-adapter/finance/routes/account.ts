import { z } from 'zod';
import type { AnyRouteInput, Reply, Route, RouteError } from '../../core/route';
import { isDevelopment } from '../../../lib/config';
import { requestOrigin } from '../../core/csrf';
import { loginResponse } from '../schemas';
import { route } from '../operation';

/**
 * Onboarding and account security of the finance node's users: sign-up, e-mail verification,
 * password reset and change, sessions (each access token belongs to one), 2FA recovery codes and
 * switching 2FA off, the profile. Their errors: `{detail, code, error}` and, for field problems,
 * `fields` with one message per field (400 `validation_error`).
 */

const first = (messages: string[] | undefined) => (Array.isArray(messages) ? messages[0] : String(messages ?? ''));

/** The error body of these routes: `error` (= `code`) and `fields` {field: message} for field problems. */
export function accountError(e: RouteError): Reply {
  const code = e.status === 400 && (e.code === 'invalid' || e.code === 'parse_error') ? 'validation_error' : e.code;
  const fields = e.fields && typeof e.fields === 'object' ? Object.fromEntries(Object.entries(e.fields).map(([k, v]) => [k, first(v)])) : undefined;
  return { kind: 'json', status: e.status, body: { detail: e.message, code, error: code, ...(fields && Object.keys(fields).length ? { fields } : {}) } };
}

/**
 * The base of a mail's links in development without FRONTEND_URL: the origin the client reached (so the
 * links open the client it used). Null otherwise: FRONTEND_URL, and in production it is required.
 */
const mailOrigin = ({ req, config }: Pick<AnyRouteInput, 'req' | 'config'>) => (isDevelopment(config) && !config.FRONTEND_URL ? requestOrigin(req) : null);

const noContent = (): Reply => ({ kind: 'text', status: 204, body: '' });
const userAgentOf = (input: AnyRouteInput) => {
  const ua = input.req.headers['user-agent'];
  return typeof ua === 'string' ? ua.slice(0, 500) : null;
};

const validationError = {
  description:
    '400 `validation_error`: `{"detail", "code", "error": "validation_error", "fields": {"<field>": "<message>"}}`, one message per field; nothing was changed.',
};

const password = z.string().max(1000).describe('At least 10 characters, not only digits, not the user name');

const account = (r: Omit<Route, 'tags' | 'respondError'>): Route => ({ tags: ['Account'], respondError: accountError, ...r });

const signup = account(
  route({
    method: 'POST',
    path: '/api/auth/signup/',
    summary: 'Sign up',
    description:
      'JSON `{username, email, password, invite_code?}` → 201 `{id, username, email, email_verified: false}`, and a verification mail to the address (its link, or ' +
      'its code sent to POST /api/auth/email/verify/, verifies it). The user can sign in at once, but moves no money until the address is verified (403 ' +
      '`email_unverified`). Sign-up is open or invite-only (admin console, Users → Sign-up): invite-only without `invite_code` is 403 `signup_closed`, with a code ' +
      'that is unknown, used or expired 400 `invalid_invite`. ' +
      `${validationError.description} User name taken: 409 \`username_taken\` (\`fields.username\`); e-mail address taken: 409 \`email_taken\`. ` +
      'Password: at least 10 characters, not only digits, not the user name. Nothing is created on any refusal. Sign-ups per client address and hour are limited (429 with Retry-After).',
    security: 'none',
    operation: 'Signup',
    body: z.object({
      username: z.string().max(150).describe('1 to 150 characters: letters, digits and @ . + - _ (kept in lower case)'),
      email: z.string().max(254).describe('Where the verification mail goes'),
      password,
      invite_code: z.string().max(100).nullish().describe('Required when sign-up is invite-only'),
    }),
    variables: (input: AnyRouteInput) => {
      const body = input.body as { username: string; email: string; password: string; invite_code?: string | null };
      return { username: body.username, email: body.email, password: body.password, inviteCode: body.invite_code ?? null, requestOrigin: mailOrigin(input) };
    },
    response: {
      status: 201,
      description: 'The new user',
      schema: z.object({ id: z.string().uuid(), username: z.string(), email: z.string(), email_verified: z.boolean() }),
    },
    errors: [400, 403, 409, 429],
    respond: (data) => ({ kind: 'json', status: 201, body: data.nodeSignup }),
  }),
);

const verifyEmail = account(
  route({
    method: 'POST',
    path: '/api/auth/email/verify/',
    summary: 'Verify an e-mail address',
    description:
      'JSON `{token}`: the code of the verification mail (its link carries it as `?token=`) → `{email_verified: true}`. Each token works once, for 48 hours; ' +
      'unknown, used or expired: 400 `invalid_token`. Attempts per client address and hour are limited (429).',
    security: 'none',
    operation: 'VerifyEmail',
    body: z.object({ token: z.string().max(200) }),
    variables: ({ body }: { body: { token: string } }) => ({ token: body.token }),
    response: { description: 'Verified', schema: z.object({ email_verified: z.literal(true) }) },
    errors: [400, 429],
    respond: () => ({ kind: 'json', body: { email_verified: true } }),
  }),
);

const resendVerification = account(
  route({
    method: 'POST',
    path: '/api/auth/email/resend/',
    summary: 'Send the verification mail again',
    description: '202 `{detail}`: a new verification mail (none when the address is verified already). At most 5 per hour (429).',
    security: 'bearer',
    operation: 'ResendEmailVerification',
    variables: (input: AnyRouteInput) => ({ requestOrigin: mailOrigin(input) }),
    response: { status: 202, description: 'Accepted', schema: z.object({ detail: z.string() }) },
    respond: () => ({ kind: 'json', status: 202, body: { detail: 'If your address is not verified yet, a new verification mail is on its way.' } }),
  }),
);

const resetPassword = account(
  route({
    method: 'POST',
    path: '/api/auth/password/reset/',
    summary: 'Ask for a password reset mail',
    description:
      'JSON `{email}` → 202 always, whether or not an account has this address (nobody learns which addresses have accounts). Each active account with the ' +
      'address gets a mail with a single-use link valid for one hour (its code goes to POST /api/auth/password/reset/confirm/). Requests per client address ' +
      'and hour are limited (429); at most 3 mails per address and hour.',
    security: 'none',
    operation: 'RequestPasswordReset',
    body: z.object({ email: z.string().max(254) }),
    variables: (input: AnyRouteInput) => ({ email: (input.body as { email: string }).email, requestOrigin: mailOrigin(input) }),
    response: { status: 202, description: 'Accepted', schema: z.object({ detail: z.string() }) },
    errors: [429],
    respond: () => ({ kind: 'json', status: 202, body: { detail: 'If an account has this address, a password reset mail is on its way.' } }),
  }),
);

const confirmReset = account(
  route({
    method: 'POST',
    path: '/api/auth/password/reset/confirm/',
    summary: 'Set a new password with a reset token',
    description:
      'JSON `{token, password}` → 200 `{detail}`. Every session and access token of the user ends (sign in again). Unknown, used or expired token: 400 ' +
      '`invalid_token`; a password the policy refuses: 400 `validation_error` with `fields.password` (the token stays usable).',
    security: 'none',
    operation: 'ConfirmPasswordReset',
    body: z.object({ token: z.string().max(200), password }),
    variables: ({ body }: { body: { token: string; password: string } }) => ({ token: body.token, password: body.password }),
    response: { description: 'Password changed', schema: z.object({ detail: z.string() }) },
    errors: [400, 429],
    respond: () => ({ kind: 'json', body: { detail: 'Your password has been changed: sign in with it.' } }),
  }),
);

const changePassword = account(
  route({
    method: 'POST',
    path: '/api/auth/password/',
    summary: 'Change your password',
    description:
      'JSON `{current_password, password}` → 200 `{access, token_type, expires_in}`: a new token for this client; every other session ends, and the token ' +
      'used for this request too. Wrong current password: 400 `validation_error` with `fields.current_password`; each guess is reserved before it is checked, ' +
      'in the sign-in throttle (5 per address and account in 15 minutes, 20 per account: 429 with Retry-After).',
    security: 'bearer',
    operation: 'ChangePassword',
    body: z.object({ current_password: z.string().max(1000), password }),
    variables: (input: AnyRouteInput) => {
      const body = input.body as { current_password: string; password: string };
      return { currentPassword: body.current_password, password: body.password, userAgent: userAgentOf(input) };
    },
    response: { description: 'A new access token', schema: loginResponse },
    errors: [400, 429],
    respond: (data) => ({ kind: 'json', body: data.access }),
  }),
);

const profile = account(
  route({
    method: 'GET',
    path: '/api/v1/profile/',
    summary: 'Your profile',
    description:
      '`{id, username, email, email_verified, phone, phone_verified, twofa_enabled, kyc_level, created_at}` of the user the access token belongs to. `kyc_level`: `none`, ' +
      '`basic`, `enhanced` (lower case). `phone_verified`: false while the number waits for its code (only verified numbers receive transfers).',
    security: 'bearer',
    operation: 'Profile',
    response: {
      description: 'The profile',
      schema: z.object({
        id: z.string().uuid(),
        username: z.string(),
        email: z.string().nullable(),
        email_verified: z.boolean(),
        phone: z.string().nullable(),
        phone_verified: z.boolean(),
        twofa_enabled: z.boolean(),
        kyc_level: z.string(),
        created_at: z.string(),
      }),
    },
    respond: ({ nodeUser: u }) => ({
      kind: 'json',
      body: {
        id: u.id,
        username: u.username,
        email: u.email,
        email_verified: u.emailVerified,
        phone: u.phone,
        phone_verified: u.phoneVerified,
        twofa_enabled: u.twoFactorEnabled,
        kyc_level: String(u.kycLevel).toLowerCase(),
        created_at: u.dateJoined,
      },
    }),
  }),
);

export const accountRoutes: Route[] = [
  signup,
  verifyEmail,
  resendVerification,
  resetPassword,
  confirmReset,
  changePassword,
  profile,
  ...sessionRoutes(),
  ...twoFactorRoutes(),
];

function sessionRoutes(): Route[] {
  return [
    account(
      route({
        method: 'GET',
        path: '/api/auth/sessions/',
        summary: 'Your sessions',
        description:
          'One entry per sign-in still alive (each access token belongs to one): `[{id, created_at, last_seen_at, user_agent, ip, current}]`, newest first; ' +
          '`current`: the session of the token asking. `last_seen_at` is updated at most every 30 seconds.',
        security: 'bearer',
        operation: 'Sessions',
        response: {
          description: 'Sessions',
          schema: z.array(
            z.object({
              id: z.string().uuid(),
              created_at: z.string(),
              last_seen_at: z.string(),
              user_agent: z.string(),
              ip: z.string(),
              current: z.boolean(),
            }),
          ),
        },
        respond: (data) => ({ kind: 'json', body: data.nodeSessions }),
      }),
    ),
    account(
      route({
        method: 'DELETE',
        path: '/api/auth/sessions/:id/',
        summary: 'End one of your sessions',
        description: "204: its access token stops working at once. Another user's session, or one already ended: 404.",
        security: 'bearer',
        operation: 'RevokeSession',
        params: z.object({ id: z.string().uuid() }),
        variables: ({ params }: { params: { id: string } }) => ({ id: params.id }),
        response: { status: 204, description: 'Ended' },
        errors: [404],
        respond: noContent,
      }),
    ),
    account(
      route({
        method: 'POST',
        path: '/api/auth/logout/',
        summary: 'Sign out',
        description: '204: the session of this token ends (the token stops working).',
        security: 'bearer',
        operation: 'Logout',
        response: { status: 204, description: 'Signed out' },
        respond: noContent,
      }),
    ),
    account(
      route({
        method: 'POST',
        path: '/api/auth/logout-all/',
        summary: 'Sign out everywhere',
        description: '204: every session of yours ends, this one included.',
        security: 'bearer',
        operation: 'LogoutAll',
        response: { status: 204, description: 'Signed out everywhere' },
        respond: noContent,
      }),
    ),
  ];
}

function twoFactorRoutes(): Route[] {
  const otp = z.object({ otp: z.string().max(20).describe('A current 6-digit code of your authenticator app') });
  return [
    account(
      route({
        method: 'POST',
        path: '/api/auth/2fa/recovery-codes/',
        summary: 'New 2FA recovery codes',
        description:
          'JSON `{otp}` → `{recovery_codes: [10 codes]}`, shown this once; the previous codes stop working. Each code signs in once instead of a one-time code ' +
          '(POST /api/login/ with `recovery_code`). Wrong code: 400 `otp_invalid`; 2FA not enabled: 409.',
        security: 'bearer',
        operation: 'RenewRecoveryCodes',
        body: otp,
        variables: ({ body }: { body: { otp: string } }) => ({ otp: body.otp }),
        response: { description: 'Recovery codes', schema: z.object({ recovery_codes: z.array(z.string()) }) },
        errors: [400, 409],
        respond: (data) => ({ kind: 'json', body: { recovery_codes: data.renewNodeRecoveryCodes } }),
      }),
    ),
    account(
      route({
        method: 'DELETE',
        path: '/api/auth/2fa/',
        summary: 'Switch 2FA off',
        description:
          'JSON body `{current_password, otp}` → `{twofa_enabled: false}`: the secret and the recovery codes go. Missing or wrong password: 400 `validation_error` ' +
          'with `fields.current_password`; wrong code: 400 `otp_invalid` (each guess reserved first: 429 with Retry-After past the limits); the node enforces 2FA: 403 ' +
          '`twofa_enforced`; 2FA not enabled: 409.',
        security: 'bearer',
        operation: 'DisableTotp',
        body: otp.extend({ current_password: z.string().max(1000).nullish().describe('Your current password (required)') }),
        variables: ({ body }: { body: { otp: string; current_password?: string | null } }) => ({
          otp: body.otp,
          currentPassword: body.current_password ?? null,
        }),
        response: { description: '2FA is off', schema: z.object({ twofa_enabled: z.literal(false) }) },
        errors: [400, 403, 409, 429],
        respond: () => ({ kind: 'json', body: { twofa_enabled: false } }),
      }),
    ),
  ];
}
