import { z } from 'zod';
import { html, type Raw } from '../../../lib/html';
import { BROKERAGE_PROVIDERS, BROKERAGE_LABELS } from '../../../subgraphs/finance/kernel/contract';
import { ORDER_STATUSES, POLL_WHILE_STREAMING_MS } from '../../../subgraphs/finance/investing/vocabulary';
import { listView, type ListSpec } from '../../console/list';
import type { AnyRouteInput as RouteInput, Reply, Route } from '../../core/route';
import { financeError, financePage, money, table, when, yesNo } from './layout';
import { route, type ResultOf } from '../operation';

/**
 * The investing module's admin console pages: instruments (filter by provider and active), orders by
 * status, and the commands' runs with the DEX registry's load warnings. Same conventions as the
 * other apps' modules: a persisted operation run as the signed-in superuser, server-rendered.
 */

const NAV = [
  { label: 'Instruments', href: '/admin/investing/instrument/' },
  { label: 'Orders', href: '/admin/investing/order/' },
  { label: 'Sync and price runs', href: '/admin/investing/run/' },
];

function page(input: RouteInput, title: string, user: string | undefined, body: Raw): Reply {
  const nav = html`<p class="investing-nav">${NAV.map((n) => html`<a href="${n.href}">${n.label}</a> `)}</p>`;
  return financePage(
    input,
    {
      title,
      user,
      breadcrumbs: [{ label: 'Investing', href: '/admin/investing/' }, { label: title }],
      back: { href: '/admin/investing/', label: 'Back to Investing' },
    },
    html`${nav}${body}`,
  );
}

/**
 * An investing list (the console kit's list: search, filters, paging, CSV) over the rows the
 * node answered, or its CSV file. The node's own filters (and its cursor window) stay in every link.
 */
function listPage<R>(
  input: RouteInput,
  title: string,
  user: string | undefined,
  list: Omit<ListSpec<R>, 'title' | 'path' | 'filename'>,
  rows: R[],
  before: Raw | string = '',
): Reply {
  const view = listView({ ...list, title, path: input.req.path, filename: `investing-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}` }, rows, input);
  if (view.kind === 'file') return view.reply;
  return page(input, title, user, html`${before}${view.body}`);
}

/** Not signed in → the sign-in page; anything else → the message on a page (the console kit's). */
const pageError = (title: string) => financeError(title, { breadcrumbs: [{ label: 'Investing', href: '/admin/investing/' }, { label: title }] });

type TradeStream = ResultOf<'AdminInvestmentOrders'>['investingTradeStream'];

/** The orders page's line on how fills arrive: pushed by the trade stream, or only by the poll while it is away. */
function tradeStream(s: TradeStream): Raw {
  const last = html`last event ${when(s.lastEventAt)}; ${s.events} events, ${s.reconnects} reconnects`;
  const line =
    s.state === 'connected'
      ? html`connected since ${when(s.connectedAt)}; ${last}. The order poll runs every ${POLL_WHILE_STREAMING_MS / 60_000} minutes as the safety net.`
      : s.state === 'off'
        ? html`off (no key pair for the equities brokerage yet). Orders learn their fills from the poll, every minute.`
        : html`${s.state}${s.lastError ? html` (${s.lastError})` : ''}; ${last}. Orders learn their fills from the poll, every minute, until it is back.`;
  return html`<p class="trade-stream">Trade stream: ${line}</p>`;
}

const ACTIVE_OPTIONS = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
] as const;

const instrumentQuery = z.object({
  provider: z.union([z.enum(BROKERAGE_PROVIDERS), z.literal('')]).optional(),
  active: z.enum(['', 'yes', 'no']).optional(),
  cursor: z.string().optional(),
});
const orderQuery = z.object({ status: z.union([z.enum(ORDER_STATUSES), z.literal('')]).optional(), cursor: z.string().optional() });

