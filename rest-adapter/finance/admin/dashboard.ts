import { z } from 'zod';
import { html } from '../../../lib/html';
import type { AnyRouteInput as RouteInput, Reply, Route } from '../../core/route';
import { ADMIN_APPS, adminError, APPS, page, readOnlyBanner, userOf, withAdminUser, type AppIndexData } from './apps';
import { financePage, table, when, yesNo, money } from './layout';
import { SETTINGS_FIELDS, settingsByField } from './node';
import { route, type ResultOf } from '../operation';

/**
 * The console's home (contract: an executive dashboard) and /admin/<app>/, an app's plain model list
 * with a back link to the dashboard.
 */

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

/** The dashboard's first row: users, the licence, the node. */
function summary(d: DashboardData) {
  const n = d.nodeInfo;
  return html`<div class="grid">
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
  </div>`;
}

/** The node's toggles as they stand, with a link to change them. */
function togglesTable(d: DashboardData) {
  const settings = settingsByField(d.nodeSettings);
  const toggles = SETTINGS_FIELDS.filter((f) => f.type === 'boolean');
  return html`<div class="module">
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
  </div>`;
}

function dashboard(d: DashboardData, input: RouteInput): Reply {
  const n = d.nodeInfo;
  const banners = [
    ...readOnlyBanner(n.readOnly),
    ...(n.maintenance ? [{ level: 'warning' as const, text: `Maintenance mode is on: "${String(d.nodeSettings.maintenanceMessage)}"` }] : []),
  ];
  // the checks and the host are a superuser's (null for anyone else): a session without them sees none
  const errors = (n.checks ?? []).filter((c) => c.level !== 'INFO');
  const body = html`<h2 class="title">Executive dashboard</h2>
    ${summary(d)}
    ${table(
      'Total balances per currency (users)',
      ['Currency', 'Total', 'Accounts'],
      d.ledgerTotals.map((t) => [t.currency, html`<span class="num">${money(t.total)}</span>`, t.accounts]),
      'No balances yet.',
    )}
    ${togglesTable(d)}
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

/** The console's home: the executive dashboard (support staff: what they may do). */
export const dashboardAdminRoutes: Route[] = [
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
];

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
