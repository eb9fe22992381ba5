// Plans and what each includes. A workspace without a plan, or whose plan has expired, has no plan in force.
export const plans = {
  free: { apiAccess: false, ai: false, maxSocialAccounts: 3, defaultMonthlyAiCredits: 0 },
  pro: { apiAccess: true, ai: true, maxSocialAccounts: 25, defaultMonthlyAiCredits: 500 },
  business: { apiAccess: true, ai: true, maxSocialAccounts: 150, defaultMonthlyAiCredits: 5000 },
} as const;
export type PlanName = keyof typeof plans;
export type Feature = 'apiAccess' | 'ai';

export const featureNames: Record<Feature, string> = { apiAccess: 'API access', ai: 'AI features' };

export function isPlanName(value: string): value is PlanName {
  return Object.hasOwn(plans, value);
}

export interface PlanState {
  plan: string | null;
  planExpiresAt: Date | null;
}

/** The plan in force at `now`, or null. */
export function planInForce(state: PlanState, now = new Date()): PlanName | null {
  if (!state.plan || !isPlanName(state.plan)) return null;
  if (state.planExpiresAt && state.planExpiresAt.getTime() <= now.getTime()) return null;
  return state.plan;
}