export const investingAdminRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/admin/investing/instrument/',
    summary: 'Admin console: instruments',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminInstruments',
    query: instrumentQuery,
    variables: ({ query }: { query: z.infer<typeof instrumentQuery> }) => ({
      provider: query.provider || null,
      active: query.active === 'yes' ? true : query.active === 'no' ? false : null,
      cursor: query.cursor ?? null,
    }),
    response: { description: 'List (HTML)', contentType: 'text/html' },
    respond: (data, input) =>
      listPage(
        input,
        'Instruments',
        data.nodeAdminUser.username,
        {
          columns: [
            { label: 'Provider', cell: (i) => i.provider },
            { label: 'Symbol', cell: (i) => i.symbol },
            { label: 'Name', cell: (i) => i.name },
            { label: 'Class', cell: (i) => i.assetClass },
            { label: 'Issuer', cell: (i) => (i.issuer ? html`<code>${i.issuer}</code>` : '—') },
            { label: 'Tradable', cell: (i) => yesNo(i.tradable) },
            { label: 'Fractionable', cell: (i) => yesNo(i.fractionable) },
            { label: 'Active', cell: (i) => yesNo(i.active) },
            { label: 'Last price', cell: (i) => (i.lastPrice ? `${i.lastPrice} ${i.quoteCurrency}` : '—') },
            { label: 'Priced at', cell: (i) => when(i.lastPriceAt) },
          ],
          // the node filtered on these (the operation's variables): shown and kept in links, not applied again
          filters: [
            { name: 'provider', label: 'Provider', options: BROKERAGE_PROVIDERS.map((p) => ({ value: p, label: BROKERAGE_LABELS[p] })) },
            { name: 'active', label: 'Active', options: ACTIVE_OPTIONS },
          ],
          window: { next: data.adminInstruments.nextCursor, label: 'Next instruments →' },
        },
        data.adminInstruments.results,
      ),
    respondError: pageError('Instruments'),
  }),
  route({
    method: 'GET',
    path: '/admin/investing/order/',
    summary: 'Admin console: orders by status',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminInvestmentOrders',
    query: orderQuery,
    variables: ({ query }: { query: z.infer<typeof orderQuery> }) => ({ status: query.status || null, cursor: query.cursor ?? null }),
    response: { description: 'List (HTML)', contentType: 'text/html' },
    respond: (data, input) =>
      listPage(
        input,
        'Orders',
        data.nodeAdminUser.username,
        {
          columns: [
            { label: 'Order', cell: (o) => html`<code>${o.id}</code>` },
            { label: 'Submitted', cell: (o) => when(o.submittedAt) },
            // the user's id (searched, exported): orders are looked up by it
            { label: 'User', cell: (o) => html`<a href="/admin/identity/user/${o.userId}/"><code>${o.userId}</code></a>` },
            { label: 'Provider', cell: (o) => o.provider, filter: true },
            { label: 'Symbol', cell: (o) => o.symbol },
            { label: 'Side', cell: (o) => o.side },
            { label: 'Type', cell: (o) => o.type, filter: true },
            { label: 'Qty / notional', cell: (o) => o.qty ?? `${o.notional} ${o.reserved.currency}` },
            { label: 'Status', cell: (o) => o.status },
            { label: 'Filled', cell: (o) => o.filledQty },
            { label: 'Avg price', cell: (o) => o.filledAvgPrice ?? '—' },
            { label: 'Reserved', cell: (o) => money(o.reserved) },
          ],
          // the node filtered on it (the operation's variables): shown and kept in links, not applied again
          filters: [{ name: 'status', label: 'Status', options: ORDER_STATUSES.map((s) => ({ value: s, label: s })) }],
          window: { next: data.adminInvestmentOrders.nextCursor, label: 'Older orders →' },
        },
        data.adminInvestmentOrders.results,
        html`${tradeStream(data.investingTradeStream)}
          <p class="counts">${data.investmentOrderCounts.map((c) => html`<a href="?status=${c.status}">${c.status}: ${c.count}</a> `)}</p>`,
      ),
    respondError: pageError('Orders'),
  }),
  route({
    method: 'GET',
    path: '/admin/investing/run/',
    summary: 'Admin console: instrument sync and price refresh runs',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminInvestingRuns',
    response: { description: 'List (HTML)', contentType: 'text/html' },
    respond: (data, input) =>
      listPage(
        input,
        'Sync and price runs',
        data.nodeAdminUser.username,
        {
          columns: [
            { label: 'Run', cell: (r) => r.id },
            { label: 'Kind', cell: (r) => r.kind, filter: true },
            { label: 'Provider', cell: (r) => r.provider ?? 'all', filter: true },
            { label: 'Trigger', cell: (r) => r.trigger },
            { label: 'Started', cell: (r) => when(r.startedAt) },
            { label: 'Finished', cell: (r) => when(r.finishedAt) },
            { label: 'OK', cell: (r) => r.ok },
            { label: 'Failed', cell: (r) => r.failed },
            { label: 'Deactivated', cell: (r) => r.deactivated },
            { label: 'Error', cell: (r) => r.error ?? '' },
          ],
          empty: 'No runs yet.',
        },
        data.investingRuns,
        table(
          'DEX registry file: entries skipped at load',
          ['Warning'],
          data.investingRegistryWarnings.map((w) => [w]),
          'No warnings.',
        ),
      ),
    respondError: pageError('Sync and price runs'),
  }),
];
