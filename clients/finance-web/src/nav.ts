/** The client's pages: route, menu label, and the module toggle that shows it (none: always). */
export interface NavItem {
  route: string;
  label: string;
  module?: string | string[];
  primary?: boolean; // in the phone's bottom bar
}

export const NAV: NavItem[] = [
  { route: '', label: 'Home', primary: true },
  { route: 'send', label: 'Send money', primary: true },
  { route: 'convert', label: 'Convert' },
  { route: 'activity', label: 'Activity', primary: true },
  { route: 'accounts', label: 'Bank accounts', module: ['virtual_iban', 'african_accounts'] },
  { route: 'cards', label: 'Cards' },
  { route: 'invest', label: 'Invest', module: 'investments' },
  { route: 'shop', label: 'Shop', module: 'shop' },
  { route: 'utilities', label: 'Airtime and bills', module: 'shop' },
  { route: 'gift-cards', label: 'Gift cards', module: 'shop' },
  { route: 'mobile-money', label: 'Mobile money', module: 'mobile_money' },
  { route: 'crypto', label: 'Crypto', module: 'crypto' },
  { route: 'ramps', label: 'Buy and sell crypto', module: 'fiat_ramps' },
  { route: 'rewards', label: 'Rewards', module: 'rewards' },
  { route: 'disputes', label: 'Disputes', module: 'disputes' },
  { route: 'kyc', label: 'Identity' },
  { route: 'settings', label: 'Settings' },
];
