import { z } from 'zod';
import { html } from '../../../lib/html';
import type { AnyRouteInput as RouteInput, Route } from '../../core/route';
import { adminError, adminQuery, appList, form, postRedirect, saved, str, withAdminUser } from './apps';
import { csrfInput, money, userCell, when } from './layout';
import type { ResultOf } from '../operation';

/** Who made a state change, as a person reads it: a user by @handle (identity's name), an operator by user name. */
function actorName(change: { actor: string; actorUser: { username: string } | null }): string {
  if (change.actorUser) return `@${change.actorUser.username}`;
  return change.actor.replace(/^admin:/, '');
}

/**
 * The admin console's commerce app (/admin/commerce/…): products (create, edit, image), orders
 * (fulfil, cancel with refund), utility requests, gift-card orders, disputes (review, resolve with a
 * reversal, reject, reply) and points and referrals. Lists with a back link; actions are CSRF-checked
 * POSTs that redirect back to the list (or show the refusal, e.g. 409 with the current state).
 */
type Money = { amount: string; currency: string };
const m = (x: Money) => money(x);
const idParams = z.object({ id: z.string() });
const banner = (input: RouteInput, what: string) => saved(input, what).map((b) => html`<div class="banner ok">${b.text}</div>`);

const action = (href: string, label: string, input: RouteInput, fields = html``) =>
  html`<form method="post" action="${href}" style="display:inline">
    ${csrfInput(input.csrfToken)}${fields}<button class="default" type="submit">${label}</button>
  </form>`;

/** What an action's `variables` and redirect read: the path's id and the form's fields. */
interface Input {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
}

function post(
  path: string,
  summary: string,
  operation: string,
  variables: (input: Input) => Record<string, unknown>,
  back: (input: Input) => string,
  title: string,
): Route {
  return {
    method: 'POST',
    path,
    summary: `Admin console: ${summary}`,
    tags: ['Admin console'],
    security: 'session',
    operation,
    consumes: 'form',
    csrf: true,
    params: path.includes(':id') ? idParams : undefined,
    body: form,
    variables,
    response: { status: 302, description: 'Done' },
    respond: (_data, input: Input) => postRedirect(back(input)),
    respondError: adminError(title),
  };
}

function page(path: string, summary: string, operation: string, respond: Route['respond'], title: string, extra: Partial<Route> = {}): Route {
  return {
    method: 'GET',
    path,
    summary: `Admin console: ${summary}`,
    tags: ['Admin console'],
    security: 'session',
    operation,
    query: adminQuery,
    response: { description: `${title} (HTML)`, contentType: 'text/html' },
    respond,
    respondError: adminError(title),
    ...extra,
  };
}

const productInput = (body: Record<string, unknown>) => ({
  name: str(body.name),
  description: str(body.description),
  price: str(body.price),
  currency: str(body.currency).toUpperCase(),
  // not a number: -1, which the domain refuses with its own message (a GraphQL variable error would skip the gate's answers)
  stock: /^\d{1,9}$/.test(str(body.stock).trim()) ? Number(str(body.stock).trim()) : -1,
  active: str(body.active) === 'on',
});

const productForm = (input: RouteInput) =>
  html`<form method="post" class="aligned module" action="/admin/commerce/product/">
    ${csrfInput(input.csrfToken)}
    <div class="body">
      ${[
        ['name', 'Name'],
        ['description', 'Description'],
        ['price', 'Price (decimal)'],
        ['currency', 'Currency'],
        ['stock', 'Stock'],
      ].map(([f, l]) => html`<div class="row"><label class="name" for="id_${f}">${l}</label><input type="text" id="id_${f}" name="${f}" /></div>`)}
      <div class="row"><label class="name" for="id_active">On sale</label><input type="checkbox" id="id_active" name="active" checked /></div>
    </div>
    <div class="submit-row"><button class="default" type="submit">Add product</button></div>
  </form>`;

type ProductRow = ResultOf<'AdminCommerceProducts'>['adminShopProducts'][number];

