import { z } from 'zod';
import { html } from '../../../lib/html';
import type { Route } from '../../core/route';
import { adminError, modelList, postRedirect } from './apps';
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
      modelList(
        'ledger',
        'Pending transfers',
        ['Transfer', 'Since', 'Amount', 'Code', 'Expires', 'Action'],
        data.ledgerOpenPending.map((t) => [
          html`<code>${t.id}</code>`,
          when(t.createdAt),
          money(t.amount),
          t.code,
          when(t.timeoutAt),
          html`<form method="post" action="/admin/ledger/pending/${t.id}/void/">${csrfInput(input.csrfToken)}<button type="submit">Void</button></form>`,
        ]),
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
      return modelList(
        'ledger',
        'Reconciliation',
        ['Currency', 'Σ posted', 'Σ pending', 'Users hold', 'Accounts', 'Transfers', 'Drifting accounts', 'Status'],
        data.ledgerReconciliation.map((r) => [
          r.currency,
          html`<span class="num">${r.posted.amount}</span>`,
          html`<span class="num">${r.pending.amount}</span>`,
          html`<span class="num">${r.userHoldings.amount}</span>`,
          r.accounts,
          r.transfers,
          r.driftingAccounts,
          r.balanced ? 'OK' : 'DRIFT',
        ]),
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
      modelList(
        'ledger',
        'Provider events',
        ['Received', 'Provider', 'Event', 'Type', 'Status', 'Processed', 'Error'],
        data.providerEvents.map((e) => [when(e.receivedAt), e.provider, html`<code>${e.eventId}</code>`, e.type, e.status, when(e.processedAt), e.error ?? '']),
        input,
      ),
    respondError: adminError('Provider events'),
  }),
];
