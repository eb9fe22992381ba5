// Workspaces, people and keys set up the way an operator would (the CLI's domain functions).
import type { Services } from '../../src/runtime.ts';
import { setupWorkspace, addUser } from '../../src/workspaces/workspaces.ts';
import { createApiKey } from '../../src/access/apiKeys.ts';
import type { Role, ScopePreset } from '../../src/access/scopes.ts';
import { connectSocialAccount } from '../../src/accounts/socialAccounts.ts';

let counter = 0;
const unique = (label: string) => `${label}-${process.pid}-${++counter}-${Date.now()}`;

export interface TestWorkspace {
  workspaceId: string;
  ownerId: string;
  ownerKey: string;
}

export async function createWorkspace(services: Services, options: { password?: string } = {}): Promise<TestWorkspace> {
  const setup = await setupWorkspace(services.db, { name: unique('workspace'), email: `${unique('owner')}@example.test`, password: options.password });
  return { workspaceId: setup.workspaceId, ownerId: setup.userId, ownerKey: setup.apiKey! };
}

export async function addPerson(services: Services, workspaceId: string, role: Role, password?: string) {
  const email = `${unique(role)}@example.test`;
  const { userId } = await addUser(services.db, { workspaceId, email, role, password });
  return { userId, email };
}

export async function keyFor(
  services: Services,
  workspaceId: string,
  userId: string,
  grant: { scopes?: string[]; preset?: ScopePreset; expiresAt?: Date } = { preset: 'publishing' },
): Promise<{ keyId: string; apiKey: string }> {
  return createApiKey(services.db, { workspaceId, userId, ...grant });
}

export async function connectSandbox(services: Services, workspaceId: string, username = unique('user')) {
  const { connectionId } = await connectSocialAccount(services.db, services.secrets, services.adapters, services.outbox, {
    workspaceId,
    provider: 'sandbox',
    username,
  });
  return connectionId;
}

export function bearer(apiKey: string, extra: Record<string, string> = {}) {
  return { authorization: `Bearer ${apiKey}`, ...extra };
}
