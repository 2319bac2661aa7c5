import { html } from '../../../lib/html';
import type { AnyRouteInput as RouteInput, Reply, Route } from '../../core/route';
import { tableList } from '../../console/list';
import { financeError, financePage, money, userCell, when } from './layout';
import { route, type AdminPageOperation, type ResultOf } from '../operation';

/**
 * Admin console pages of the cards and crypto modules: read-only lists (cards masked, never a full
 * number), each with a back link to the dashboard. Registered in admin/routes.ts with one line.
 */

const amount = money;

/** A list page of the cards or crypto app (the console kit's frame), with a link back to its app. */
function listPage(input: RouteInput, title: string, head: string[], rows: unknown[][], user?: string): Reply {
  const app = input.req.path.startsWith('/admin/crypto/') ? { label: 'Crypto', href: '/admin/crypto/' } : { label: 'Cards', href: '/admin/cards/' };
  const view = tableList(
    { title, path: input.req.path, head, filename: `${app.label.toLowerCase()}-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}` },
    rows,
    input,
  );
  if (view.kind === 'file') return view.reply;
  return financePage(input, { title, user, breadcrumbs: [app, { label: title }], back: { href: app.href, label: `Back to ${app.label}` } }, view.body);
}

/** Not signed in → the sign-in page (as every console page); another failure → the message on the page. */
const pageError = (title: string) => financeError(title);

const withUser = (data: { nodeAdminUser?: { username: string } }) => data.nodeAdminUser?.username;

function consolePage<N extends AdminPageOperation>(path: string, title: string, operation: N, head: string[], rows: (data: ResultOf<N>) => unknown[][]): Route {
  return route({
    method: 'GET',
    path,
    summary: `Admin console: ${title.toLowerCase()}`,
    tags: ['Admin console'],
    security: 'session',
    operation,
    response: { description: 'List (HTML)', contentType: 'text/html' },
    respond: (data, input) => listPage(input, title, head, rows(data), withUser(data)),
    respondError: pageError(title),
  });
}

export const cardsCryptoAdminRoutes: Route[] = [
  consolePage('/admin/cards/card/', 'Cards', 'AdminCards', ['Card', 'Number', 'Currency', 'Status', 'Per authorisation', 'Daily', 'Created'], (d) =>
    d.adminCards.map((c) => [
      html`<code>${c.id}</code>`,
      c.maskedNumber,
      c.currency,
      c.status,
      amount(c.perAuthorisationLimit),
      amount(c.dailyLimit),
      when(c.createdAt),
    ]),
  ),
  consolePage(
    '/admin/cards/authorisation/',
    'Card authorisations',
    'AdminCardAuthorisations',
    ['Authorisation', 'Card', 'Amount', 'Merchant', 'Status', 'Decline reason', 'Captured', 'When'],
    (d) =>
      d.adminCardAuthorisations.map((a) => [
        html`<code>${a.providerAuthorisationId}</code>`,
        html`<code>${a.cardId.slice(0, 8)}</code>`,
        amount(a.amount),
        a.merchantName,
        a.status,
        a.declineReason ?? '—',
        amount(a.capturedAmount),
        when(a.createdAt),
      ]),
  ),
  consolePage('/admin/crypto/address/', 'Deposit addresses', 'AdminCryptoAddresses', ['Address', 'Asset', 'Network', 'User', 'Created'], (d) =>
    d.adminCryptoDepositAddresses.map((a) => [html`<code>${a.address}</code>`, a.asset, a.network, userCell(a), when(a.createdAt)]),
  ),
  consolePage('/admin/crypto/deposit/', 'Crypto deposits', 'AdminCryptoDeposits', ['Deposit', 'Amount', 'Transaction', 'Status', 'Received', 'Credited'], (d) =>
    d.adminCryptoDeposits.map((x) => [
      html`<code>${x.id}</code>`,
      amount(x.amount),
      html`<code>${x.txHash || '—'}</code>`,
      x.status,
      when(x.createdAt),
      when(x.creditedAt),
    ]),
  ),
  consolePage('/admin/crypto/swap/', 'Crypto swaps', 'AdminCryptoSwaps', ['Swap', 'Sold', 'Fee', 'Bought', 'Rate', 'When'], (d) =>
    d.adminCryptoSwaps.map((s) => [html`<code>${s.id}</code>`, amount(s.fromAmount), amount(s.fee), amount(s.toAmount), s.rate, when(s.createdAt)]),
  ),
];
