import { z } from 'zod';
import { html, type Raw } from '../../../lib/html';
import { BROKERAGE_PROVIDERS, BROKERAGE_LABELS } from '../../../subgraphs/finance/kernel/contract';
import { ORDER_STATUSES, POLL_WHILE_STREAMING_MS } from '../../../subgraphs/finance/investing/vocabulary';
import { tableList, type TableListSpec } from '../../console/list';
import type { AnyRouteInput as RouteInput, Reply, Route } from '../../core/route';
import { financeError, financePage, money, table, when, yesNo } from './layout';
import { route } from '../operation';

/**
 * The investing module's admin console pages: instruments (filter by provider and active), orders by
 * status, and the commands' runs with the DEX registry's load warnings. Same conventions as
 * admin/routes.ts: a persisted operation run as the signed-in superuser, server-rendered.
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
 * An investing list (the console kit's tableList: search, filters, paging, CSV) over the rows the
 * node answered, or its CSV file. The node's own filters (and its cursor window) stay in every link.
 */
function listPage(
  input: RouteInput,
  title: string,
  user: string | undefined,
  list: Omit<TableListSpec, 'title' | 'path' | 'filename'>,
  rows: unknown[][],
  before: Raw | string = '',
): Reply {
  const view = tableList({ ...list, title, path: input.req.path, filename: `investing-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}` }, rows, input);
  if (view.kind === 'file') return view.reply;
  return page(input, title, user, html`${before}${view.body}`);
}

/** Not signed in → the sign-in page; anything else → the message on a page (the console kit's). */
const pageError = (title: string) => financeError(title, { breadcrumbs: [{ label: 'Investing', href: '/admin/investing/' }, { label: title }] });

interface TradeStream {
  state: string;
  connectedAt: string | null;
  lastEventAt: string | null;
  lastError: string | null;
  reconnects: number;
  events: number;
}

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
          head: ['Provider', 'Symbol', 'Name', 'Class', 'Issuer', 'Tradable', 'Fractionable', 'Active', 'Last price', 'Priced at'],
          nodeFilters: [
            { name: 'provider', label: 'Provider', options: BROKERAGE_PROVIDERS.map((p) => ({ value: p, label: BROKERAGE_LABELS[p] })) },
            { name: 'active', label: 'Active', options: ACTIVE_OPTIONS },
          ],
          window: { next: data.adminInstruments.nextCursor, label: 'Next instruments →' },
        },
        data.adminInstruments.results.map((i) => [
          i.provider,
          i.symbol,
          i.name,
          i.assetClass,
          i.issuer ? html`<code>${i.issuer}</code>` : '—',
          yesNo(i.tradable),
          yesNo(i.fractionable),
          yesNo(i.active),
          i.lastPrice ? `${i.lastPrice} ${i.quoteCurrency}` : '—',
          when(i.lastPriceAt),
        ]),
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
          head: ['Order', 'Submitted', 'User', 'Provider', 'Symbol', 'Side', 'Type', 'Qty / notional', 'Status', 'Filled', 'Avg price', 'Reserved'],
          nodeFilters: [{ name: 'status', label: 'Status', options: ORDER_STATUSES.map((s) => ({ value: s, label: s })) }],
          window: { next: data.adminInvestmentOrders.nextCursor, label: 'Older orders →' },
        },
        data.adminInvestmentOrders.results.map((o) => [
          html`<code>${o.id}</code>`,
          when(o.submittedAt),
          // the user's id (searched, exported): orders are looked up by it
          html`<a href="/admin/identity/user/${o.userId}/"><code>${o.userId}</code></a>`,
          o.provider,
          o.symbol,
          o.side,
          o.type,
          o.qty ?? `${o.notional} ${o.reserved.currency}`,
          o.status,
          o.filledQty,
          o.filledAvgPrice ?? '—',
          money(o.reserved),
        ]),
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
          head: ['Run', 'Kind', 'Provider', 'Trigger', 'Started', 'Finished', 'OK', 'Failed', 'Deactivated', 'Error'],
          empty: 'No runs yet.',
        },
        data.investingRuns.map((r) => [
          r.id,
          r.kind,
          r.provider ?? 'all',
          r.trigger,
          when(r.startedAt),
          when(r.finishedAt),
          r.ok,
          r.failed,
          r.deactivated,
          r.error ?? '',
        ]),
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
