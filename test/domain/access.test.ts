// Rules of access: scopes capped by roles, presets, plans in force.
import { describe, expect, it } from 'vitest';
import { effectiveScopes, requirePlan, requireScopes, type Actor } from '../../src/access/actor.ts';
import { authorize } from '../../src/access/operations.ts';
import { roleCeilings, scopePresets, scopes, type Role, type Scope } from '../../src/access/scopes.ts';
import { AppError } from '../../src/errors/appError.ts';
import { resolveScopes } from '../../src/access/apiKeys.ts';

const actor = (role: Role, granted: readonly Scope[] = scopes): Actor => ({
  workspaceId: 'w',
  userId: 'u',
  role,
  apiKeyId: 'k',
  grantedScopes: new Set(granted),
  plan: { plan: 'pro', planExpiresAt: null },
});

function refusal(run: () => void): { code: string; key: string; params: unknown } | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { code: error.code, key: error.messageKey, params: error.params };
  }
}

describe('role ceilings', () => {
  it('give owners and admins every scope, editors all but webhooks:write, accounts:write and access:write, viewers the reads', () => {
    expect(effectiveScopes(actor('owner'))).toEqual([...scopes]);
    expect(effectiveScopes(actor('admin'))).toEqual([...scopes]);
    expect(effectiveScopes(actor('editor'))).toEqual(scopes.filter((s) => s !== 'webhooks:write' && s !== 'accounts:write' && s !== 'access:write'));
    expect(effectiveScopes(actor('viewer'))).toEqual(['posts:read', 'media:read', 'accounts:read', 'analytics:read']);
  });

  it('cap a key: a scope the key has but the role lacks is refused, naming the role', () => {
    expect(refusal(() => requireScopes(actor('editor', ['webhooks:write']), ['webhooks:write'], 'createWebhook'))).toEqual({
      code: 'FORBIDDEN',
      key: 'forbiddenRole',
      params: { role: 'editor', operation: 'createWebhook' },
    });
    expect(refusal(() => requireScopes(actor('owner', ['posts:read']), ['posts:write'], 'createPost'))).toEqual({
      code: 'FORBIDDEN',
      key: 'forbiddenScope',
      params: { scope: 'posts:write', operation: 'createPost' },
    });
    expect(refusal(() => requireScopes(actor('viewer', ['accounts:read']), ['accounts:read'], 'listSocialAccounts'))).toBeNull();
  });

  it('gate the request log to owners and admins', () => {
    expect(refusal(() => authorize(actor('admin', []), 'requestLog'))).toBeNull();
    expect(refusal(() => authorize(actor('viewer'), 'requestLog'))?.key).toBe('forbiddenRole');
  });

  it('are consistent with the presets', () => {
    expect(scopePresets['read-only'].every((scope) => roleCeilings.viewer.includes(scope))).toBe(true);
    expect(resolveScopes({ preset: 'publishing' })).toEqual([
      'posts:read',
      'media:read',
      'accounts:read',
      'analytics:read',
      'posts:write',
      'media:write',
      'ai:write',
    ]);
    expect(refusal(() => resolveScopes({ scopes: ['posts:read', 'posts:delete'] }))?.code).toBe('INVALID_REQUEST');
    expect(refusal(() => resolveScopes({ scopes: [] }))?.code).toBe('INVALID_REQUEST');
  });
});

describe('plans', () => {
  const now = new Date('2026-06-01T00:00:00Z');
  it('need one in force, and the feature in it', () => {
    expect(requirePlan({ plan: 'pro', planExpiresAt: null }, 'apiAccess', now)).toBe('pro');
    expect(requirePlan({ plan: 'business', planExpiresAt: new Date('2026-07-01T00:00:00Z') }, 'ai', now)).toBe('business');
    expect(refusal(() => requirePlan({ plan: 'pro', planExpiresAt: new Date('2026-06-01T00:00:00Z') }, undefined, now))?.key).toBe('noPlan');
    expect(refusal(() => requirePlan({ plan: null, planExpiresAt: null }, undefined, now))?.key).toBe('noPlan');
    expect(refusal(() => requirePlan({ plan: 'free', planExpiresAt: null }, 'apiAccess', now))).toEqual({
      code: 'ENTITLEMENT_EXCEEDED',
      key: 'planLacksFeature',
      params: { plan: 'free', feature: 'API access' },
    });
    expect(requirePlan({ plan: 'free', planExpiresAt: null }, undefined, now)).toBe('free');
  });
});
