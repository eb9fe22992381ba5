import { builder } from '../builder.ts';
import { effectiveScopes, type Actor } from '../../src/access/actor.ts';
import { planInForce } from '../../src/workspaces/plans.ts';

const Viewer = builder.objectRef<Actor>('Viewer').implement({
  description: 'The caller: a person of one workspace, through an API key or a dashboard session.',
  fields: (t) => ({
    workspaceId: t.exposeID('workspaceId'),
    userId: t.exposeID('userId'),
    role: t.exposeString('role'),
    apiKeyId: t.exposeID('apiKeyId', { nullable: true }),
    scopes: t.stringList({ description: 'Effective scopes: the key’s own, capped by its creator’s role.', resolve: (actor) => effectiveScopes(actor) }),
    plan: t.string({ nullable: true, description: 'The plan in force, if any.', resolve: (actor) => planInForce(actor.plan) }),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({
    type: Viewer,
    authScopes: { operation: 'viewer' },
    resolve: (_root, _args, context) => context.actor,
  }),
);
