import { cookieValue } from '../../../lib/credentials';
import { html } from '../../../lib/html';
import { ADMIN_SESSION_COOKIE } from '../../../subgraphs/finance/identity/credential';
import type { AnyRouteInput as RouteInput, Reply, Route } from '../../core/route';
import { adminError, adminQuery, form, str } from './apps';
import { signInPage, type SignInField, type SignInForm } from '../../console/sign-in';
import { FINANCE_CONSOLE } from './layout';
import { route, type ResultOf } from '../operation';

/**
 * The console's sign-in (contract: superusers sign in; the session cookie `sessionid`, HttpOnly,
 * SameSite=Lax), the 2FA enrolment when it is enforced, and sign-out.
 */

const SESSION_MAX_AGE = 14 * 24 * 3600;

const localPath = (next: unknown) => (typeof next === 'string' && /^\/admin\/[A-Za-z0-9/_.?=&-]*$/.test(next) ? next : '/admin/');

/** The console's answer to a sign-in (or to the enrolment's code): the session, or (2FA enforced, not enrolled) the enrolment. */
type AdminSignInData = ResultOf<'AdminSignIn'>['startAdminSession'] | ResultOf<'AdminCompleteTotpEnrolment'>['completeAdminTotpEnrolment'];

function signedIn(data: AdminSignInData, input: RouteInput): Reply {
  if (!data.session) {
    const enrolment = 'enrolment' in data ? data.enrolment : null;
    // no session and no enrolment to finish: the schema allows it, the console treats it as a refused sign-in
    return enrolment ? enrolmentPage(input, enrolment, {}) : loginPage(input, { status: 401, message: 'The sign-in did not complete: sign in again.' });
  }
  return {
    kind: 'redirect',
    status: 302,
    location: localPath(str((input.body as Record<string, unknown>).next)),
    cookies: [{ name: ADMIN_SESSION_COOKIE, value: data.session, maxAgeSeconds: SESSION_MAX_AGE, httpOnly: true, sameSite: 'Lax' }],
  };
}

const username: SignInField = { name: 'username', id: 'id_username', label: 'Username', type: 'text', autocomplete: 'username' };
const password: SignInField = { name: 'password', id: 'id_password', label: 'Password', type: 'password', autocomplete: 'current-password' };
const otp = (label: string, required: boolean): SignInField => ({
  name: 'otp',
  id: 'id_otp',
  label,
  type: 'text',
  autocomplete: 'one-time-code',
  oneTimeCode: true,
  required,
});

/** The console's sign-in form (the kit's sign-in page): Django admin's fields, and the code when 2FA is on. */
const SIGN_IN: SignInForm = {
  title: 'Log in',
  heading: (siteName) => `${siteName} administration`,
  action: '/admin/login/',
  fields: [username, password, otp('One-time code (if 2FA is on)', false)],
  submit: 'Log in',
};

/** 2FA is enforced and the superuser has not enrolled: the secret (and its otpauth URI) for the authenticator app, and a code to confirm it. */
function enrolmentPage(
  input: RouteInput,
  e: { secret: string; otpauthUri: string; qrCode?: string | null; enrolmentToken: string },
  opts: { status?: number; message?: string },
): Reply {
  const next = localPath(str((input.req.body as Record<string, unknown> | undefined)?.next));
  const qr = e.qrCode?.startsWith('data:image/svg+xml;base64,')
    ? html`<p><img id="otp-qr" src="${e.qrCode}" width="200" height="200" alt="QR code of the key for your authenticator app" /></p>`
    : '';
  return signInPage(
    input,
    FINANCE_CONSOLE,
    {
      title: 'Set up two-factor authentication',
      heading: 'Two-factor authentication',
      action: '/admin/login/2fa/',
      intro: html`<p>This node requires two-factor authentication. Add this account to your authenticator app, then enter the code it shows.</p>
        ${qr}
        <p>Secret: <code data-secret="${e.secret}">${e.secret}</code></p>
        <p>Or open: <a href="${e.otpauthUri}">${e.otpauthUri}</a></p>`,
      fields: [otp('One-time code', true)],
      submit: 'Confirm',
    },
    { status: opts.status, message: opts.message, hidden: { next, enrolment_token: e.enrolmentToken, secret: e.secret, otpauth_uri: e.otpauthUri } },
  );
}

function loginPage(input: RouteInput, opts: { status?: number; message?: string; username?: string }): Reply {
  const next = localPath(str((input.query as { next?: string }).next ?? (input.req.body as Record<string, unknown> | undefined)?.next));
  return signInPage(input, FINANCE_CONSOLE, SIGN_IN, {
    status: opts.status,
    message: opts.message,
    hidden: { next },
    values: { username: opts.username ?? '' },
  });
}