/** A product's row form: price, stock and on sale, and its image. */
const productEdit = (p: ProductRow, input: RouteInput) =>
  html`<form method="post" action="/admin/commerce/product/${p.id}/">
      ${csrfInput(input.csrfToken)}<input type="hidden" name="name" value="${p.name}" /><input type="hidden" name="description" value="${p.description}" />
      <input type="hidden" name="currency" value="${p.price.currency}" />
      <input type="text" name="price" value="${p.price.amount}" size="8" aria-label="Price" />
      <input type="text" name="stock" value="${String(p.stock)}" size="5" aria-label="Stock" />
      <input type="checkbox" name="active" ${p.active ? 'checked' : ''} aria-label="On sale" /><button type="submit">Save</button>
    </form>
    <form method="post" action="/admin/commerce/product/${p.id}/image/">
      ${csrfInput(input.csrfToken)}<input type="text" name="image" placeholder="data:image/png;base64,…" aria-label="Image" /><button type="submit">
        Set image
      </button>
    </form>`;

const routes: Route[] = [
  page(
    '/admin/commerce/product/',
    'products',
    'AdminCommerceProducts',
    (data: ResultOf<'AdminCommerceProducts'>, input) =>
      appList(
        'commerce',
        {
          title: 'Products',
          columns: [
            { label: 'Product', cell: (p) => p.name },
            { label: 'Price', cell: (p) => m(p.price) },
            { label: 'Stock', cell: (p) => p.stock },
            { label: 'On sale', cell: (p) => (p.active ? 'yes' : 'no') },
            { label: 'Image', cell: (p) => p.imageContentType ?? '—', csv: false },
            { label: 'Edit', cell: (p) => productEdit(p, input), csv: false },
          ],
        },
        data.adminShopProducts,
        input,
        html`${banner(input, 'product')}${productForm(input)}`,
      ),
    'Products',
  ),
  post(
    '/admin/commerce/product/',
    'add a product',
    'AdminCreateShopProduct',
    ({ body }) => ({ input: productInput(body) }),
    () => '/admin/commerce/product/?saved=1',
    'Products',
  ),
  post(
    '/admin/commerce/product/:id/',
    'change a product',
    'AdminUpdateShopProduct',
    ({ params, body }) => ({ id: params.id, input: productInput(body) }),
    () => '/admin/commerce/product/?saved=1',
    'Products',
  ),
  post(
    '/admin/commerce/product/:id/image/',
    'set a product image (data URI)',
    'AdminSetShopProductImage',
    ({ params, body }) => {
      const match = /^data:([a-z/+.-]+);base64,(.*)$/s.exec(str(body.image).trim());
      return { id: params.id, contentType: match?.[1] ?? '', content: match?.[2] ?? '' };
    },
    () => '/admin/commerce/product/?saved=1',
    'Products',
  ),
  page(
    '/admin/commerce/order/',
    'shop orders',
    'AdminShopOrders',
    (data: ResultOf<'AdminShopOrders'>, input) =>
      appList(
        'commerce',
        {
          title: 'Orders',
          columns: [
            { label: 'Order', cell: (o) => html`<code>${o.id.slice(0, 8)}</code>` },
            { label: 'When', cell: (o) => when(o.createdAt) },
            { label: 'User', cell: (o) => userCell(o) },
            { label: 'Items', cell: (o) => o.items.map((i) => `${i.quantity} × ${i.name}`).join(', ') },
            { label: 'Total', cell: (o) => m(o.total) },
            { label: 'Status', cell: (o) => o.status, filter: true },
            {
              label: 'Actions',
              cell: (o) =>
                html`${o.status === 'paid' ? action(`/admin/commerce/order/${o.id}/fulfil/`, 'Fulfil', input) : ''}
                ${o.status === 'pending' || o.status === 'paid' ? action(`/admin/commerce/order/${o.id}/cancel/`, o.status === 'paid' ? 'Cancel and refund' : 'Cancel', input) : ''}`,
              csv: false,
            },
          ],
        },
        data.adminShopOrders,
        input,
        html`${banner(input, 'order')}`,
      ),
    'Orders',
    { query: adminQuery.extend({ status: z.string().optional() }), variables: ({ query }: Input) => ({ status: query.status ?? null }) },
  ),
  post(
    '/admin/commerce/order/:id/fulfil/',
    'fulfil a paid order',
    'AdminFulfilShopOrder',
    ({ params }) => ({ id: params.id }),
    () => '/admin/commerce/order/?saved=1',
    'Orders',
  ),
  post(
    '/admin/commerce/order/:id/cancel/',
    'cancel an order (a paid one is refunded)',
    'AdminCancelShopOrder',
    ({ params }) => ({ id: params.id }),
    () => '/admin/commerce/order/?saved=1',
    'Orders',
  ),
  page(
    '/admin/commerce/utilityrequest/',
    'utility requests',
    'AdminUtilityRequests',
    (data: ResultOf<'AdminUtilityRequests'>, input) =>
      appList(
        'commerce',
        {
          title: 'Utility requests',
          columns: [
            { label: 'When', cell: (r) => when(r.createdAt) },
            { label: 'User', cell: (r) => userCell(r) },
            { label: 'Kind', cell: (r) => r.kind, filter: true },
            { label: 'Provider', cell: (r) => r.provider, filter: true },
            { label: 'Number', cell: (r) => r.phoneNumber ?? r.accountNumber ?? '—' },
            { label: 'Amount', cell: (r) => m(r.amount) },
            { label: 'Status', cell: (r) => r.status, filter: true },
            { label: 'Dispatched', cell: (r) => (r.dispatched ? 'yes' : 'no') },
          ],
        },
        data.adminUtilityRequests,
        input,
      ),
    'Utility requests',
  ),
  page(
    '/admin/commerce/giftcardorder/',
    'gift-card orders',
    'AdminGiftCardOrders',
    (data: ResultOf<'AdminGiftCardOrders'>, input) =>
      appList(
        'commerce',
        {
          title: 'Gift-card orders',
          columns: [
            { label: 'When', cell: (o) => when(o.createdAt) },
            { label: 'User', cell: (o) => userCell(o) },
            { label: 'Brand', cell: (o) => o.brandId, filter: true },
            { label: 'Country', cell: (o) => o.country, filter: true },
            { label: 'Value', cell: (o) => m(o.denomination) },
            { label: 'Quantity', cell: (o) => o.quantity },
            { label: 'Recipient', cell: (o) => o.recipientEmail ?? '—' },
            { label: 'Fulfilment', cell: (o) => o.fulfilment, filter: true },
          ],
        },
        data.adminGiftCardOrders,
        input,
      ),
    'Gift-card orders',
  ),
  page(
    '/admin/commerce/dispute/',
    'disputes',
    'AdminDisputes',
    (data: ResultOf<'AdminDisputes'>, input) =>
      appList(
        'commerce',
        {
          title: 'Disputes',
          columns: [
            { label: 'Dispute', cell: (d) => html`<a href="/admin/commerce/dispute/${d.id}/">${d.id.slice(0, 8)}</a>` },
            { label: 'Opened', cell: (d) => when(d.createdAt) },
            { label: 'User', cell: (d) => userCell(d) },
            { label: 'Transaction', cell: (d) => html`<code>${d.transactionId.slice(0, 8)}</code>` },
            { label: 'Amount', cell: (d) => m(d.amount) },
            { label: 'Reason', cell: (d) => d.reason },
            { label: 'Status', cell: (d) => d.status, filter: true },
          ],
        },
        data.adminDisputes,
        input,
        html`${banner(input, 'dispute')}`,
      ),
    'Disputes',
    { query: adminQuery.extend({ status: z.string().optional() }), variables: ({ query }: Input) => ({ status: query.status ?? null }) },
  ),
  page(
    '/admin/commerce/dispute/:id/',
    'one dispute: evidence, thread, history and its actions',
    'AdminDispute',
    (data: ResultOf<'AdminDispute'>, input) => {
      const d = data.adminDispute;
      const note = html`<input type="text" name="note" placeholder="Resolution note" aria-label="Resolution note" required />`;
      return appList(
        'commerce',
        {
          title: `Dispute ${d.id.slice(0, 8)}`,
          columns: [
            { label: 'When', cell: (h) => when(h.at) },
            { label: 'From', cell: (h) => h.fromStatus ?? '—' },
            { label: 'To', cell: (h) => h.toStatus },
            { label: 'By', cell: (h) => actorName(h) },
            { label: 'Note', cell: (h) => h.note ?? '' },
          ],
        },
        d.history,
        input,
        html`${banner(input, 'dispute')}
          <div class="module">
            <h2>${d.status} · ${m(d.amount)} · ${d.reason}</h2>
            <div class="body">
              <p>Opened by ${userCell(d)}</p>
              <p>${d.description}</p>
              <p>Transaction <code>${d.transactionId}</code>${d.reversalTransactionId ? html`; reversed by <code>${d.reversalTransactionId}</code>` : ''}</p>
              ${d.resolutionNote ? html`<p>Resolution: ${d.resolutionNote}</p>` : ''}
              <p>Evidence: ${d.attachments.length ? d.attachments.map((a) => `${a.filename} (${a.contentType}, ${a.size} bytes)`).join('; ') : 'none'}</p>
              ${d.status === 'open' ? action(`/admin/commerce/dispute/${d.id}/review/`, 'Start review', input) : ''}
              ${
                d.status === 'under_review'
                  ? html`${
                      d.refundProposedBy
                        ? html`<p class="proposal">
                            Refund proposed by ${d.refundProposedBy}: the payee no longer holds all of it, so the rest comes from the platform's dispute-loss
                            account, which a second operator approves (neither a party of the transaction).
                          </p>`
                        : ''
                    }
                    ${action(
                      `/admin/commerce/dispute/${d.id}/resolve/`,
                      d.refundProposedBy ? 'Approve the refund (second operator)' : "Resolve in the user's favour (reverse)",
                      input,
                      note,
                    )}
                    ${action(`/admin/commerce/dispute/${d.id}/reject/`, 'Reject', input, note)}`
                  : ''
              }
            </div>
          </div>
          <div class="module">
            <h2>Messages</h2>
            <div class="body">
              ${d.messages.map((msg) => html`<p><strong>${msg.authorRole === 'admin' ? `Support (${msg.author})` : 'User'}</strong> ${when(msg.createdAt)}: ${msg.body}</p>`)}
              ${action(`/admin/commerce/dispute/${d.id}/message/`, 'Reply', input, html`<input type="text" name="body" aria-label="Reply" required />`)}
            </div>
          </div>`,
        { label: 'Disputes', href: '/admin/commerce/dispute/' },
      );
    },
    'Dispute',
    { params: idParams, variables: ({ params }: Input) => ({ id: params.id }) },
  ),
  post(
    '/admin/commerce/dispute/:id/review/',
    'put a dispute under review',
    'AdminReviewDispute',
    ({ params }) => ({ id: params.id }),
    ({ params }) => `/admin/commerce/dispute/${params.id}/?saved=1`,
    'Dispute',
  ),
  post(
    '/admin/commerce/dispute/:id/resolve/',
    "resolve a dispute in the user's favour (reversing transfer)",
    'AdminResolveDispute',
    ({ params, body }) => ({ id: params.id, note: str(body.note) }),
    ({ params }) => `/admin/commerce/dispute/${params.id}/?saved=1`,
    'Dispute',
  ),
  post(
    '/admin/commerce/dispute/:id/reject/',
    'reject a dispute',
    'AdminRejectDispute',
    ({ params, body }) => ({ id: params.id, note: str(body.note) }),
    ({ params }) => `/admin/commerce/dispute/${params.id}/?saved=1`,
    'Dispute',
  ),
  post(
    '/admin/commerce/dispute/:id/message/',
    'reply on a dispute',
    'AdminPostDisputeMessage',
    ({ params, body }) => ({ id: params.id, body: str(body.body) }),
    ({ params }) => `/admin/commerce/dispute/${params.id}/?saved=1`,
    'Dispute',
  ),
  page(
    '/admin/commerce/reward/',
    'points and referrals',
    'AdminRewards',
    (data: ResultOf<'AdminRewards'>, input) =>
      appList(
        'commerce',
        {
          title: 'Points and referrals',
          columns: [
            { label: 'When', cell: (e) => when(e.createdAt) },
            { label: 'User', cell: (e) => userCell(e) },
            { label: 'Rule', cell: (e) => e.rule, filter: true },
            { label: 'Points', cell: (e) => e.points },
            { label: 'Reference', cell: (e) => e.reference },
          ],
        },
        data.adminRewardEvents,
        input,
        html`<div class="module">
          <h2>Referrals</h2>
          <div class="body">
            ${
              data.adminReferrals.length
                ? data.adminReferrals.map(
                    (r) =>
                      html`<p>
                        <code>${r.referrerUserId.slice(0, 8)}</code> referred <code>${r.referredUserId.slice(0, 8)}</code> on ${when(r.createdAt)} —
                        ${r.rewardedAt ? `rewarded ${when(r.rewardedAt)}` : 'not rewarded yet'}
                      </p>`,
                  )
                : 'None.'
            }
          </div>
        </div>`,
      ),
    'Points and referrals',
  ),
];

export const commerceAdminRoutes: Route[] = routes.map(withAdminUser);
