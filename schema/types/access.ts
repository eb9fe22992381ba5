// API keys and people of the workspace: owners and admins (keys also need the access:write scope); each person's
// connected apps (MCP clients signed in with OAuth) and the consent page's request and decision.
import { builder } from '../builder.ts';
import { Role, Scope, ScopePreset } from '../enums.ts';
import { createOwnApiKey, listWorkspaceApiKeys, revokeWorkspaceApiKey, type ApiKeySummary } from '../../src/access/apiKeys.ts';
import {
  decideAppAuthorization,
  describeAppAuthorization,
  disconnectApp,
  listConnectedApps,
  type AppAuthorizationView,
  type ConnectedAppSummary,
} from '../../src/access/connectedApps.ts';
import { addMember, listMembers, removeMember, setMemberRole, type Member } from '../../src/workspaces/members.ts';

const ApiKey = builder.objectRef<ApiKeySummary>('ApiKey').implement({
  description: 'An API key of the workspace. The key itself is only ever shown once, by createApiKey.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name', { nullable: true }),
    prefix: t.exposeString('prefix', { description: 'The key’s first characters, to recognize it.' }),
    createdById: t.exposeID('createdById', { description: 'The person the key acts for.' }),
    scopes: t.field({ type: [Scope], resolve: (key) => key.scopes as never }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const CreatedApiKey = builder.objectRef<{ key: ApiKeySummary; apiKey: string }>('CreatedApiKey').implement({
  fields: (t) => ({
    key: t.field({ type: ApiKey, resolve: (created) => created.key }),
    apiKey: t.exposeString('apiKey', { description: 'The full key, shown this once: only a hash of it is kept.' }),
  }),
});

const MemberRef = builder.objectRef<Member>('Member').implement({
  description: 'A person of the workspace and their role.',
  fields: (t) => ({
    userId: t.exposeID('userId'),
    email: t.exposeString('email'),
    name: t.exposeString('name', { nullable: true }),
    role: t.field({ type: Role, resolve: (member) => member.role as never }),
    joinedAt: t.expose('joinedAt', { type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  apiKeys: t.field({
    type: [ApiKey],
    description: 'Every key of the workspace, revoked ones included, newest first.',
    authScopes: { operation: 'listApiKeys' },
    resolve: (_root, _args, context) => listWorkspaceApiKeys(context.services.db, context.actor),
  }),
  members: t.field({
    type: [MemberRef],
    description: 'The people of the workspace, in the order they joined.',
    authScopes: { operation: 'listMembers' },
    resolve: (_root, _args, context) => listMembers(context.services.db, context.actor),
  }),
}));

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: CreatedApiKey,
    description: 'A key acting for the caller, with a preset or scopes (never more than the caller holds); on a plan with API access.',
    args: {
      preset: t.arg({ type: ScopePreset }),
      scopes: t.arg({ type: [Scope] }),
      name: t.arg.string(),
      expiresAt: t.arg({ type: 'DateTime' }),
    },
    authScopes: { operation: 'createApiKey' },
    resolve: (_root, args, context) =>
      createOwnApiKey(context.services.db, context.actor, {
        preset: args.preset ?? undefined,
        scopes: args.scopes ?? undefined,
        name: args.name ?? undefined,
        expiresAt: args.expiresAt ?? undefined,
      }),
  }),
  revokeApiKey: t.field({
    type: ApiKey,
    description: 'Revokes a key of the workspace; calls with it answer UNAUTHENTICATED from now on.',
    args: { id: t.arg.id({ required: true }) },
    authScopes: { operation: 'revokeApiKey' },
    resolve: (_root, args, context) => revokeWorkspaceApiKey(context.services.db, context.actor, String(args.id)),
  }),
  addMember: t.field({
    type: MemberRef,
    description: 'Adds a person by email; a password signs a new person in (someone else’s account keeps its own). Only owners add owners.',
    args: { email: t.arg.string({ required: true }), role: t.arg({ type: Role, required: true }), password: t.arg.string() },
    authScopes: { operation: 'addMember' },
    resolve: (_root, args, context) =>
      addMember(context.services.db, context.actor, { email: args.email, role: args.role, password: args.password ?? undefined }),
  }),
  setMemberRole: t.field({
    type: MemberRef,
    description: 'Changes a person’s role; only owners grant or take the owner role, and a workspace keeps one owner.',
    args: { userId: t.arg.id({ required: true }), role: t.arg({ type: Role, required: true }) },
    authScopes: { operation: 'setMemberRole' },
    resolve: (_root, args, context) => setMemberRole(context.services.db, context.actor, String(args.userId), args.role),
  }),
  removeMember: t.field({
    type: MemberRef,
    description: 'Removes a person; the keys they created stop working. Only owners remove owners; a workspace keeps one owner.',
    args: { userId: t.arg.id({ required: true }) },
    authScopes: { operation: 'removeMember' },
    resolve: (_root, args, context) => removeMember(context.services.db, context.actor, String(args.userId)),
  }),
}));

