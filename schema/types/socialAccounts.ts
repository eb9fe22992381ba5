import { builder } from '../builder.ts';
import { pageRequest, toConnection } from '../connections.ts';
import { getSocialAccount, listSocialAccounts, socialAccountPosition } from '../../src/accounts/socialAccounts.ts';

const SocialAccount = builder.prismaObject('SocialAccount', {
  description: 'A connected social account. Its provider tokens are never exposed.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Passed as `connectionId` when creating a post for this account.' }),
    provider: t.exposeString('provider'),
    displayName: t.exposeString('displayName'),
    username: t.exposeString('username'),
    status: t.exposeString('status'),
    needsReconnect: t.exposeBoolean('needsReconnect'),
    avatarUrl: t.exposeString('avatarUrl', { nullable: true }),
    connectedAt: t.expose('connectedAt', { type: 'DateTime' }),
  }),
});

builder.queryField('socialAccounts', (t) =>
  t.connection({
    type: SocialAccount,
    authScopes: { operation: 'listSocialAccounts' },
    resolve: async (_root, args, context) =>
      toConnection(await listSocialAccounts(context.services.db, context.actor, pageRequest(args)), socialAccountPosition),
  }),
);

builder.queryField('socialAccount', (t) =>
  t.field({
    type: SocialAccount,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { operation: 'getSocialAccount' },
    resolve: (_root, args, context) => getSocialAccount(context.services.db, context.actor, String(args.id)),
  }),
);
