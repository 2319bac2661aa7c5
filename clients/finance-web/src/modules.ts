import { TOGGLES } from '../../../subgraphs/finance/kernel/contract';

/** The client's page per finance module: its toggle's label, and the words its API paths use. */
export interface ModulePage {
  key: string;
  label: string;
  description: string;
  slug: string;
  pathWords: string[];
}

// how the module's REST paths are recognised in /swagger.json (their routes are added module by module)
const PATH_WORDS: Record<string, string[]> = {
  shop: ['shop', 'products', 'cart', 'orders', 'airtime', 'gift-cards', 'bills', 'utilities'],
  investments: ['investments', 'stocks', 'instruments', 'portfolio', 'portfolios', 'brokerage'],
  virtual_iban: ['virtual-iban', 'virtual-ibans', 'iban', 'ibans'],
  african_accounts: ['african-accounts', 'virtual-accounts'],
  mobile_money: ['mobile-money'],
  disputes: ['disputes', 'support'],
  crypto: ['crypto', 'swaps'],
  fiat_ramps: ['ramps', 'fiat-ramps', 'on-ramp', 'off-ramp'],
  rewards: ['rewards', 'points', 'referrals'],
};

export const MODULE_PAGES: ModulePage[] = TOGGLES.flatMap((toggle) =>
  toggle.type === 'boolean' && toggle.module
    ? [
        {
          key: toggle.module,
          label: toggle.label,
          description: toggle.controls,
          slug: toggle.module.replace(/_/g, '-'),
          pathWords: PATH_WORDS[toggle.module] ?? [toggle.module],
        },
      ]
    : [],
);

/** The documented GET operations of a module without path parameters: what its page can show. */
export function moduleOperations(
  page: ModulePage,
  paths: Record<string, Record<string, { summary?: string; parameters?: { in: string }[] }>>,
): { path: string; summary: string; readable: boolean }[] {
  const found: { path: string; summary: string; readable: boolean }[] = [];
  for (const [path, operations] of Object.entries(paths)) {
    if (!path.startsWith('/api/')) continue;
    const segments = path.split('/').filter(Boolean);
    if (!segments.some((segment) => page.pathWords.includes(segment))) continue;
    for (const [method, operation] of Object.entries(operations)) {
      found.push({
        path: `${method.toUpperCase()} ${path}`,
        summary: operation.summary ?? '',
        readable: method === 'get' && !path.includes('{'),
      });
    }
  }
  return found.sort((a, b) => a.path.localeCompare(b.path));
}
