// Scopes, presets and role ceilings, as the spec's Authentication section and the contract define them.
export const scopes = [
  'posts:read',
  'media:read',
  'accounts:read',
  'analytics:read',
  'posts:write',
  'media:write',
  'webhooks:write',
  'ai:write',
  /** Connecting and disconnecting social accounts (owners and admins only); an addition to the spec, in no preset. */
  'accounts:write',
  /** Managing API keys and people (owners and admins only); an addition to the spec, in no preset. */
  'access:write',
] as const;
export type Scope = (typeof scopes)[number];

export const roles = ['owner', 'admin', 'editor', 'viewer'] as const;
export type Role = (typeof roles)[number];

const readOnly: Scope[] = ['posts:read', 'media:read', 'accounts:read', 'analytics:read'];

export const scopePresets = {
  'read-only': readOnly,
  publishing: [...readOnly, 'posts:write', 'media:write', 'ai:write'],
} as const satisfies Record<string, readonly Scope[]>;
export type ScopePreset = keyof typeof scopePresets;

export const roleCeilings: Record<Role, readonly Scope[]> = {
  owner: scopes,
  admin: scopes,
  editor: scopes.filter((scope) => scope !== 'webhooks:write' && scope !== 'accounts:write' && scope !== 'access:write'),
  viewer: readOnly,
};

/** Roles that may create API keys and read the request log. */
export const managerRoles: readonly Role[] = ['owner', 'admin'];

export function isScope(value: string): value is Scope {
  return (scopes as readonly string[]).includes(value);
}

export function isRole(value: string): value is Role {
  return (roles as readonly string[]).includes(value);
}
