import type { CliCommand } from '../../../lib/cli';
import { toMoney } from '../kernel/currencies';
import type { LedgerServices } from './services';

/** The ledger's management commands. */
export const ledgerCommands: CliCommand<LedgerServices>[] = [
  {
    words: ['finance:reconcile'],
    usage: '                               per-currency totals over every account; exits 1 on any drift',
    async run(ctx) {
      const { ledger } = await ctx.services();
      const rows = await ledger.reconciliation();
      for (const r of rows) {
        ctx.print(
          `${r.currency.padEnd(6)} posted ${toMoney(r.posted, r.currency).amount}  pending ${toMoney(r.pending, r.currency).amount}  ` +
            `users hold ${toMoney(r.userHoldings, r.currency).amount}  accounts ${r.accounts}  transfers ${r.transfers}  ` +
            `drifting accounts ${r.driftingAccounts}  ${r.balanced ? 'OK' : 'DRIFT'}`,
        );
      }
      const drift = rows.filter((r) => !r.balanced);
      ctx.print(drift.length ? `Drift in ${drift.map((r) => r.currency).join(', ')}.` : `Reconciled: ${rows.length} currencies, zero drift.`);
      return drift.length ? 1 : 0;
    },
  },
];