const ConnectedAppRef = builder.objectRef<ConnectedAppSummary>('ConnectedApp').implement({
  description: 'An MCP client (Claude, ChatGPT, the MCP Inspector) the caller signed in with OAuth in this workspace; it acts as a key of theirs would.',
  fields: (t) => ({
    id: t.exposeID('id'),
    clientName: t.exposeString('clientName', { nullable: true, description: 'The name the client registered with (RFC 7591 client_name).' }),
    redirectHost: t.exposeString('redirectHost', { description: 'The host the client’s sign-in returned to.' }),
    scopes: t.field({ type: [Scope], resolve: (app) => app.scopes as never }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'Its last call of /mcp, to the minute.' }),
  }),
});

const AppAuthorizationRef = builder.objectRef<AppAuthorizationView>('AppAuthorization').implement({
  description: 'An MCP client asking to act for the caller: what the consent page shows.',
  fields: (t) => ({
    id: t.exposeID('id'),
    clientName: t.exposeString('clientName', { nullable: true }),
    redirectHost: t.exposeString('redirectHost', { description: 'Where the answer goes: the host the person should recognize.' }),
    requestedScopes: t.field({ type: [Scope], resolve: (request) => request.requestedScopes as never }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
  }),
});

const AppDecisionRef = builder.objectRef<{ redirectTo: string }>('AppAuthorizationDecision').implement({
  fields: (t) => ({
    redirectTo: t.exposeString('redirectTo', { description: 'Where to send the browser: the client’s redirect URI with the code, or with access_denied.' }),
  }),
});

builder.queryFields((t) => ({
  connectedApps: t.field({
    type: [ConnectedAppRef],
    description: 'The caller’s connected apps in this workspace that still work, newest first.',
    authScopes: { operation: 'listConnectedApps' },
    resolve: (_root, _args, context) => listConnectedApps(context.services.db, context.actor),
  }),
  appAuthorization: t.field({
    type: AppAuthorizationRef,
    description: 'A pending authorization request of an MCP client (the id in the consent page’s address); NOT_FOUND once decided or expired.',
    args: { id: t.arg.id({ required: true }) },
    authScopes: { operation: 'connectApp' },
    resolve: (_root, args, context) => describeAppAuthorization(context.services.db, String(args.id)),
  }),
}));

builder.mutationFields((t) => ({
  decideAppAuthorization: t.field({
    type: AppDecisionRef,
    description:
      'Allows (with a preset or scopes, never more than the caller’s role holds, on a plan with API access) or denies an MCP client for the caller in this workspace.',
    args: {
      id: t.arg.id({ required: true }),
      allow: t.arg.boolean({ required: true }),
      preset: t.arg({ type: ScopePreset }),
      scopes: t.arg({ type: [Scope] }),
    },
    authScopes: { operation: 'connectApp' },
    resolve: (_root, args, context) =>
      decideAppAuthorization(context.services.db, context.actor, {
        requestId: String(args.id),
        allow: args.allow,
        preset: args.preset ?? undefined,
        scopes: args.scopes ?? undefined,
        issuer: context.services.config.publicBaseUrl,
      }),
  }),
  disconnectApp: t.field({
    type: [ConnectedAppRef],
    description: 'Disconnects one of the caller’s apps: its tokens are refused from now on. Answers the apps left.',
    args: { id: t.arg.id({ required: true }) },
    authScopes: { operation: 'disconnectApp' },
    resolve: (_root, args, context) => disconnectApp(context.services.db, context.actor, String(args.id)),
  }),
}));
