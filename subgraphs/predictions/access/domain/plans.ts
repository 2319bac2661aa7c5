/** The plans of the prediction API (contract §8). Enterprise limits are set per key. */
export type PlanCode = 'free' | 'pro' | 'enterprise';

export interface Plan {
  code: PlanCode;
  name: string;
  /** Requests per UTC day; null: set per key (enterprise). */
  dailyLimit: number | null;
  description: string;
}

export const PLANS: readonly Plan[] = [
  { code: 'free', name: 'Free', dailyLimit: 50, description: 'Basic access' },
  { code: 'pro', name: 'Pro', dailyLimit: 5000, description: 'Higher limits and priority' },
  { code: 'enterprise', name: 'Enterprise', dailyLimit: null, description: 'Custom limit per key, dedicated support' },
];

export const isPlanCode = (s: string): s is PlanCode => PLANS.some((p) => p.code === s);
export const planByCode = (code: PlanCode): Plan => PLANS.find((p) => p.code === code)!;

/** The limit that applies to a key: its own (enterprise) or its plan's; null means unlimited. */
export function effectiveLimit(plan: PlanCode, keyLimit: number | null): number | null {
  return keyLimit ?? planByCode(plan).dailyLimit;
}

/** Quotas reset at 00:00 UTC. */
export function quotaWindow(now: Date): { day: string; resetAt: Date } {
  const day = now.toISOString().slice(0, 10);
  const resetAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  return { day, resetAt };
}
