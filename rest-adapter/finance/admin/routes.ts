import { z } from 'zod';
import { cookieValue } from '../../../lib/credentials';
import { html } from '../../../lib/html';
import { ADMIN_SESSION_COOKIE } from '../../../subgraphs/finance/identity/credential';
import { BROKERAGE_LABELS, PROVIDER_CREDENTIALS, TOGGLES } from '../../../subgraphs/finance/kernel/contract';
import type { AnyRouteInput as RouteInput, Reply, Route } from '../../core/route';
import { ADMIN_APPS, adminError, APPS, appList, page, postRedirect, siteName, userOf, type AppIndexData } from './apps';
import { adminPage, csrfInput, financePage, flash, table, when, yesNo, money } from './layout';
import { bankingAdminRoutes } from './banking';
import { userAdminRoutes } from './users';
import { signupAdminRoutes } from './signup';
import { auditAdminRoutes } from './audit';
import { adjustmentAdminRoutes } from './adjustments';
import { operatorAdminRoutes } from './operators';
import { cardsCryptoAdminRoutes } from './cardscrypto';
import { paymentsAdminRoutes } from './payments';
import { logoSection, logoUploadRoute } from './logo';
import { route, type AdminPageOperation, type ResultOf } from '../operation';

/**
 * The admin console at /admin/ (contract: superuser sign-in; home is an executive dashboard;
 * /admin/<app>/ a plain model list with a back link), server-rendered through the route table:
 * every page is a persisted operation run as the signed-in superuser (session cookie `sessionid`,
 * HttpOnly, SameSite=Lax), every form carries the CSRF token.
 */

const SESSION_MAX_AGE = 14 * 24 * 3600;

const localPath = (next: unknown) => (typeof next === 'string' && /^\/admin\/[A-Za-z0-9/_.?=&-]*$/.test(next) ? next : '/admin/');

export const saved = (input: RouteInput, what: string) => flash(input, 'saved', () => `The ${what} was changed successfully.`);
const readOnlyBanner = (readOnly: boolean) =>
  readOnly
    ? [
        {
          level: 'error' as const,
          text: 'No valid licence: the node is read-only. Install a licence (Node › Licence); the settings record can still be changed.',
        },
      ]
    : [];

export const adminQuery = z.object({ saved: z.string().optional(), next: z.string().optional() });
export const form = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

/** The node's settings looked up by the contract's field names (TOGGLES): the generated result fits it. */
interface SettingsData {
  [field: string]: boolean | string | null;
}

/** The settings editor's fields: the contract's sixteen toggles, in its order (GraphQL names; checkboxes for switches). */
const SETTINGS_FIELDS = TOGGLES.map((t) => ({ field: t.field, label: t.label, help: t.controls, type: t.type }));
const BROKERS = Object.entries(BROKERAGE_LABELS);

const BRANDING_FIELDS: { field: BrandingTextField; label: string; type: string }[] = [
  { field: 'organisationName', label: 'Organisation name', type: 'text' },
  { field: 'legalEntity', label: 'Legal entity', type: 'text' },
  { field: 'faviconUrl', label: 'Favicon (URL or data:image URI)', type: 'text' },
  { field: 'colorPrimary', label: 'Primary colour', type: 'color' },
  { field: 'colorSecondary', label: 'Secondary colour', type: 'color' },
  { field: 'colorAccent', label: 'Accent colour', type: 'color' },
  { field: 'supportEmail', label: 'Support e-mail', type: 'email' },
  { field: 'supportPhone', label: 'Support phone', type: 'text' },
  { field: 'termsUrl', label: 'Terms URL', type: 'url' },
  { field: 'privacyUrl', label: 'Privacy URL', type: 'url' },
];

/** The node's identity, licence and system checks, toggles, users, ledger totals and recent activity. */
type DashboardData = ResultOf<'AdminDashboard'>;

/** The home page of support staff (a role below superusers: users, disputes and KYC reviews). */
function supportHome(input: RouteInput): Reply {
  return financePage(
    input,
    { title: 'Site administration', breadcrumbs: [] },
    html`<h2 class="title">Support</h2>
      <div class="module">
        <h2>What support staff can do</h2>
        <div class="body">
          <ul>
            <li><a href="/admin/identity/user/">Users</a>: search, freeze or unfreeze, KYC level</li>
            <li><a href="/admin/commerce/dispute/">Disputes</a></li>
            <li><a href="/admin/compliance/verification/">KYC reviews</a></li>
            <li><a href="/admin/adjustments/">Manual adjustments</a>: propose (a superuser approves)</li>
          </ul>
        </div>
      </div>`,
  );
}

