import { html } from '../../../lib/html';
import type { Route } from '../../core/route';
import { adminError, appList } from './apps';
import { when, money } from './layout';
import { route } from '../operation';

/** The ledger app of the console: accounts and transfers, read as the signed-in superuser (its money pages: payments.ts). */
export const ledgerAdminRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/admin/ledger/account/',
    summary: 'Admin console: ledger accounts',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminAccounts',
    response: { description: 'List (HTML)', contentType: 'text/html' },
    respond: (data, input) =>
      appList(
        'ledger',
        {
          title: 'Accounts',
          columns: [
            { label: 'Account', cell: (a) => html`<code>${a.id}</code>` },
            { label: 'Owner', cell: (a) => (a.ownerType === 'system' ? 'system' : html`<code>${a.ownerId}</code>`) },
            { label: 'Currency', cell: (a) => a.currency, filter: true },
            { label: 'Code', cell: (a) => a.code, filter: true },
            { label: 'Debits posted', cell: (a) => a.debitsPosted.amount },
            { label: 'Credits posted', cell: (a) => a.creditsPosted.amount },
            { label: 'Debits pending', cell: (a) => a.debitsPending.amount },
            { label: 'Credits pending', cell: (a) => a.creditsPending.amount },
          ],
        },
        data.ledgerAccounts,
        input,
      ),
    respondError: adminError('Accounts'),
  }),
  route({
    method: 'GET',
    path: '/admin/ledger/transfer/',
    summary: 'Admin console: ledger transfers',
    tags: ['Admin console'],
    security: 'session',
    operation: 'AdminTransfers',
    response: { description: 'List (HTML)', contentType: 'text/html' },
    respond: (data, input) =>
      appList(
        'ledger',
        {
          title: 'Transfers',
          columns: [
            { label: 'Transfer', cell: (t) => html`<code>${t.id}</code>` },
            { label: 'When', cell: (t) => when(t.createdAt) },
            { label: 'Amount', cell: (t) => money(t.amount) },
            { label: 'Debit', cell: (t) => html`<code>${t.debitAccountId.slice(0, 8)}</code>` },
            { label: 'Credit', cell: (t) => html`<code>${t.creditAccountId.slice(0, 8)}</code>` },
            { label: 'Code', cell: (t) => t.code, filter: true },
            { label: 'Kind', cell: (t) => t.kind, filter: true },
          ],
        },
        data.ledgerTransfers,
        input,
      ),
    respondError: adminError('Transfers'),
  }),
];
