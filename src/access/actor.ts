// Who is calling: a person of one workspace, through an API key, a dashboard session or a connected app's token.
import { AppError } from '../errors/appError.ts';
import { featureNames, planInForce, plans, type Feature, type PlanName, type PlanState } from '../workspaces/plans.ts';
import { roleCeilings, type Role, type Scope } from './scopes.ts';

export interface Actor {
  workspaceId: string;
  userId: string;
  role: Role;
  /** Null for a dashboard session and a connected app. */
  apiKeyId: string | null;
  /** The connected app (an MCP client signed in with OAuth) whose access token this is; absent otherwise. */
  connectedAppId?: string;
  /** A dashboard session's token, as its SHA-256 (hex) digest (what flows bound to the session compare); absent for a key. */
  sessionHash?: string;
  /** Scopes the key was given (all scopes for a session). */
  grantedScopes: ReadonlySet<Scope>;
  plan: PlanState;
}

/**
 * Throws 403 FORBIDDEN unless the actor holds every scope: a key's own scopes, capped by its creator's current
 * role. The message names the scope and the operation, and says whether the key or the role is short of it.
 */
export function requireScopes(actor: Actor, required: readonly Scope[], operation: string): void {
  const ceiling = roleCeilings[actor.role];
  for (const scope of required) {
    if (!actor.grantedScopes.has(scope)) throw new AppError('FORBIDDEN', 'forbiddenScope', { scope, operation });
    if (!ceiling.includes(scope)) throw new AppError('FORBIDDEN', 'forbiddenRole', { role: actor.role, operation });
  }
}

export function requireRole(actor: Actor, allowed: readonly Role[], operation: string): void {
  if (!allowed.includes(actor.role)) throw new AppError('FORBIDDEN', 'forbiddenRole', { role: actor.role, operation });
}

/** Throws 402 ENTITLEMENT_EXCEEDED unless a plan is in force that includes the feature (when one is named). */
export function requirePlan(state: PlanState, feature?: Feature, now = new Date()): PlanName {
  const plan = planInForce(state, now);
  if (!plan) throw new AppError('ENTITLEMENT_EXCEEDED', 'noPlan');
  if (feature && !plans[plan][feature]) {
    throw new AppError('ENTITLEMENT_EXCEEDED', 'planLacksFeature', { plan, feature: featureNames[feature] });
  }
  return plan;
}

/** The scopes the actor can use now: the key's own, capped by the creator's current role. */
export function effectiveScopes(actor: Actor): Scope[] {
  return roleCeilings[actor.role].filter((scope) => actor.grantedScopes.has(scope));
}