function dashboard(d: DashboardData, input: RouteInput): Reply {
  const n = d.nodeInfo;
  const settings: SettingsData = d.nodeSettings;
  const toggles = SETTINGS_FIELDS.filter((f) => f.type === 'boolean');
  const banners = [
    ...readOnlyBanner(n.readOnly),
    ...(n.maintenance ? [{ level: 'warning' as const, text: `Maintenance mode is on: "${String(d.nodeSettings.maintenanceMessage)}"` }] : []),
  ];
  // the checks and the host are a superuser's (null for anyone else): a session without them sees none
  const errors = (n.checks ?? []).filter((c) => c.level !== 'INFO');
  const body = html`<h2 class="title">Executive dashboard</h2>
    <div class="grid">
      <div class="module">
        <h2>Users</h2>
        <div class="body">
          <div class="stat">${d.nodeUserStats.total}</div>
          ${d.nodeUserStats.active} active · ${d.nodeUserStats.superusers} superusers · ${d.nodeUserStats.twoFactor} with 2FA
        </div>
      </div>
      <div class="module">
        <h2>Licence</h2>
        <div class="body">
          <div class="stat">${n.licence.valid ? 'Valid' : 'Read-only'}</div>
          ${n.licence.claims ? html`${n.licence.claims.organisationName} · plan ${n.licence.claims.plan} · up to ${n.licence.claims.maxNodes} nodes<br />` : ''}
          Status <strong>${n.licence.status}</strong> (from ${n.licence.source})${n.licence.expiresAt ? html` · token until ${when(n.licence.expiresAt)}` : ''}
          ${n.licence.checks.length ? html`<br />Failing checks: ${n.licence.checks.join(', ')}` : ''}
          ${n.deployment ? html`<br />Registry heartbeat: ${n.deployment.lastHeartbeatStatus ?? 'none yet'} (${when(n.deployment.lastHeartbeatAt)})` : ''}
          <br /><a href="/admin/node/licence/">Manage the licence →</a>
        </div>
      </div>
      <div class="module">
        <h2>Node</h2>
        <div class="body">
          <div class="stat">${n.name}</div>
          version ${n.version}${n.hostname ? ` · ${n.hostname}` : ''}<br />
          ${d.ledgerCounts.accounts} ledger accounts · ${d.ledgerCounts.transfers} transfers
        </div>
      </div>
    </div>
    ${table(
      'Total balances per currency (users)',
      ['Currency', 'Total', 'Accounts'],
      d.ledgerTotals.map((t) => [t.currency, html`<span class="num">${money(t.total)}</span>`, t.accounts]),
      'No balances yet.',
    )}
    <div class="module">
      <table>
        <caption>
          Toggles (<a href="/admin/node/settings/" style="color:#fff">change</a
          >)
        </caption>
        <tbody>
          ${toggles.map(
            (t) =>
              html`<tr>
                <th scope="row">${t.label}</th>
                <td>${yesNo(settings[t.field] === true)}</td>
              </tr>`,
          )}
          <tr>
            <th scope="row">Active stock brokerage provider</th>
            <td>${String(d.nodeSettings.brokerageProvider)}</td>
          </tr>
        </tbody>
      </table>
    </div>
    <div class="grid wide" id="recent">
      <div>
        ${table(
          'Recent activity',
          ['When', 'Who', 'What'],
          d.nodeActivity.map((a) => [when(a.at), a.actor, a.action]),
        )}
        <p><a href="/admin/audit/">The whole audit log →</a></p>
      </div>
      ${table(
        'Recent transfers',
        ['When', 'Amount', 'Code', 'Kind'],
        d.ledgerTransfers.map((t) => [when(t.createdAt), money(t.amount), t.code, t.kind]),
      )}
      ${table(
        'Recent sign-ins',
        ['User', 'When'],
        d.nodeRecentSignIns.map((s) => [s.username, when(s.at)]),
      )}
    </div>
    ${table(
      'System checks',
      ['Id', 'Level', 'Message'],
      errors.map((c) => [c.id, c.level, c.message]),
      'No issues.',
    )}
    <div class="module">
      <h2>Applications</h2>
      <table>
        <tbody>
          ${Object.entries(APPS).map(
            ([slug, app]) =>
              html`<tr>
                <th scope="row"><a href="/admin/${slug}/">${app.label}</a></th>
                <td>${app.models.map((m, i) => html`${i ? ', ' : ''}<a href="${m.href}">${m.label}</a>`)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  return page(input, { title: 'Site administration', user: userOf(input.req), banners }, body);
}

function settingsForm(d: { nodeInfo: { readOnly: boolean }; nodeSettings: SettingsData }, input: RouteInput): Reply {
  const s = d.nodeSettings;
  const rows = SETTINGS_FIELDS.map((f) => {
    const id = `id_${f.field}`;
    const control =
      f.type === 'boolean'
        ? html`<input type="checkbox" id="${id}" name="${f.field}" ${s[f.field] === true ? 'checked' : ''} />`
        : f.type === 'text'
          ? html`<textarea id="${id}" name="${f.field}" maxlength="500">${String(s[f.field] ?? '')}</textarea>`
          : html`<select id="${id}" name="${f.field}">
              ${BROKERS.map(([v, l]) => html`<option value="${v}" ${s[f.field] === v ? 'selected' : ''}>${l}</option>`)}
            </select>`;
    return html`<div class="row">
      <label class="name" for="${id}">${f.label}</label>
      <div>
        ${control}
        <div class="help">${f.help}</div>
      </div>
    </div>`;
  });
  return page(
    input,
    {
      title: 'Change settings record',
      user: userOf(input.req),
      breadcrumbs: [{ label: 'Node', href: '/admin/node/' }, { label: 'Settings record' }],
      banners: [...saved(input, 'settings record'), ...readOnlyBanner(d.nodeInfo.readOnly)],
    },
    html`<h2 class="title">Change settings record</h2>
      <p>Last changed ${when(s.updatedAt as string)}${s.updatedBy ? html` by ${String(s.updatedBy)}` : ''}. Changes take effect at once, in every process.</p>
      <form method="post" class="aligned module" action="/admin/node/settings/">
        ${csrfInput(input.csrfToken)}
        <div class="body">${rows}</div>
        <div class="submit-row"><button type="submit" class="default" name="_save">Save</button></div>
      </form>`,
  );
}

type BrandingPageData = ResultOf<'AdminBranding'>;
/** The branding's text fields, the ones the form edits (the logo has its own section). */
type BrandingTextField = {
  [K in keyof BrandingPageData['nodeBranding']]: BrandingPageData['nodeBranding'][K] extends string ? K : never;
}[keyof BrandingPageData['nodeBranding']];

function brandingForm(d: BrandingPageData, input: RouteInput): Reply {
  const b = d.nodeBranding;
  return page(
    input,
    {
      title: 'Change branding',
      user: userOf(input.req),
      breadcrumbs: [{ label: 'Node', href: '/admin/node/' }, { label: 'Branding' }],
      banners: [...saved(input, 'branding'), ...readOnlyBanner(d.nodeInfo.readOnly)],
    },
    html`<h2 class="title">Change branding</h2>
      ${logoSection(b, input.csrfToken)}
      <form method="post" class="aligned module" action="/admin/node/branding/">
        ${csrfInput(input.csrfToken)}
        <div class="body">
          ${BRANDING_FIELDS.map(
            (f) =>
              html`<div class="row">
                <label class="name" for="id_${f.field}">${f.label}</label>
                <div>
                  <input
                    type="${f.type === 'color' ? 'text' : f.type}"
                    id="id_${f.field}"
                    name="${f.field}"
                    value="${b[f.field]}"
                    ${f.type === 'color' ? html` pattern="#[0-9a-fA-F]{6}"` : ''}
                  />
                  ${f.type === 'color' ? html` <span style="display:inline-block;width:18px;height:18px;vertical-align:middle;border:1px solid #ccc;background:${b[f.field]}"></span>` : ''}
                </div>
              </div>`,
          )}
        </div>
        <div class="submit-row"><button type="submit" class="default">Save</button></div>
      </form>`,
  );
}

function appIndex(d: AppIndexData, input: RouteInput): Reply {
  const slug = (input.params as { app: string }).app;
  const app = APPS[slug];
  return page(
    input,
    { title: `${app.label} administration`, user: userOf(input.req), breadcrumbs: [{ label: app.label }] },
    html`<a class="back" href="/admin/">← Back to the dashboard</a> ${table(
        app.label,
        ['Model', 'Rows'],
        app.models.map((m) => [html`<a href="${m.href}">${m.label}</a>`, m.count ? m.count(d) : '—']),
      )}`,
  );
}

export const str = (v: unknown) => (Array.isArray(v) ? String(v[0] ?? '') : typeof v === 'string' ? v : '');

/** The console's answer to a sign-in: the session cookie and a redirect, or (2FA enforced, not enrolled) the enrolment page. */
interface AdminSignInData {
  session: string | null;
  username: string;
  enrolment?: { secret: string; otpauthUri: string; qrCode?: string; enrolmentToken: string; expiresIn: number } | null;
}

function signedIn(data: AdminSignInData, input: RouteInput): Reply {
  if (!data.session) return enrolmentPage(input, data.enrolment!, {});
  return {
    kind: 'redirect',
    status: 302,
    location: localPath(str((input.body as Record<string, unknown>).next)),
    cookies: [{ name: ADMIN_SESSION_COOKIE, value: data.session, maxAgeSeconds: SESSION_MAX_AGE, httpOnly: true, sameSite: 'Lax' }],
  };
}

/** 2FA is enforced and the superuser has not enrolled: the secret (and its otpauth URI) for the authenticator app, and a code to confirm it. */
function enrolmentPage(
  input: RouteInput,
  e: { secret: string; otpauthUri: string; qrCode?: string; enrolmentToken: string },
  opts: { status?: number; message?: string },
): Reply {
  const next = localPath(str((input.req.body as Record<string, unknown> | undefined)?.next));
  return {
    kind: 'html',
    status: opts.status,
    html: adminPage(
      { title: 'Set up two-factor authentication', siteName: siteName(input.req) },
      html`<div class="login">
        <h1>Two-factor authentication</h1>
        <p>This node requires two-factor authentication. Add this account to your authenticator app, then enter the code it shows.</p>
        ${opts.message ? html`<p class="errorlist" role="alert">${opts.message}</p>` : ''}
        ${
          e.qrCode?.startsWith('data:image/svg+xml;base64,')
            ? html`<p><img id="otp-qr" src="${e.qrCode}" width="200" height="200" alt="QR code of the key for your authenticator app" /></p>`
            : ''
        }
        <p>Secret: <code data-secret="${e.secret}">${e.secret}</code></p>
        <p>Or open: <a href="${e.otpauthUri}">${e.otpauthUri}</a></p>
        <form method="post" action="/admin/login/2fa/">
          ${csrfInput(input.csrfToken)}<input type="hidden" name="next" value="${next}" />
          <input type="hidden" name="enrolment_token" value="${e.enrolmentToken}" />
          <input type="hidden" name="secret" value="${e.secret}" />
          <input type="hidden" name="otpauth_uri" value="${e.otpauthUri}" />
          <div class="row">
            <label for="id_otp">One-time code</label
            ><input type="text" name="otp" id="id_otp" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" autofocus required />
          </div>
          <div class="submit-row" style="background:none;padding:0"><input type="submit" class="default" value="Confirm" /></div>
        </form>
      </div>`,
    ),
  };
}

function loginPage(input: RouteInput, opts: { status?: number; message?: string; username?: string }): Reply {
  const next = localPath(str((input.query as { next?: string }).next ?? (input.req.body as Record<string, unknown> | undefined)?.next));
  return {
    kind: 'html',
    status: opts.status,
    html: adminPage(
      { title: 'Log in', siteName: siteName(input.req) },
      html`<div class="login">
        <h1>${siteName(input.req)} administration</h1>
        <form method="post" action="/admin/login/">
          ${csrfInput(input.csrfToken)}<input type="hidden" name="next" value="${next}" />
          ${opts.message ? html`<p class="errorlist" role="alert">${opts.message}</p>` : ''}
          <div class="row">
            <label for="id_username">Username</label
            ><input type="text" name="username" id="id_username" autocomplete="username" autofocus required value="${opts.username ?? ''}" />
          </div>
          <div class="row">
            <label for="id_password">Password</label><input type="password" name="password" id="id_password" autocomplete="current-password" required />
          </div>
          <div class="row">
            <label for="id_otp">One-time code (if 2FA is on)</label
            ><input type="text" name="otp" id="id_otp" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" />
          </div>
          <div class="submit-row" style="background:none;padding:0"><input type="submit" class="default" value="Log in" /></div>
        </form>
      </div>`,
    ),
  };
}

const consoleRoutes: Route[] = [
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
  route({
    method: 'GET',
    path: '/admin/',
    summary: 'Admin console: executive dashboard',
    description: 'Users, total balances per currency, licence status, toggle states and recent activity.',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminDashboard',
    response: { description: 'Dashboard (HTML)', contentType: 'text/html' },
    respond: (data, input) => dashboard(data, input),
    // support staff may not read the dashboard's figures: their home lists what they may do
    respondError: (error, input) => (/^support_staff_forbidden$/i.test(error.code) ? supportHome(input) : adminError('Site administration')(error, input)),
  }),
  route({
    method: 'GET',
    path: '/admin/node/settings/',
    summary: 'Admin console: the settings record editor',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminSettings',
    query: adminQuery,
    response: { description: 'Editor (HTML)', contentType: 'text/html' },
    respond: (data, input) => settingsForm(data, input),
    respondError: adminError('Settings record'),
  }),
  route({
    method: 'POST',
    path: '/admin/node/settings/',
    summary: 'Admin console: save the settings record',
    description: 'Allowed in licence read-only mode. Effective at once in every process.',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminUpdateSettings',
    consumes: 'form',
    csrf: true,
    body: form,
    variables: ({ body }: { body: Record<string, unknown> }) => ({
      input: Object.fromEntries(
        SETTINGS_FIELDS.map((f) => [f.field, f.type === 'boolean' ? str(body[f.field]) !== '' : body[f.field] === undefined ? undefined : str(body[f.field])]),
      ),
    }),
    response: { status: 302, description: 'Saved: back to the editor' },
    respond: () => postRedirect('/admin/node/settings/?saved=1'),
    respondError: adminError('Settings record'),
  }),
  route({
    method: 'GET',
    path: '/admin/node/branding/',
    summary: 'Admin console: the branding editor',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminBranding',
    query: adminQuery,
    response: { description: 'Editor (HTML)', contentType: 'text/html' },
    respond: (data, input) => brandingForm(data, input),
    respondError: adminError('Branding'),
  }),
  route({
    method: 'POST',
    path: '/admin/node/branding/',
    summary: 'Admin console: save the branding',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminUpdateBranding',
    consumes: 'form',
    csrf: true,
    body: form,
    // `removeLogo`: the branding page's "Remove the logo" button (a logo itself is uploaded as a file: POST /admin/node/branding/logo/)
    variables: ({ body }: { body: Record<string, unknown> }) => ({
      input: {
        ...Object.fromEntries(BRANDING_FIELDS.filter((f) => body[f.field] !== undefined).map((f) => [f.field, str(body[f.field])])),
        ...(str(body.removeLogo) ? { logoUrl: '' } : {}),
      },
    }),
    response: { status: 302, description: 'Saved' },
    respond: () => postRedirect('/admin/node/branding/?saved=1'),
    respondError: adminError('Branding'),
  }),
  logoUploadRoute,
  route({
    method: 'GET',
    path: '/admin/node/licence/',
    summary: 'Admin console: licence status and installation',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminLicence',
    query: adminQuery,
    response: { description: 'Licence (HTML)', contentType: 'text/html' },
    respond: (data, input) => {
      const l = data.nodeInfo.licence;
      const licenceChecks = (data.nodeInfo.checks ?? []).filter((c) => /^app\.(E00[1-4]|E01[01]|W001|W013)$/.test(c.id));
      return page(
        input,
        {
          title: 'Licence',
          user: userOf(input.req),
          breadcrumbs: [{ label: 'Node', href: '/admin/node/' }, { label: 'Licence' }],
          banners: [...saved(input, 'licence'), ...readOnlyBanner(data.nodeInfo.readOnly)],
        },
        html`<h2 class="title">Licence</h2>
          <div class="module">
            <table>
              <tbody>
                <tr>
                  <th scope="row">Status</th>
                  <td>${l.status}</td>
                </tr>
                <tr>
                  <th scope="row">Source</th>
                  <td>${l.source} (${when(l.installedAt)})</td>
                </tr>
                <tr>
                  <th scope="row">Issuer / key</th>
                  <td>${l.issuer ?? '—'} / ${l.keyId ?? '—'}</td>
                </tr>
                <tr>
                  <th scope="row">Token valid until</th>
                  <td>${when(l.expiresAt)}</td>
                </tr>
                ${Object.entries(l.claims ?? {}).map(
                  ([k, v]) =>
                    html`<tr>
                      <th scope="row">${k}</th>
                      <td>${Array.isArray(v) ? v.join(', ') : String(v)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>
          ${table(
            'Licence checks',
            ['Id', 'Level', 'Message', 'Hint'],
            licenceChecks.map((c) => [c.id, c.level, c.message, c.hint ?? '']),
            'No issues.',
          )}
          <form method="post" class="aligned module" action="/admin/node/licence/activate/">
            ${csrfInput(input.csrfToken)}
            <h2>Activate with a licence key</h2>
            <div class="body">
              <div class="row">
                <label class="name" for="id_licence_key">Licence key</label>
                <div>
                  <input
                    id="id_licence_key"
                    name="licence_key"
                    required
                    pattern="[A-Za-z0-9]{3}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}"
                    placeholder="LIC-XXXX-XXXX-XXXX"
                    autocomplete="off"
                  />
                  <div class="help">
                    The key your vendor gave you. The node registers with the licence registry, fetches its signed licence and installs it.
                  </div>
                </div>
              </div>
              <div class="row">
                <label class="name" for="id_registry_url">Licence registry</label>
                <div>
                  <input
                    id="id_registry_url"
                    name="registry_url"
                    type="url"
                    value="${data.nodeInfo.deployment?.registryUrl ?? ''}"
                    placeholder="https://registry.example.com"
                  />
                  <div class="help">Its URL (https://). Empty: VENDOR_LICENSE_ENGINE_URL.</div>
                </div>
              </div>
            </div>
            <div class="submit-row"><button type="submit" class="default">Activate</button></div>
          </form>
          <form method="post" class="aligned module" action="/admin/node/licence/">
            ${csrfInput(input.csrfToken)}
            <h2>Or install a licence token and public key</h2>
            <div class="body">
              <div class="row">
                <label class="name" for="id_token">Licence token</label>
                <div>
                  <textarea id="id_token" name="token" required></textarea>
                  <div class="help">The Ed25519 JWT issued by the licence registry.</div>
                </div>
              </div>
              <div class="row">
                <label class="name" for="id_public_key">Public key</label>
                <div>
                  <textarea id="id_public_key" name="public_key" required></textarea>
                  <div class="help">PEM, one-line base64 SPKI, raw base64url or JWK.</div>
                </div>
              </div>
            </div>
            <div class="submit-row"><button type="submit" class="default">Install</button></div>
          </form>`,
      );
    },
    respondError: adminError('Licence'),
  }),
  route({
    method: 'POST',
    path: '/admin/node/licence/',
    summary: 'Admin console: install a licence token and public key',
    description: 'Only a pair that verifies is installed; the node returns to normal mode at once. Allowed in read-only mode.',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminInstallLicence',
    consumes: 'form',
    csrf: true,
    body: form,
    variables: ({ body }: { body: Record<string, unknown> }) => ({ token: str(body.token).trim(), publicKey: str(body.public_key).trim() }),
    response: { status: 302, description: 'Installed' },
    respond: () => postRedirect('/admin/node/licence/?saved=1'),
    respondError: adminError('Licence'),
  }),
  route({
    method: 'POST',
    path: '/admin/node/licence/activate/',
    summary: 'Admin console: activate with a registry licence key',
    description:
      'Registers the node with the licence registry (the URL given, else VENDOR_LICENSE_ENGINE_URL; https:// in production but on this machine) ' +
      'with a LIC-XXXX-XXXX-XXXX key, checks out its signed licence and installs it, as VENDOR_API_KEY does at start; heartbeats follow with ' +
      'that key. Only a licence signed by a vendor key the node trusts is installed. Allowed in read-only mode.',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminActivateLicence',
    consumes: 'form',
    csrf: true,
    body: form,
    variables: ({ body }: { body: Record<string, unknown> }) => ({
      licenceKey: str(body.licence_key).trim(),
      registryUrl: str(body.registry_url).trim() || null,
    }),
    response: { status: 302, description: 'Activated' },
    respond: () => postRedirect('/admin/node/licence/?saved=1'),
    respondError: adminError('Licence'),
  }),
  route({
    method: 'GET',
    path: '/admin/node/providercredential/',
    summary: 'Admin console: provider credentials (masked)',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminProviderCredentials',
    query: adminQuery,
    response: { description: 'List (HTML)', contentType: 'text/html' },
    respond: (data, input) =>
      appList(
        'node',
        {
          title: 'Provider credentials',
          columns: [
            { label: 'Provider', cell: (c) => c.provider, filter: true },
            { label: 'Name', cell: (c) => c.name },
            { label: 'Secret', cell: (c) => html`<code>${c.secretHint}</code>` },
            { label: 'Changed', cell: (c) => `${when(c.updatedAt)}${c.updatedBy ? ` by ${c.updatedBy}` : ''}` },
            {
              label: '',
              cell: (c) =>
                html`<form method="post" action="/admin/node/providercredential/${c.id}/delete/">
                  ${csrfInput(input.csrfToken)}<button class="delete" type="submit">Delete</button>
                </form>`,
              csv: false,
            },
          ],
        },
        data.nodeProviderCredentials,
        input,
        html`${saved(input, 'provider credential').map((b) => html`<div class="banner ok">${b.text}</div>`)}
          <form method="post" class="aligned module" action="/admin/node/providercredential/">
            ${csrfInput(input.csrfToken)}
            <div class="body">
              <div class="row">
                <label class="name" for="id_provider">Provider</label>
                <div>
                  <input type="text" id="id_provider" name="provider" required placeholder="equities_brokerage" />
                  <div class="help">One of the pairs below (the table lists what each module reads)</div>
                </div>
              </div>
              <div class="row">
                <label class="name" for="id_name">Name</label>
                <div><input type="text" id="id_name" name="name" required placeholder="api_key" /></div>
              </div>
              <div class="row">
                <label class="name" for="id_secret">Secret</label>
                <div>
                  <input type="password" id="id_secret" name="secret" required autocomplete="off" />
                  <div class="help">Encrypted at rest (AES-256-GCM); only shown masked.</div>
                </div>
              </div>
            </div>
            <div class="submit-row"><button type="submit" class="default">Add or replace</button></div>
          </form>
          ${table(
            'What each module reads (an environment variable that is set wins over the record)',
            ['Provider', 'Name', 'Module', 'Environment variable', 'Used for'],
            PROVIDER_CREDENTIALS.map((c) => [c.provider, c.name, c.service, html`<code>${c.env}</code>`, c.use]),
          )}`,
      ),
    respondError: adminError('Provider credentials'),
  }),
  route({
    method: 'POST',
    path: '/admin/node/providercredential/',
    summary: 'Admin console: add or replace a provider credential',
    description:
      "Encrypted at rest with FRAMEWORK_SECRET_KEY. Each finance module asks for its provider's records at call time (a change works without a restart); an environment variable that is set wins over the record. The pairs: " +
      PROVIDER_CREDENTIALS.map((c) => `\`${c.provider}\`/\`${c.name}\` (${c.service}, else \`${c.env}\`)`).join(', ') +
      '.',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminSaveProviderCredential',
    consumes: 'form',
    csrf: true,
    body: form,
    variables: ({ body }: { body: Record<string, unknown> }) => ({ provider: str(body.provider), name: str(body.name), secret: str(body.secret) }),
    response: { status: 302, description: 'Saved' },
    respond: () => postRedirect('/admin/node/providercredential/?saved=1'),
    respondError: adminError('Provider credentials'),
  }),
  route({
    method: 'POST',
    path: '/admin/node/providercredential/:id/delete/',
    summary: 'Admin console: delete a provider credential',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminDeleteProviderCredential',
    consumes: 'form',
    csrf: true,
    params: z.object({ id: z.string().uuid() }),
    body: form,
    variables: ({ params }: { params: { id: string } }) => ({ id: params.id }),
    response: { status: 302, description: 'Deleted' },
    respond: () => postRedirect('/admin/node/providercredential/?saved=1'),
    respondError: adminError('Provider credentials'),
  }),
  route({
    method: 'GET',
    path: '/admin/node/activity/',
    summary: 'Admin console: activity log',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminActivity',
    response: { description: 'List (HTML)', contentType: 'text/html' },
    respond: (data, input) =>
      appList(
        'node',
        {
          title: 'Activity log',
          columns: [
            { label: 'When', cell: (a) => when(a.at) },
            { label: 'Who', cell: (a) => a.actor },
            { label: 'What', cell: (a) => a.action },
            { label: 'Detail', cell: (a) => html`<code>${a.detail}</code>` },
          ],
        },
        data.nodeActivity,
        input,
      ),
    respondError: adminError('Activity log'),
  }),
  ...userAdminRoutes,
  ...signupAdminRoutes,
  ...auditAdminRoutes,
  ...adjustmentAdminRoutes,
  ...operatorAdminRoutes,
  route({
    method: 'GET',
    path: '/admin/ledger/account/',
    summary: 'Admin console: ledger accounts',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminAccounts',
    response: { description: 'List (HTML)', contentType: 'text/html' },
    respond: (data, input) =>
      appList(
        'ledger',
        {
          title: 'Accounts',
          columns: [
            { label: 'Account', cell: (a) => html`<code>${a.id}</code>` },
            { label: 'Owner', cell: (a) => (a.ownerType === 'system' ? 'system' : html`<code>${a.ownerId}</code>`) },
            { label: 'Currency', cell: (a) => a.currency, filter: true },
            { label: 'Code', cell: (a) => a.code, filter: true },
            { label: 'Debits posted', cell: (a) => a.debitsPosted.amount },
            { label: 'Credits posted', cell: (a) => a.creditsPosted.amount },
            { label: 'Debits pending', cell: (a) => a.debitsPending.amount },
            { label: 'Credits pending', cell: (a) => a.creditsPending.amount },
          ],
        },
        data.ledgerAccounts,
        input,
      ),
    respondError: adminError('Accounts'),
  }),
  route({
    method: 'GET',
    path: '/admin/ledger/transfer/',
    summary: 'Admin console: ledger transfers',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminTransfers',
    response: { description: 'List (HTML)', contentType: 'text/html' },
    respond: (data, input) =>
      appList(
        'ledger',
        {
          title: 'Transfers',
          columns: [
            { label: 'Transfer', cell: (t) => html`<code>${t.id}</code>` },
            { label: 'When', cell: (t) => when(t.createdAt) },
            { label: 'Amount', cell: (t) => money(t.amount) },
            { label: 'Debit', cell: (t) => html`<code>${t.debitAccountId.slice(0, 8)}</code>` },
            { label: 'Credit', cell: (t) => html`<code>${t.creditAccountId.slice(0, 8)}</code>` },
            { label: 'Code', cell: (t) => t.code, filter: true },
            { label: 'Kind', cell: (t) => t.kind, filter: true },
          ],
        },
        data.ledgerTransfers,
        input,
      ),
    respondError: adminError('Transfers'),
  }),
  ...cardsCryptoAdminRoutes,
  ...paymentsAdminRoutes,
];

/** Each page's operation also names the signed-in superuser (nodeAdminUser), for the page header. */
export const adminRoutes: Route[] = [...consoleRoutes, ...bankingAdminRoutes].map(withAdminUser);

/**
 * /admin/<app>/: an app's model list. The surface puts it after EVERY console page (rest-adapter/finance/index.ts):
 * the pattern would otherwise answer for a page registered after it.
 */
export const adminAppIndexRoute: Route = withAdminUser(
  route({
    method: 'GET',
    path: '/admin/:app/',
    summary: "Admin console: an app's model list",
    description: 'node, identity, ledger, compliance, commerce, banking, cards, crypto or investing: its models, with a link back to the dashboard.',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminAppIndex',
    params: z.object({ app: z.enum(ADMIN_APPS) }),
    response: { description: 'Model list (HTML)', contentType: 'text/html' },
    respond: (data, input) => appIndex(data, input),
    respondError: adminError('Administration'),
  }),
);

/** A console page whose operation names the signed-in superuser (nodeAdminUser) shows it in the header. */
export function withAdminUser(route: Route): Route {
  const respond = route.respond;
  if (!respond) return route;
  return {
    ...route,
    // any route's data: a console page's selects the signed-in superuser
    respond: (data: Partial<Pick<ResultOf<AdminPageOperation>, 'nodeAdminUser'>> | null, input: RouteInput) => {
      if (data?.nodeAdminUser && input.req.res) input.req.res.locals.adminUser = data.nodeAdminUser.username;
      return respond(data, input);
    },
  };
}
