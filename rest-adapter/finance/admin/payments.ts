import { z } from 'zod';
import { html } from '../../../lib/html';
import type { Route } from '../../core/route';
import { adminError, appList, postRedirect } from './apps';
import { csrfInput, when, money } from './layout';
import { route } from '../operation';

/** The money pages of the admin console, under the Ledger app (their models: payments-models.ts): stuck pending transfers (void), reconciliation, provider events. */
export const paymentsAdminRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/admin/ledger/pending/',
    summary: 'Admin console: pending transfers waiting for their provider',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminPendingTransfers',
    query: z.object({ saved: z.string().optional() }),
    response: { description: 'List (HTML)', contentType: 'text/html' },
    respond: (data, input) =>
      appList(
        'ledger',
        {
          title: 'Pending transfers',
          columns: [
            { label: 'Transfer', cell: (t) => html`<code>${t.id}</code>` },
            { label: 'Since', cell: (t) => when(t.createdAt) },
            { label: 'Amount', cell: (t) => money(t.amount) },
            { label: 'Code', cell: (t) => t.code, filter: true },
            { label: 'Expires', cell: (t) => when(t.timeoutAt) },
            {
              label: 'Action',
              cell: (t) =>
                html`<form method="post" action="/admin/ledger/pending/${t.id}/void/">${csrfInput(input.csrfToken)}<button type="submit">Void</button></form>`,
              csv: false,
            },
          ],
        },
        data.ledgerOpenPending,
        input,
        (input.query as { saved?: string }).saved ? html`<p class="success">The pending transfer was voided; its amount is released.</p>` : undefined,
      ),
    respondError: adminError('Pending transfers'),
  }),
  route({
    method: 'POST',
    path: '/admin/ledger/pending/:id/void/',
    summary: 'Admin console: void a stuck pending transfer (its amount is released)',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminVoidTransfer',
    consumes: 'form',
    csrf: true,
    params: z.object({ id: z.string().uuid() }),
    body: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
    variables: ({ params }: { params: { id: string } }) => ({ id: params.id }),
    response: { status: 302, description: 'Voided' },
    respond: () => postRedirect('/admin/ledger/pending/?saved=1'),
    respondError: adminError('Pending transfers'),
  }),
  route({
    method: 'GET',
    path: '/admin/ledger/reconciliation/',
    summary: 'Admin console: per-currency totals that reconcile to zero',
    description:
      'Σ(credits − debits) over every account, posted and pending, per currency, and accounts whose counters differ from their transfers. Also: `npm run cli -- finance:reconcile`.',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminReconciliation',
    response: { description: 'Reconciliation (HTML)', contentType: 'text/html' },
    respond: (data, input) => {
      const drift = data.ledgerReconciliation.filter((r) => !r.balanced);
      return appList(
        'ledger',
        {
          title: 'Reconciliation',
          columns: [
            { label: 'Currency', cell: (r) => r.currency, filter: true },
            { label: 'Σ posted', cell: (r) => html`<span class="num">${r.posted.amount}</span>` },
            { label: 'Σ pending', cell: (r) => html`<span class="num">${r.pending.amount}</span>` },
            { label: 'Users hold', cell: (r) => html`<span class="num">${r.userHoldings.amount}</span>` },
            { label: 'Accounts', cell: (r) => r.accounts },
            { label: 'Transfers', cell: (r) => r.transfers },
            { label: 'Drifting accounts', cell: (r) => r.driftingAccounts },
            { label: 'Status', cell: (r) => (r.balanced ? 'OK' : 'DRIFT'), filter: true },
          ],
        },
        data.ledgerReconciliation,
        input,
        drift.length
          ? html`<p class="errorlist" role="alert">Drift in ${drift.map((r) => r.currency).join(', ')}.</p>`
          : html`<p class="success">Every currency reconciles to zero.</p>`,
      );
    },
    respondError: adminError('Reconciliation'),
  }),
  route({
    method: 'GET',
    path: '/admin/ledger/providerevent/',
    summary: 'Admin console: provider events (webhooks, callbacks)',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminProviderEvents',
    response: { description: 'List (HTML)', contentType: 'text/html' },
    respond: (data, input) =>
      appList(
        'ledger',
        {
          title: 'Provider events',
          columns: [
            { label: 'Received', cell: (e) => when(e.receivedAt) },
            { label: 'Provider', cell: (e) => e.provider, filter: true },
            { label: 'Event', cell: (e) => html`<code>${e.eventId}</code>` },
            { label: 'Type', cell: (e) => e.type, filter: true },
            { label: 'Status', cell: (e) => e.status, filter: true },
            { label: 'Processed', cell: (e) => when(e.processedAt) },
            { label: 'Error', cell: (e) => e.error ?? '' },
          ],
        },
        data.providerEvents,
        input,
      ),
    respondError: adminError('Provider events'),
  }),
];