/** Sign-in (with the 2FA enrolment) and sign-out of the console. */
export const sessionAdminRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/admin/login/',
    summary: 'Admin console: sign-in page',
    tags: ['Admin console'],
    security: 'none',
    operation: 'AdminLoginPage',
    query: adminQuery,
    response: { description: 'The sign-in form (HTML)', contentType: 'text/html' },
    respond: (_data, input) => loginPage(input, {}),
    // the form, with the status of what went wrong (a malformed query, the node unable to answer)
    respondError: (e, input) => loginPage(input, { status: e.status }),
  }),
  route({
    method: 'POST',
    path: '/admin/login/',
    summary: 'Admin console: sign in (superusers)',
    description:
      'Form fields username, password, next and csrfmiddlewaretoken. Sets the session cookie `sessionid` (HttpOnly, SameSite=Lax) and redirects to `next`.',
    tags: ['Admin console'],
    security: 'none',
    operation: 'AdminSignIn',
    consumes: 'form',
    csrf: true,
    body: form,
    // wrong credentials: the form again, with 401
    errors: [401],
    variables: ({ body }: { body: Record<string, unknown> }) => ({ username: str(body.username), password: str(body.password), otp: str(body.otp) || null }),
    response: { status: 302, description: 'Signed in: redirect to the console (or, 2FA enforced and not enrolled yet, the enrolment page: 200)' },
    respond: (data, input) => signedIn(data.startAdminSession, input),
    respondError: (error, input) =>
      loginPage(input, {
        status: error.status,
        message: /^otp_(required|invalid)$/i.test(error.code)
          ? error.status === 401 && /required/i.test(error.code)
            ? 'Enter the one-time code of your authenticator app.'
            : 'The one-time code is not valid.'
          : error.status === 401
            ? 'Please enter the correct username and password for a staff account. Note that both fields may be case-sensitive.'
            : error.message,
        username: str((input.req.body as Record<string, unknown> | undefined)?.username),
      }),
  }),
  route({
    method: 'POST',
    path: '/admin/login/2fa/',
    summary: 'Admin console: confirm the 2FA enrolment and sign in',
    description:
      'When "Enforce 2FA on login" is on and the superuser has not enrolled, the sign-in answers the enrolment page; this form (enrolment_token, otp, next, csrfmiddlewaretoken) confirms it with a code of the new secret, sets the session cookie and redirects to `next`.',
    tags: ['Admin console'],
    security: 'none',
    operation: 'AdminCompleteTotpEnrolment',
    consumes: 'form',
    csrf: true,
    body: form,
    errors: [400, 401],
    variables: ({ body }: { body: Record<string, unknown> }) => ({ enrolmentToken: str(body.enrolment_token), otp: str(body.otp) }),
    response: { status: 302, description: 'Enrolled and signed in: redirect to the console' },
    respond: (data, input) => signedIn(data.completeAdminTotpEnrolment, input),
    respondError: (error, input) => {
      const body = (input.req.body ?? {}) as Record<string, unknown>;
      if (error.status === 400 && str(body.enrolment_token) && str(body.secret))
        return enrolmentPage(
          input,
          { secret: str(body.secret), otpauthUri: str(body.otpauth_uri), enrolmentToken: str(body.enrolment_token) },
          { status: 400, message: 'The one-time code is not valid.' },
        );
      return loginPage(input, { status: error.status, message: error.status === 401 ? 'The enrolment has expired: sign in again.' : error.message });
    },
  }),
  route({
    method: 'POST',
    path: '/admin/logout/',
    summary: 'Admin console: sign out',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminSignOut',
    consumes: 'form',
    csrf: true,
    body: form,
    // signing out ends the session whatever the node answers (a fault too: back to the sign-in page); only an unreachable node is 503
    faults: [503],
    variables: ({ req }: RouteInput) => ({ session: cookieValue(req.headers.cookie, ADMIN_SESSION_COOKIE) ?? '' }),
    response: { status: 302, description: 'Signed out' },
    respond: () => ({ kind: 'redirect', status: 302, location: '/admin/login/', cookies: [{ name: ADMIN_SESSION_COOKIE, value: '', maxAgeSeconds: 0 }] }),
    // a malformed form is the client's mistake (400); anything else still signs out
    respondError: (error, input) =>
      error.status === 400
        ? adminError('Log out')(error, input)
        : { kind: 'redirect', status: 302, location: '/admin/login/', cookies: [{ name: ADMIN_SESSION_COOKIE, value: '', maxAgeSeconds: 0 }] },
  }),
];
