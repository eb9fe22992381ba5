// The account list reads its rows with plain SQL for speed (src/accounts/socialAccounts.ts) and claims Prisma's
// SocialAccount type for them: every column the model has must come back, as one account read by Prisma has it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSocialAccount, listSocialAccounts } from '../../src/accounts/socialAccounts.ts';
import { providerRules } from '../../src/providers/catalog.ts';
import { connectSandbox, type TestWorkspace } from '../support/fixtures.ts';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';

let service: TestService;
let acme: TestWorkspace;

beforeAll(async () => ({ service, acme } = await serviceWithWorkspace()));
afterAll(() => service.stop());

describe('the list of social accounts', () => {
  it('answers each account as reading it alone does, its own network rules included', async () => {
    const id = await connectSandbox(service.services, acme.workspaceId);
    const ownRules = { ...providerRules.find((rules) => rules.provider === 'sandbox')!, notes: ['This account’s own limits.'] };
    await service.services.db.pool.query('UPDATE social_account SET rules = $2 WHERE id = $1', [id, JSON.stringify(ownRules)]);
    const { actor } = await service.services.callers.resolve({ kind: 'apiKey', token: acme.ownerKey });
    const listed = (await listSocialAccounts(service.services.db, actor, {})).data.find((account) => account.id === id);
    const alone = await getSocialAccount(service.services.db, actor, id);
    expect(alone.rules).toEqual(ownRules);
    expect(listed).toEqual(alone);
  });
});
