import { builder } from '../builder.ts';
import { Role, Scope } from '../enums.ts';
import { effectiveScopes, type Actor } from '../../src/access/actor.ts';
import { planInForce, plans, type PlanName } from '../../src/workspaces/plans.ts';
import { describePerson, type Person } from '../../src/workspaces/members.ts';
import { creditStatus, type CreditStatus } from '../../src/ai/credits.ts';

const WorkspaceMembership = builder.objectRef<Person['workspaces'][number]>('WorkspaceMembership').implement({
  description: 'A workspace the person belongs to, and their role there.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Sent as x-workspace-id by a signed-in browser.' }),
    name: t.exposeString('name'),
    role: t.field({ type: Role, resolve: (membership) => membership.role as never }),
  }),
});

const PersonRef = builder.objectRef<Person>('Person').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    name: t.exposeString('name', { nullable: true }),
    workspaces: t.field({ type: [WorkspaceMembership], resolve: (person) => person.workspaces }),
  }),
});

type PlanView = { name: PlanName; expiresAt: Date | null } & (typeof plans)[PlanName];

const Plan = builder.objectRef<PlanView>('Plan').implement({
  description: 'The workspace’s plan in force and what it includes.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'free, pro or business.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    apiAccess: t.exposeBoolean('apiAccess', { description: 'Whether API keys work (and can be created).' }),
    ai: t.exposeBoolean('ai', { description: 'Whether AI features are included.' }),
    maxSocialAccounts: t.exposeInt('maxSocialAccounts'),
    monthlyAiCredits: t.int({ description: 'AI credits a month by default on this plan.', resolve: (plan) => plan.defaultMonthlyAiCredits }),
  }),
});

export const AiCredits = builder.objectRef<CreditStatus>('AiCredits').implement({
  description: 'The workspace’s AI credits this month.',
  fields: (t) => ({
    monthly: t.exposeInt('monthly', { description: 'Credits each month (the plan’s, unless the operator set another amount).' }),
    remaining: t.exposeInt('remaining', { description: 'Left this month.' }),
    resetsAt: t.exposeString('resetsAt', { description: 'When the month’s credits start again (UTC).' }),
  }),
});

const Viewer = builder.objectRef<Actor>('Viewer').implement({
  description: 'The caller: a person of one workspace, through an API key or a dashboard session.',
  fields: (t) => ({
    workspaceId: t.exposeID('workspaceId'),
    userId: t.exposeID('userId'),
    role: t.field({ type: Role, resolve: (actor) => actor.role }),
    apiKeyId: t.exposeID('apiKeyId', { nullable: true, description: 'The key of this call; null for a dashboard session.' }),
    scopes: t.field({
      type: [Scope],
      description: 'Effective scopes: the key’s own, capped by its creator’s role.',
      resolve: (actor) => effectiveScopes(actor),
    }),
    person: t.field({
      type: PersonRef,
      description: 'Who the caller is, and every workspace they belong to.',
      resolve: (_actor, _args, context) => describePerson(context.services.db, context.actor),
    }),
    plan: t.field({
      type: Plan,
      nullable: true,
      description: 'The plan in force; null when none is (then most calls answer ENTITLEMENT_EXCEEDED).',
      resolve: (actor) => {
        const name = planInForce(actor.plan);
        return name && { name, expiresAt: actor.plan.planExpiresAt, ...plans[name] };
      },
    }),
    aiCredits: t.field({ type: AiCredits, resolve: (actor, _args, context) => creditStatus(context.services.db, actor.workspaceId) }),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({
    type: Viewer,
    authScopes: { operation: 'viewer' },
    resolve: (_root, _args, context) => context.actor,
  }),
);
