import { z } from 'zod';
import { listView, type ListColumn } from '../../console/list';
import { html, type Raw } from '../../../lib/html';
import type { AnyRouteInput as RouteInput, Reply, Route } from '../../core/route';
import { csrfInput, financeError, financePage, when, money } from './layout';
import { route } from '../operation';

/**
 * The admin console's banking pages: virtual accounts, rail and mobile-money movements (a stuck
 * pending one can be voided: the ledger releases its hold) and the providers' webhooks as received.
 */

function page(
  input: RouteInput,
  title: string,
  user: string | undefined,
  body: Raw,
  opts: { status?: number; banners?: { level: 'error' | 'ok'; text: string }[] } = {},
): Reply {
  return financePage(
    input,
    {
      title,
      user,
      status: opts.status,
      banners: opts.banners,
      breadcrumbs: [{ label: 'Banking', href: '/admin/banking/' }, { label: title }],
      back: { href: '/admin/banking/', label: 'Back to Banking' },
    },
    body,
  );
}

/** Not signed in → the sign-in page; any other failure (read-only, not pending…) → the message on a page (the console kit's). */
/** A banking list (the console kit's list: search, filters, paging, CSV), or its CSV file. */
function listPage<R>(
  input: RouteInput,
  title: string,
  user: string | undefined,
  columns: ListColumn<R>[],
  rows: R[],
  opts: { before?: Raw; banners?: { level: 'error' | 'ok'; text: string }[] } = {},
): Reply {
  const view = listView({ title, path: input.req.path, columns, filename: `banking-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}` }, rows, input);
  if (view.kind === 'file') return view.reply;
  return page(input, title, user, html`${opts.before ?? ''}${view.body}`, { banners: opts.banners });
}

const pageError = (title: string) => financeError(title, { breadcrumbs: [{ label: 'Banking', href: '/admin/banking/' }, { label: title }] });

const STATUSES = ['pending', 'posted', 'voided'] as const;

/** The sandbox's "simulate incoming transfer" form of an account. */
const simulateForm = (input: RouteInput, id: string, currency: string) =>
  html`<form method="post" action="/admin/banking/virtualaccount/${id}/simulate/" class="inline">
    ${csrfInput(input.csrfToken)}<label>Amount (${currency}) <input name="amount" inputmode="decimal" required size="8" value="100.00" /></label
    ><button type="submit">Simulate incoming transfer</button>
  </form>`;

