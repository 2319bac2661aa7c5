import { intOption, UsageError, type CliCommand, type CliContext } from '../../../lib/cli';
import { SYNC_PROVIDERS } from './domain/investing';
import { startOfflineBrokerage, usesOfflineBrokerage } from './sandbox/offline';
import type { InvestingServices } from './services';

/**
 * The investing services as the node resolves its providers (the same rule: in development without
 * a configured brokerage, the offline one), for the length of `work`.
 */
async function withProviders<T>(ctx: CliContext<InvestingServices>, work: (services: InvestingServices) => Promise<T>): Promise<T> {
  const services = await ctx.services();
  const offline = usesOfflineBrokerage(ctx.config) ? await startOfflineBrokerage(services.brokerages) : undefined;
  try {
    return await work(services);
  } finally {
    await offline?.close();
  }
}

/** The contract's two commands; the same work runs as scheduled jobs (index.ts). */
export const investingCommands: CliCommand<InvestingServices>[] = [
  {
    words: ['finance:sync-instruments'],
    usage: '--provider <equities|dex> [--limit <n>] [--deactivate-missing]   instruments from the provider (upsert by provider and symbol)',
    options: { provider: { type: 'string' }, limit: { type: 'string' }, 'deactivate-missing': { type: 'boolean' } },
    async run(ctx, { values }) {
      const provider = values.provider;
      if (provider !== 'equities' && provider !== 'dex') throw new UsageError('--provider must be equities or dex');
      const limit = intOption(values, 'limit');
      if (limit !== undefined && limit < 1) throw new UsageError('--limit must be at least 1');
      const r = await withProviders(ctx, ({ investing, brokerages }) => {
        if (provider === 'dex') for (const w of brokerages.registry().warnings) ctx.print(`warning: ${w}`);
        return investing.syncInstruments({
          provider: provider as keyof typeof SYNC_PROVIDERS,
          limit,
          deactivateMissing: values['deactivate-missing'] === true,
          trigger: 'cli',
        });
      });
      ctx.print(`Synced ${r.synced} instruments of ${r.provider}${values['deactivate-missing'] ? `; deactivated ${r.deactivated} missing` : ''}.`);
    },
  },
  {
    words: ['finance:refresh-prices'],
    usage: '[--verbose]   a live price for every active instrument; exits 1 when any failed',
    options: { verbose: { type: 'boolean' } },
    async run(ctx, { values }) {
      const results = await withProviders(ctx, ({ investing }) => investing.refreshPrices('cli'));
      if (values.verbose)
        for (const r of results)
          ctx.print(r.ok ? `${r.provider} ${r.symbol}: ok ${r.price}${r.first ? ' (first price)' : ''}` : `${r.provider} ${r.symbol}: failed: ${r.error}`);
      const failed = results.filter((r) => !r.ok).length;
      ctx.print(`Refreshed ${results.length - failed} of ${results.length} instruments; ${failed} failed.`);
      return failed ? 1 : 0;
    },
  },
];
