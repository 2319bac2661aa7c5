/**
 * What the ledger's statement fixes, shared by the ledger subgraph and the finance REST surface
 * (GET /api/v1/transactions/ validates its filters with them).
 */

/** debit: money out of the account; credit: money in. */
export const STATEMENT_DIRECTIONS = ['debit', 'credit'] as const;
/** A line's state: posted, pending (held), voided (released) or expired. */
export const STATEMENT_STATUSES = ['posted', 'pending', 'voided', 'expired'] as const;
