/** The money pages of the admin console, under the Ledger app (/admin/ledger/): stuck pending transfers (void), reconciliation, provider events. */
export const PAYMENTS_ADMIN_MODELS = [
  { label: 'Pending transfers', href: '/admin/ledger/pending/' },
  { label: 'Reconciliation', href: '/admin/ledger/reconciliation/' },
  { label: 'Provider events', href: '/admin/ledger/providerevent/' },
];