export const bankingAdminRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/admin/banking/virtualaccount/',
    summary: 'Admin console: virtual accounts',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminVirtualAccounts',
    response: { description: 'List (HTML)', contentType: 'text/html' },
    respond: (data, input) =>
      listPage(
        input,
        'Virtual accounts',
        data.nodeAdminUser?.username,
        [
          { label: 'Account number', cell: (a) => html`<code>${a.accountNumber}</code>` },
          { label: 'Currency', cell: (a) => a.currency, filter: true },
          { label: 'Rail', cell: (a) => a.rail },
          { label: 'Bank', cell: (a) => `${a.bankName} (${a.bankCode})` },
          { label: 'Holder', cell: (a) => a.holderName },
          { label: 'Opened', cell: (a) => when(a.createdAt) },
          { label: 'Action', cell: (a) => (a.sandbox ? simulateForm(input, a.id, a.currency) : ''), csv: false },
        ],
        data.adminVirtualAccounts,
        {
          banners: (input.req.query as { simulated?: string }).simulated
            ? [{ level: 'ok', text: 'The simulated incoming transfer was received: the amount is in the holder’s wallet.' }]
            : [],
        },
      ),
    respondError: pageError('Virtual accounts'),
  }),
  route({
    method: 'POST',
    path: '/admin/banking/virtualaccount/:id/simulate/',
    summary: 'Admin console: a simulated incoming transfer to a virtual account (sandbox only)',
    description: "The sandbox rail's signed credit.received for the account, through the webhook receiver, as the rail sends it.",
    tags: ['Admin console'],
    security: 'session',
    // the sandbox's test helper: not in the API document (a node with a real provider has no such page)
    documented: false,
    operation: 'AdminSimulateIncomingTransfer',
    consumes: 'form',
    csrf: true,
    params: z.object({ id: z.string().uuid() }),
    body: z.object({ amount: z.string().min(1).max(40), sender_name: z.string().max(200).optional() }).passthrough(),
    variables: ({ params, body }: { params: { id: string }; body: { amount: string; sender_name?: string } }) => ({
      accountId: params.id,
      amount: body.amount,
      senderName: body.sender_name || null,
    }),
    response: { status: 302, description: 'Received: back to the list' },
    respond: () => ({ kind: 'redirect', status: 302, location: '/admin/banking/virtualaccount/?simulated=1' }),
    respondError: pageError('Simulate an incoming transfer'),
  }),
  route({
    method: 'GET',
    path: '/admin/banking/movement/',
    summary: 'Admin console: rail and mobile money transfers',
    description: '`?status=pending|posted|voided` filters; a pending one has a Void button (for a transfer the provider never answered).',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminBankingMovements',
    query: z.object({ status: z.enum(STATUSES).optional(), voided: z.string().optional() }),
    variables: ({ query }: { query: { status?: string } }) => ({ status: query.status ?? null }),
    response: { description: 'List (HTML)', contentType: 'text/html' },
    respond: (data, input) =>
      listPage(
        input,
        'Transfers',
        data.nodeAdminUser?.username,
        [
          { label: 'Transfer', cell: (m) => html`<code>${m.id}</code>` },
          { label: 'Created', cell: (m) => when(m.createdAt) },
          { label: 'Type', cell: (m) => m.kind, filter: true },
          { label: 'Provider', cell: (m) => m.provider, filter: true },
          { label: 'Amount', cell: (m) => money(m.amount) },
          { label: 'Status', cell: (m) => m.status, filter: true },
          { label: 'Reason', cell: (m) => m.failureReason ?? '' },
          {
            label: '',
            cell: (m) =>
              m.status === 'pending'
                ? html`<form method="post" action="/admin/banking/movement/${m.id}/void/">
                    ${csrfInput(input.csrfToken)}<button type="submit">Void</button>
                  </form>`
                : '',
            csv: false,
          },
        ],
        data.adminBankingMovements,
        {
          before: html`<p>${['all', ...STATUSES].map((s) => html`<a href="/admin/banking/movement/${s === 'all' ? '' : `?status=${s}`}">${s}</a> `)}</p>`,
          banners: (input.query as { voided?: string }).voided ? [{ level: 'ok', text: 'The transfer was voided: its hold is released.' }] : [],
        },
      ),
    respondError: pageError('Transfers'),
  }),
  route({
    method: 'POST',
    path: '/admin/banking/movement/:id/void/',
    summary: 'Admin console: void a stuck pending transfer',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminVoidBankingMovement',
    consumes: 'form',
    csrf: true,
    params: z.object({ id: z.string().uuid() }),
    body: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
    variables: ({ params }: { params: { id: string } }) => ({ id: params.id }),
    response: { status: 302, description: 'Voided: back to the list' },
    respond: () => ({ kind: 'redirect', status: 302, location: '/admin/banking/movement/?voided=1' }),
    respondError: pageError('Void a transfer'),
  }),
  route({
    method: 'GET',
    path: '/admin/banking/event/',
    summary: "Admin console: providers' webhooks",
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminBankingEvents',
    response: { description: 'List (HTML)', contentType: 'text/html' },
    respond: (data, input) =>
      listPage(
        input,
        'Provider events',
        data.nodeAdminUser?.username,
        [
          { label: 'Provider', cell: (e) => e.provider, filter: true },
          { label: 'Event', cell: (e) => html`<code>${e.eventId}</code>` },
          { label: 'Type', cell: (e) => e.type, filter: true },
          { label: 'Outcome', cell: (e) => e.outcome ?? '—' },
          { label: 'Received', cell: (e) => when(e.receivedAt) },
          { label: 'Processed', cell: (e) => when(e.processedAt) },
        ],
        data.adminBankingEvents,
      ),
    respondError: pageError('Provider events'),
  }),
];
