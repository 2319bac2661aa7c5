import { z } from 'zod';
import { html } from '../../../lib/html';
import type { AnyRouteInput, Reply, Route } from '../../core/route';
import { csrfInput, financeError, financePage, table, when } from './layout';
import { route, type ResultOf } from '../operation';

/**
 * Operator changes at /admin/identity/operator-change/ (two people): a superuser proposes creating,
 * elevating, demoting, freezing or re-activating an operator of this console; a DIFFERENT superuser,
 * who is not the operator concerned, approves it (it applies then) or rejects it. Adding a user with
 * the superuser or support staff box proposes the role the same way. The host's CLI
 * (`npm run cli -- finance:createsuperuser`) stays the way in when nobody is left to approve.
 */

type OperatorChangeRow = ResultOf<'AdminOperatorChanges'>['nodeOperatorChanges'][number];

export const OPERATOR_CHANGE_PATH = '/admin/identity/operator-change/';
const PATH = OPERATOR_CHANGE_PATH;
const CHANGES: [string, string][] = [
  ['superuser', 'make superuser'],
  ['support', 'make support staff'],
  ['remove_role', 'remove the operator role'],
  ['freeze', 'freeze the operator'],
  ['reactivate', 're-activate the operator'],
];
const form = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
const field = (body: Record<string, unknown>, name: string) => (typeof body[name] === 'string' ? body[name] : '');
const BANNERS: Record<string, string> = {
  proposed: 'The change was proposed: a different superuser must approve it.',
  approved: 'The change was approved and applied.',
  rejected: 'The change was rejected.',
};

function changesPage(data: ResultOf<'AdminOperatorChanges'>, input: AnyRouteInput): Reply {
  const saved = (input.query as { saved?: string }).saved;
  const me = input.req.res?.locals.adminUser as string | undefined;
  const actions = (c: OperatorChangeRow) =>
    c.status !== 'pending'
      ? '—'
      : html`<div class="actions">
          ${
            c.proposedByName === me || c.username === me
              ? ''
              : html`<form method="post" action="${PATH}${c.id}/approve/">
                  ${csrfInput(input.csrfToken)}<button class="default" type="submit">Approve</button>
                </form>`
          }
          <form method="post" action="${PATH}${c.id}/reject/">${csrfInput(input.csrfToken)}<button class="delete" type="submit">Reject</button></form>
        </div>`;
  return financePage(
    input,
    {
      title: 'Operator changes',
      banners: saved && BANNERS[saved] ? [{ level: 'ok', text: BANNERS[saved] }] : [],
      breadcrumbs: [{ label: 'Identity', href: '/admin/identity/' }, { label: 'Operator changes' }],
      back: { href: '/admin/identity/', label: 'Back to Identity' },
    },
    html`<div class="module">
        <h2>Propose an operator change</h2>
        <form class="aligned body" method="post" action="${PATH}">
          ${csrfInput(input.csrfToken)}
          <div class="row"><label class="name" for="id_user">User</label><input type="text" name="user" id="id_user" required /></div>
          <div class="row">
            <label class="name" for="id_change">Change</label>
            <select name="change" id="id_change">
              ${CHANGES.map(([value, label]) => html`<option value="${value}">${label}</option>`)}
            </select>
          </div>
          <div class="row"><label class="name" for="id_reason">Reason</label><textarea name="reason" id="id_reason" maxlength="500"></textarea></div>
          <div class="submit-row"><button class="default" type="submit">Propose</button></div>
        </form>
      </div>
      <p class="help">
        Creating, elevating, demoting, freezing or re-activating an operator takes two people: it applies once a different superuser, who is not the operator
        concerned, approves it. Nobody changes their own account. The host's command line stays the way in when nobody is left to approve.
      </p>
      ${table(
        'Operator changes',
        ['Proposed', 'User', 'Change', 'Reason', 'Status', 'Proposed by', 'Decided', 'Actions'],
        data.nodeOperatorChanges.map((c) => [
          when(c.proposedAt),
          html`<a href="/admin/identity/user/${c.userId}/">${c.username}</a>`,
          c.change,
          c.reason,
          c.status,
          c.proposedByName,
          c.decidedByName ? `${c.decidedByName}, ${when(c.decidedAt)}` : '—',
          actions(c),
        ]),
        'No operator changes yet.',
      )}`,
  );
}

const idParam = z.object({ id: z.string().uuid() });
const decision = (verb: 'approve' | 'reject', operation: string, description: string): Route => ({
  method: 'POST',
  path: `${PATH}:id/${verb}/`,
  summary: `Admin console: ${verb} an operator change`,
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
  errors: verb === 'approve' ? [403, 404, 409] : [404, 409],
  respond: () => ({ kind: 'redirect', status: 302, location: `${PATH}?saved=${verb === 'approve' ? 'approved' : 'rejected'}` }),
  respondError: financeError('Operator changes', { back: { href: PATH, label: 'Back to Operator changes' } }),
});

export const operatorAdminRoutes: Route[] = [
  route({
    method: 'GET',
    path: PATH,
    summary: 'Admin console: operator changes',
    description: 'The form to propose an operator change, and the changes (newest first) with approve and reject buttons. Superusers only.',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminOperatorChanges',
    query: z.object({ saved: z.enum(['proposed', 'approved', 'rejected']).optional() }),
    response: { description: 'The page (HTML)', contentType: 'text/html' },
    respond: changesPage,
    respondError: financeError('Operator changes'),
  }),
  route({
    method: 'POST',
    path: PATH,
    summary: 'Admin console: propose an operator change',
    description:
      'Form fields `user` (user name or id), `change` (superuser, support, remove_role, freeze, reactivate), `reason` and the CSRF token. ' +
      'Never of oneself (403); 409 when it changes nothing or one is pending for the user. Pending until a different superuser approves it. Audited.',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminProposeOperatorChange',
    consumes: 'form',
    csrf: true,
    body: form,
    variables: ({ body }: { body: Record<string, unknown> }) => ({ user: field(body, 'user'), change: field(body, 'change'), reason: field(body, 'reason') }),
    response: { status: 302, description: 'Proposed: back to the list' },
    errors: [400, 403, 404, 409],
    respond: () => ({ kind: 'redirect', status: 302, location: `${PATH}?saved=proposed` }),
    respondError: financeError('Operator changes', { back: { href: PATH, label: 'Back to Operator changes' } }),
  }),
  decision(
    'approve',
    'AdminApproveOperatorChange',
    'Approves a pending operator change, which applies at once. Its proposer or the operator it changes may not: 403. Already decided: 409. Audited.',
  ),
  decision(
    'reject',
    'AdminRejectOperatorChange',
    'Rejects (or, by its proposer, withdraws) a pending operator change: nothing applies. Already decided: 409. Audited.',
  ),
];
