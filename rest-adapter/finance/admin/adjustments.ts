import { z } from 'zod';
import { html } from '../../../lib/html';
import type { AnyRouteInput, Reply, Route } from '../../core/route';
import { csrfInput, financeError, financePage, table, when, money } from './layout';
import { route, type ResultOf } from '../operation';

/**
 * Manual adjustments at /admin/adjustments/ (maker-checker): propose a credit or debit of a user's
 * wallet; a different administrator approves (posted through the ledger) or rejects it.
 */

type AdjustmentRow = ResultOf<'AdminAdjustments'>['ledgerAdjustments'][number];

const PATH = '/admin/adjustments/';
const form = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
const field = (body: Record<string, unknown>, name: string) => (typeof body[name] === 'string' ? body[name] : '');
const BANNERS: Record<string, string> = {
  proposed: 'The adjustment was proposed: a different administrator must approve it.',
  approved: 'The adjustment was approved and posted.',
  rejected: 'The adjustment was rejected.',
};

function adjustmentsPage(data: ResultOf<'AdminAdjustments'>, input: AnyRouteInput): Reply {
  const saved = (input.query as { saved?: string }).saved;
  const me = input.req.res?.locals.adminUser as string | undefined;
  const actions = (a: AdjustmentRow) =>
    a.status !== 'pending'
      ? '—'
      : html`<div class="actions">
          ${
            a.proposedBy === me
              ? ''
              : html`<form method="post" action="${PATH}${a.id}/approve/">
                  ${csrfInput(input.csrfToken)}<button class="default" type="submit">Approve</button>
                </form>`
          }
          <form method="post" action="${PATH}${a.id}/reject/">${csrfInput(input.csrfToken)}<button class="delete" type="submit">Reject</button></form>
        </div>`;
  return financePage(
    input,
    {
      title: 'Manual adjustments',
      banners: saved && BANNERS[saved] ? [{ level: 'ok', text: BANNERS[saved] }] : [],
      breadcrumbs: [{ label: 'Ledger', href: '/admin/ledger/' }, { label: 'Manual adjustments' }],
      back: { href: '/admin/ledger/', label: 'Back to Ledger' },
    },
    html`<div class="module">
        <h2>Propose an adjustment</h2>
        <form class="aligned body" method="post" action="${PATH}">
          ${csrfInput(input.csrfToken)}
          <div class="row"><label class="name" for="id_user">User</label><input type="text" name="user" id="id_user" required /></div>
          <div class="row">
            <label class="name" for="id_direction">Direction</label>
            <select name="direction" id="id_direction">
              <option value="credit">credit (into the wallet)</option>
              <option value="debit">debit (out of the wallet)</option>
            </select>
          </div>
          <div class="row">
            <label class="name" for="id_currency">Currency</label><input type="text" name="currency" id="id_currency" value="EUR" required />
          </div>
          <div class="row">
            <label class="name" for="id_amount">Amount</label><input type="text" name="amount" id="id_amount" inputmode="decimal" required />
          </div>
          <div class="row"><label class="name" for="id_reason">Reason</label><textarea name="reason" id="id_reason" maxlength="500" required></textarea></div>
          <div class="submit-row"><button class="default" type="submit">Propose</button></div>
        </form>
      </div>
      <p class="help">A proposal is posted only once a different administrator approves it; a debit never takes a wallet below zero.</p>
      ${table(
        'Adjustments',
        ['Proposed', 'User', 'Direction', 'Amount', 'Reason', 'Status', 'Proposed by', 'Decided', 'Actions'],
        data.ledgerAdjustments.map((a) => [
          when(a.proposedAt),
          html`<a href="/admin/identity/user/${a.userId}/">${a.username}</a>`,
          a.direction,
          html`<span class="num">${money(a.amount)}</span>`,
          a.reason,
          a.status,
          a.proposedBy,
          a.decidedBy ? `${a.decidedBy}, ${when(a.decidedAt)}` : '—',
          actions(a),
        ]),
        'No adjustments yet.',
      )}`,
  );
}

const idParam = z.object({ id: z.string().uuid() });
const decision = (verb: 'approve' | 'reject', operation: string, description: string): Route => ({
  method: 'POST',
  path: `${PATH}:id/${verb}/`,
  summary: `Admin console: ${verb} a manual adjustment`,
  description,
  tags: ['Admin console'],
  security: 'session',
  operation,
  consumes: 'form',
  csrf: true,
  params: idParam,
  body: form,
  variables: ({ params }: { params: { id: string } }) => ({ id: params.id }),
  response: { status: 302, description: 'Decided: back to the list' },
  errors: verb === 'approve' ? [403, 404, 409, 422] : [404, 409],
  respond: () => ({ kind: 'redirect', status: 302, location: `${PATH}?saved=${verb === 'approve' ? 'approved' : 'rejected'}` }),
  respondError: financeError('Manual adjustments', { back: { href: PATH, label: 'Back to Manual adjustments' } }),
});

export const adjustmentAdminRoutes: Route[] = [
  route({
    method: 'GET',
    path: PATH,
    summary: 'Admin console: manual adjustments',
    description: 'The form to propose a credit or debit of a wallet, and the adjustments (pending first) with approve and reject buttons.',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminAdjustments',
    query: z.object({ saved: z.enum(['proposed', 'approved', 'rejected']).optional() }),
    response: { description: 'The page (HTML)', contentType: 'text/html' },
    respond: adjustmentsPage,
    respondError: financeError('Manual adjustments'),
  }),
  route({
    method: 'POST',
    path: PATH,
    summary: 'Admin console: propose a manual adjustment',
    description:
      'Form fields `user` (user name, e-mail or phone), `direction` (credit, debit), `currency`, `amount` (a decimal string), `reason` and the CSRF token. Pending until a different administrator approves it. Audited.',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminProposeAdjustment',
    consumes: 'form',
    csrf: true,
    body: form,
    variables: ({ body }: { body: Record<string, unknown> }) => ({
      user: field(body, 'user'),
      currency: field(body, 'currency'),
      amount: field(body, 'amount'),
      direction: field(body, 'direction'),
      reason: field(body, 'reason'),
    }),
    response: { status: 302, description: 'Proposed: back to the list' },
    errors: [400],
    respond: () => ({ kind: 'redirect', status: 302, location: `${PATH}?saved=proposed` }),
    respondError: financeError('Manual adjustments', { back: { href: PATH, label: 'Back to Manual adjustments' } }),
  }),
  decision(
    'approve',
    'AdminApproveAdjustment',
    'Approves and posts a pending adjustment through the ledger (once). Its proposer may not: 403. Already decided: 409. A debit beyond the wallet: 422, still pending. Audited.',
  ),
  decision('reject', 'AdminRejectAdjustment', 'Rejects a pending adjustment: nothing is posted. Already decided: 409. Audited.'),
];
