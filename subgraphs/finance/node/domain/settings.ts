import { badInput } from '../../../../lib/errors';
import type { FinanceModule } from '../../kernel/gate';
import { TOGGLES, type BrokerageProvider } from '../../kernel/contract';

export {
  BROKERAGE_LABELS,
  BROKERAGE_PROVIDERS,
  DEFAULT_MAINTENANCE_MESSAGE,
  TOGGLES,
  type BrokerageProvider,
  type ToggleDefinition,
} from '../../kernel/contract';

export type SettingsValues = Record<string, boolean | string>;

export interface SettingsRecord {
  values: SettingsValues;
  updatedAt: Date;
  updatedBy: string | null;
}

export const defaultSettings = (): SettingsValues => Object.fromEntries(TOGGLES.map((t) => [t.key, t.default]));

/** Validates a partial change (by column key); returns the complete new values. */
export function applySettingsChange(current: SettingsValues, change: Record<string, unknown>): SettingsValues {
  const next = { ...current };
  const errors: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(change)) {
    const def = TOGGLES.find((t) => t.key === key);
    if (!def) {
      errors[key] = ['Unknown setting.'];
      continue;
    }
    if (value === undefined || value === null) continue;
    if (def.type === 'boolean') {
      if (typeof value !== 'boolean') errors[key] = ['Must be true or false.'];
      else next[key] = value;
    } else if (def.type === 'text') {
      const text = typeof value === 'string' ? value.trim() : '';
      if (!text || text.length > def.maxLength) errors[key] = [`Must be 1 to ${def.maxLength} characters.`];
      else next[key] = text;
    } else if (typeof value !== 'string' || !def.choices.includes(value as BrokerageProvider)) {
      errors[key] = [`Must be one of ${def.choices.join(', ')}.`];
    } else next[key] = value;
  }
  if (Object.keys(errors).length) throw badInput('Invalid settings.', errors);
  return next;
}

/** The modules' switches, from the settings. */
export function modulesOf(values: SettingsValues): Record<FinanceModule, boolean> {
  const out = {} as Record<FinanceModule, boolean>;
  for (const t of TOGGLES) if (t.type === 'boolean' && t.module) out[t.module] = values[t.key] === true;
  return out;
}

/** The banking rails a client may offer, from the enabled modules (no secrets, no provider names). */
export function bankingRails(values: SettingsValues): { rail: string; currencies: string[]; module: FinanceModule }[] {
  const m = modulesOf(values);
  const rails: { rail: string; currencies: string[]; module: FinanceModule }[] = [];
  if (m.virtual_iban)
    rails.push({ rail: 'sepa', currencies: ['EUR'], module: 'virtual_iban' }, { rail: 'faster_payments', currencies: ['GBP'], module: 'virtual_iban' });
  if (m.african_accounts) rails.push({ rail: 'african_bank_transfer', currencies: ['NGN', 'GHS', 'KES'], module: 'african_accounts' });
  if (m.mobile_money) rails.push({ rail: 'mobile_money', currencies: ['GHS', 'KES', 'UGX', 'XOF'], module: 'mobile_money' });
  if (m.fiat_ramps) rails.push({ rail: 'fiat_ramp', currencies: ['EUR', 'GBP', 'USD'], module: 'fiat_ramps' });
  if (m.crypto) rails.push({ rail: 'crypto', currencies: ['BTC', 'ETH', 'USDC'], module: 'crypto' });
  return rails;
}
