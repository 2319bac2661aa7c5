import { html } from '../../../lib/html';
import type { AnyRouteInput as RouteInput, Reply, Route } from '../../core/route';
import { listView, type ListColumn } from '../../console/list';
import { financeError, financePage, money, userCell, when } from './layout';
import { route, type AdminPageOperation, type ResultOf } from '../operation';

/**
 * Admin console pages of the cards and crypto modules: read-only lists (cards masked, never a full
 * number), each with a back link to the dashboard. Registered in admin/routes.ts with one line.
 */

const amount = money;

/** A list page of the cards or crypto app (the console kit's frame and list), with a link back to its app. */
function listPage<R>(input: RouteInput, list: { title: string; columns: ListColumn<R>[] }, rows: R[], user?: string): Reply {
  const { title } = list;
  const app = input.req.path.startsWith('/admin/crypto/') ? { label: 'Crypto', href: '/admin/crypto/' } : { label: 'Cards', href: '/admin/cards/' };
  const view = listView(
    { ...list, path: input.req.path, filename: `${app.label.toLowerCase()}-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}` },
    rows,
    input,
  );
  if (view.kind === 'file') return view.reply;
  return financePage(input, { title, user, breadcrumbs: [app, { label: title }], back: { href: app.href, label: `Back to ${app.label}` } }, view.body);
}

/** Not signed in → the sign-in page (as every console page); another failure → the message on the page. */
const pageError = (title: string) => financeError(title);

const withUser = (data: Pick<ResultOf<AdminPageOperation>, 'nodeAdminUser'>) => data.nodeAdminUser?.username;

/** A read-only list page: its operation's rows (`rows`) under the declared columns. */
function consolePage<N extends AdminPageOperation, R>(
  path: string,
  title: string,
  operation: N,
  rows: (data: ResultOf<N>) => R[],
  columns: ListColumn<R>[],
): Route {
  return route({
    method: 'GET',
    path,
    summary: `Admin console: ${title.toLowerCase()}`,
    tags: ['Admin console'],
    security: 'session',
    operation,
    response: { description: 'List (HTML)', contentType: 'text/html' },
    respond: (data, input) => listPage(input, { title, columns }, rows(data), withUser(data)),
    respondError: pageError(title),
  });
}

export const cardsCryptoAdminRoutes: Route[] = [
  consolePage('/admin/cards/card/', 'Cards', 'AdminCards', (d) => d.adminCards, [
    { label: 'Card', cell: (c) => html`<code>${c.id}</code>` },
    { label: 'Number', cell: (c) => c.maskedNumber },
    { label: 'Currency', cell: (c) => c.currency, filter: true },
    { label: 'Status', cell: (c) => c.status, filter: true },
    { label: 'Per authorisation', cell: (c) => amount(c.perAuthorisationLimit) },
    { label: 'Daily', cell: (c) => amount(c.dailyLimit) },
    { label: 'Created', cell: (c) => when(c.createdAt) },
  ]),
  consolePage('/admin/cards/authorisation/', 'Card authorisations', 'AdminCardAuthorisations', (d) => d.adminCardAuthorisations, [
    { label: 'Authorisation', cell: (a) => html`<code>${a.providerAuthorisationId}</code>` },
    { label: 'Card', cell: (a) => html`<code>${a.cardId.slice(0, 8)}</code>` },
    { label: 'Amount', cell: (a) => amount(a.amount) },
    { label: 'Merchant', cell: (a) => a.merchantName },
    { label: 'Status', cell: (a) => a.status, filter: true },
    { label: 'Decline reason', cell: (a) => a.declineReason ?? '—' },
    { label: 'Captured', cell: (a) => amount(a.capturedAmount) },
    { label: 'When', cell: (a) => when(a.createdAt) },
  ]),
  consolePage('/admin/crypto/address/', 'Deposit addresses', 'AdminCryptoAddresses', (d) => d.adminCryptoDepositAddresses, [
    { label: 'Address', cell: (a) => html`<code>${a.address}</code>` },
    { label: 'Asset', cell: (a) => a.asset },
    { label: 'Network', cell: (a) => a.network },
    { label: 'User', cell: (a) => userCell(a) },
    { label: 'Created', cell: (a) => when(a.createdAt) },
  ]),
  consolePage('/admin/crypto/deposit/', 'Crypto deposits', 'AdminCryptoDeposits', (d) => d.adminCryptoDeposits, [
    { label: 'Deposit', cell: (x) => html`<code>${x.id}</code>` },
    { label: 'Amount', cell: (x) => amount(x.amount) },
    { label: 'Transaction', cell: (x) => html`<code>${x.txHash || '—'}</code>` },
    { label: 'Status', cell: (x) => x.status, filter: true },
    { label: 'Received', cell: (x) => when(x.createdAt) },
    { label: 'Credited', cell: (x) => when(x.creditedAt) },
  ]),
  consolePage('/admin/crypto/swap/', 'Crypto swaps', 'AdminCryptoSwaps', (d) => d.adminCryptoSwaps, [
    { label: 'Swap', cell: (s) => html`<code>${s.id}</code>` },
    { label: 'Sold', cell: (s) => amount(s.fromAmount) },
    { label: 'Fee', cell: (s) => amount(s.fee) },
    { label: 'Bought', cell: (s) => amount(s.toAmount) },
    { label: 'Rate', cell: (s) => s.rate },
    { label: 'When', cell: (s) => when(s.createdAt) },
  ]),
];
