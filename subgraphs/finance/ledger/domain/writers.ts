/**
 * The finance subgraphs whose service principal may create ledger accounts and transfers (least
 * privilege: every other principal, other subgraphs included, is refused). One entry per money module:
 * `payments` (transfers, virtual accounts, cards, mobile money, crypto, ramps, FX), `investing`
 * (orders), `commerce` (shop payments and refunds, dispute reversals, reward redemptions), `banking`
 * (virtual accounts, bank transfers, mobile money, ramps), `cards` (card authorisations held, captured,
 * released), `crypto` (deposits credited, swaps).
 */
export const LEDGER_WRITERS: readonly string[] = ['payments', 'investing', 'commerce', 'banking', 'cards', 'crypto'];
