import { cookieValue } from '../../../lib/credentials';
import { html } from '../../../lib/html';
import { WORKSPACE_SESSION_COOKIE } from '../../../subgraphs/registry/licensing/credential';
import { csrfInput } from '../../console/kit';
import type { AnyRouteInput as RouteInput, Reply, Route, RouteInput as Input } from '../../core/route';
import { signInPage, type SignInForm } from '../../console/sign-in';
import { COOKIE_PATH, form, page, pageError, pageQuery, str, TAGS, WORKSPACE, type FormBody, type WorkspaceSecurity } from './frame';
import { route } from '../operation';

/** The workspace's sign-in, sign-out and password pages. */

/** The workspace's sign-in form (the kit's sign-in page). */
const SIGN_IN: SignInForm = {
  title: 'Sign in',
  heading: 'Sign in to your workspace',
  action: '/workspace/login/',
  fields: [
    { name: 'email', label: 'E-mail address', type: 'email', autocomplete: 'username' },
    { name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password' },
  ],
  submit: 'Sign in',
  links: [{ href: '/workspace/password-reset/', label: 'Forgot your password?' }],
};

const loginPage = (input: RouteInput, opts: { status?: number; message?: string; email?: string; notice?: string }): Reply =>
  signInPage(input, WORKSPACE, SIGN_IN, { status: opts.status, message: opts.message, notice: opts.notice, values: { email: opts.email ?? '' } });

function passwordPage(input: RouteInput, token: string, message?: string, status?: number): Reply {
  return page(
    input,
    { title: 'Choose a password', status, banners: message ? [{ level: 'error', text: message }] : [] },
    html`<div class="login card">
      <h1>Choose your password</h1>
      <form method="post" action="/workspace/password/">
        ${csrfInput(input.csrfToken)}<input type="hidden" name="token" value="${token}" />
        <label for="password">New password (at least 10 characters)</label>
        <input type="password" id="password" name="password" autocomplete="new-password" minlength="10" required />
        <button type="submit" class="primary">Set password</button>
      </form>
    </div>`,
  );
}

function resetPage(input: RouteInput, notice?: string): Reply {
  return page(
    input,
    { title: 'Reset your password', banners: notice ? [{ level: 'ok', text: notice }] : [] },
    html`<div class="login card">
      <h1>Reset your password</h1>
      <form method="post" action="/workspace/password-reset/">
        ${csrfInput(input.csrfToken)}
        <label for="email">E-mail address</label>
        <input type="email" id="email" name="email" autocomplete="username" required />
        <button type="submit" class="primary">Mail me a link</button>
      </form>
    </div>`,
  );
}

const clearSession = { name: WORKSPACE_SESSION_COOKIE, value: '', maxAgeSeconds: 0, path: COOKIE_PATH };

export const accountPages: Route<WorkspaceSecurity>[] = [
  {
    method: 'GET',
    path: '/workspace/login/',
    documented: false,
    summary: 'Workspace: sign-in page',
    tags: TAGS,
    security: 'none',
    credentials: [],
    operationId: 'WorkspaceLoginPage',
    query: pageQuery,
    reply: (input) => loginPage(input, { notice: (input.query as { password?: string }).password ? 'Your password is set; sign in.' : undefined }),
    response: { description: 'The sign-in form (HTML)', contentType: 'text/html' },
  },
  route({
    method: 'POST',
    path: '/workspace/login/',
    documented: false,
    summary: 'Workspace: sign in',
    description:
      'Form fields email, password and csrfmiddlewaretoken. Sets the session cookie `workspace_session` (HttpOnly, SameSite=Lax, path /workspace/) and redirects to /workspace/. Failed sign-ins are throttled per address (429 after 5 in 15 minutes).',
    tags: TAGS,
    security: 'none',
    credentials: [],
    operation: 'WorkspaceSignIn',
    consumes: 'form',
    csrf: true,
    body: form,
    variables: ({ body }: Input<object, object, FormBody>) => ({ email: str(body.email), password: str(body.password) }),
    response: { status: 302, description: 'Signed in: redirect to the workspace' },
    respond: (data) => ({
      kind: 'redirect',
      status: 302,
      location: '/workspace/',
      cookies: [
        {
          name: WORKSPACE_SESSION_COOKIE,
          value: data.signInWorkspace.session,
          maxAgeSeconds: Math.max(0, Math.floor((Date.parse(data.signInWorkspace.expiresAt) - Date.now()) / 1000)),
          path: COOKIE_PATH,
          httpOnly: true,
          sameSite: 'Lax',
        },
      ],
    }),
    respondError: (error, input) =>
      loginPage(input, {
        status: error.status,
        message: error.status === 401 ? 'E-mail address or password is not correct.' : error.message,
        email: str((input.req.body as Record<string, unknown> | undefined)?.email),
      }),
  }),
  route({
    method: 'POST',
    path: '/workspace/logout/',
    documented: false,
    summary: 'Workspace: sign out',
    tags: TAGS,
    security: 'none',
    credentials: [],
    operation: 'WorkspaceSignOut',
    consumes: 'form',
    csrf: true,
    body: form,
    variables: ({ req }: RouteInput) => ({ session: cookieValue(req.headers.cookie, WORKSPACE_SESSION_COOKIE) ?? '' }),
    response: { status: 302, description: 'Signed out' },
    respond: () => ({ kind: 'redirect', status: 302, location: '/workspace/login/', cookies: [clearSession] }),
    respondError: () => ({ kind: 'redirect', status: 302, location: '/workspace/login/', cookies: [clearSession] }),
  }),
  {
    method: 'GET',
    path: '/workspace/password/',
    documented: false,
    summary: 'Workspace: choose a password (invitation or reset link)',
    tags: TAGS,
    security: 'none',
    credentials: [],
    operationId: 'WorkspacePasswordPage',
    query: pageQuery,
    reply: (input) => passwordPage(input, (input.query as { token?: string }).token ?? ''),
    response: { description: 'The password form (HTML)', contentType: 'text/html' },
  },
  route({
    method: 'POST',
    path: '/workspace/password/',
    documented: false,
    summary: 'Workspace: set the password of an invitation or reset link',
    tags: TAGS,
    security: 'none',
    credentials: [],
    operation: 'WorkspaceSetPassword',
    consumes: 'form',
    csrf: true,
    body: form,
    variables: ({ body }: Input<object, object, FormBody>) => ({ token: str(body.token), password: str(body.password) }),
    response: { status: 302, description: 'Password set: redirect to sign-in' },
    respond: () => ({ kind: 'redirect', status: 302, location: '/workspace/login/?password=set' }),
    respondError: (error, input) => passwordPage(input, str((input.req.body as Record<string, unknown>).token), error.message, error.status),
  }),
  {
    method: 'GET',
    path: '/workspace/password-reset/',
    documented: false,
    summary: 'Workspace: ask for a password reset link',
    tags: TAGS,
    security: 'none',
    credentials: [],
    operationId: 'WorkspacePasswordResetPage',
    reply: (input) => resetPage(input),
    response: { description: 'The reset form (HTML)', contentType: 'text/html' },
  },
  route({
    method: 'POST',
    path: '/workspace/password-reset/',
    documented: false,
    summary: 'Workspace: mail a password reset link',
    tags: TAGS,
    security: 'none',
    credentials: [],
    operation: 'WorkspaceRequestPasswordReset',
    consumes: 'form',
    csrf: true,
    body: form,
    variables: ({ body }: Input<object, object, FormBody>) => ({ email: str(body.email) }),
    response: { description: 'The same answer whether or not the address has an account (HTML)', contentType: 'text/html' },
    respond: (_data, input) => resetPage(input, 'If this address has an account, a link to choose a new password is on its way.'),
    respondError: pageError('Reset your password'),
  }),
];
