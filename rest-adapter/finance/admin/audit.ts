import { z } from 'zod';
import { html, type Raw } from '../../../lib/html';
import { listQuery, listView, type ListSpec } from '../../console/list';
import type { AnyRouteInput, Reply, Route } from '../../core/route';
import { financeError, financePage, userCell, when } from './layout';
import { route, type ResultOf } from '../operation';

/** The audit log (node.audit_log) at /admin/audit/: the console kit's list with search, a filter by action, paging and CSV export. */

type AuditRow = ResultOf<'AdminAuditLog'>['nodeAuditLog'][number];

const label = (key: string) =>
  key
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
const shown = (v: unknown): string => (v === null || v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));

/**
 * An entry's detail as a reader takes it: "key: value" pairs, the user it is about by their @handle
 * (linked) rather than a UUID; the raw JSON stays in the CSV export.
 */
export function readableDetail(a: AuditRow): Raw {
  let detail: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(a.detail);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return html`<code>${a.detail}</code>`;
    detail = parsed as Record<string, unknown>;
  } catch {
    return html`<code>${a.detail}</code>`;
  }
  const pairs = Object.entries(detail).filter(([k]) => !(a.user && (k === 'user' || k === 'username')));
  const parts: Raw[] = pairs.map(([k, v]) => html`<span>${label(k)}: <strong>${shown(v)}</strong></span>`);
  // the person alone in their line: a link set apart from the text (WCAG link-in-text-block)
  const who = a.user && typeof detail.user === 'string' ? html`<div>${userCell({ userId: detail.user, user: a.user })}</div>` : html``;
  return html`${who}
    <div>${parts.map((p, i) => (i ? html` · ${p}` : p))}</div>`;
}

/** The actions the node records, for the filter (an action not listed is still shown, and found by search). */
export const AUDIT_ACTIONS = [
  'settings.changed',
  'branding.changed',
  'provider_credential.saved',
  'provider_credential.deleted',
  'licence.installed',
  'deployment.registered',
  'user.created',
  'user.frozen',
  'user.unfrozen',
  'user.kyc_level_set',
  'adjustment.proposed',
  'adjustment.approved',
  'adjustment.rejected',
  'transfer.voided',
  'dispute.reviewed',
  'dispute.resolved',
  'dispute.rejected',
  'order.fulfilled',
  'order.cancelled',
  'kyc.reviewed',
  'kyc.document_viewed',
] as const;

export const AUDIT_LIST: ListSpec<AuditRow> = {
  title: 'Audit log',
  path: '/admin/audit/',
  filename: 'audit-log',
  columns: [
    { label: 'When', cell: (a) => when(a.at), csv: (a) => a.at },
    { label: 'Actor', cell: (a) => a.actor },
    { label: 'Action', cell: (a) => html`<code>${a.action}</code>`, csv: (a) => a.action },
    { label: 'Detail', cell: readableDetail, csv: (a) => a.detail },
  ],
  searchable: (a) => [a.actor, a.action, a.detail, a.user?.username ?? ''],
  filters: [
    {
      name: 'action',
      label: 'Action',
      options: AUDIT_ACTIONS.map((a) => ({ value: a, label: a })),
      matches: (a, v) => a.action === v,
    },
  ],
  empty: 'Nothing recorded yet.',
};

function auditPage(data: ResultOf<'AdminAuditLog'>, input: AnyRouteInput): Reply {
  const view = listView(AUDIT_LIST, data.nodeAuditLog, input);
  if (view.kind === 'file') return view.reply;
  return financePage(
    input,
    {
      title: 'Audit log',
      breadcrumbs: [{ label: 'Node', href: '/admin/node/' }, { label: 'Audit log' }],
      back: { href: '/admin/', label: 'Back to the dashboard' },
    },
    html`<p class="help">
        What administrators changed, newest first (the latest 600 entries; older ones stay in the database): settings, branding, credentials, the licence,
        users, manual adjustments, voided transfers, disputes, shop orders and KYC reviews.
      </p>
      ${view.body}`,
  );
}

export const auditAdminRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/admin/audit/',
    summary: 'Admin console: the audit log',
    description:
      'Search (`q`: actor, action, detail), filter by `action`, 50 a page; `?format=csv` exports the filtered list. Every console write is recorded (settings, branding, provider credentials, licence, users added, frozen or unfrozen, KYC levels, manual adjustments, voids of pending transfers, dispute, shop order and KYC review decisions).',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminAuditLog',
    query: listQuery.extend({ action: z.string().max(64).optional() }),
    response: { description: 'List (HTML), or CSV with ?format=csv', contentType: 'text/html' },
    respond: auditPage,
    respondError: financeError('Audit log'),
  }),
];
