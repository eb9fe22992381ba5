import { builder } from '../builder.ts';
import { Provider } from '../enums.ts';
import { pageRequest, toConnection } from '../connections.ts';
import { getSocialAccount, listSocialAccounts, socialAccountPosition } from '../../src/accounts/socialAccounts.ts';
import {
  addSocialAccount,
  connectionOutcome,
  disconnectSocialAccount,
  startAccountConnection,
  type AuthorizationStart,
  type ConnectionOutcomeView,
} from '../../src/accounts/connect.ts';
import { renderMessage } from '../../src/errors/messages.ts';
import { readSettingOptions } from '../../src/accounts/settingOptions.ts';
import type { SettingChoice, SettingOption } from '../../src/providers/adapter.ts';

const SettingChoiceRef = builder.objectRef<SettingChoice>('SettingChoice').implement({
  description: 'One value a setting may take for an account.',
  fields: (t) => ({
    value: t.exposeString('value'),
    label: t.exposeString('label', { description: "What people see: a board's name, a privacy level's name." }),
  }),
});

const AccountSettingOptionRef = builder.objectRef<SettingOption & { name: string }>('AccountSettingOption').implement({
  description: 'What one account may choose for one setting of its network, read from the network.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The setting, as named in the network’s `settings`.' }),
    choices: t.field({
      type: [SettingChoiceRef],
      nullable: true,
      description: 'The values allowed, in the network’s order; null where the setting’s schema alone says.',
      resolve: (option) => option.choices ?? null,
    }),
    default: t.field({
      type: 'JSON',
      nullable: true,
      description: 'What a target that leaves the setting out gets.',
      resolve: (option) => option.default ?? null,
    }),
    unavailable: t.string({
      nullable: true,
      description: 'Why the account cannot use the setting; it stays at `default`.',
      resolve: (option) => option.unavailable ?? null,
    }),
    dependsOn: t.stringList({
      description: 'The settings its choices depend on (Reddit’s `flairId` on `subreddit`): ask again, giving their values, when they change.',
      resolve: (option) => option.dependsOn ?? [],
    }),
  }),
});

const SocialAccount = builder.prismaObject('SocialAccount', {
  description: 'A connected social account. Its provider tokens are never exposed.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Passed as `connectionId` when creating a post for this account.' }),
    provider: t.expose('provider', { type: Provider }),
    displayName: t.exposeString('displayName'),
    username: t.exposeString('username'),
    status: t.exposeString('status', { description: 'ACTIVE, NEEDS_RECONNECT (the network no longer accepts its tokens) or REVOKED (disconnected).' }),
    needsReconnect: t.exposeBoolean('needsReconnect'),
    avatarUrl: t.exposeString('avatarUrl', { nullable: true }),
    connectionMethod: t.exposeString('connectionMethod', {
      nullable: true,
      description: 'How it was connected where its network offers several ways: Instagram’s facebook_login or instagram_login; null for other networks.',
    }),
    connectedAt: t.expose('connectedAt', { type: 'DateTime' }),
    settingOptions: t.field({
      type: [AccountSettingOptionRef],
      nullable: true,
      description:
        'What this account may choose for its network’s settings, read from the network now (Pinterest’s boards, TikTok’s privacy ' +
        'levels and switches); empty for networks without per-account choices. As REST GET /social-accounts/{id}/setting-options.',
      args: { subreddit: t.arg.string({ description: 'The value of the setting `subreddit` options depend on: Reddit’s flairs are that subreddit’s.' }) },
      authScopes: { operation: 'getSettingOptions' },
      resolve: async (account, { subreddit }, context) =>
        Object.entries(await readSettingOptions(context.services, context.actor, account.id, subreddit ? { subreddit } : {})).map(([name, option]) => ({
          name,
          ...option,
        })),
    }),
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

const AuthorizationStartRef = builder.objectRef<AuthorizationStart>('AccountAuthorization').implement({
  description: 'Where the person authorizes the app at the network; the network then sends them to /oauth/callback/<provider>.',
  fields: (t) => ({
    authorizationUrl: t.exposeString('authorizationUrl', {
      description:
        'The start link on this service (/oauth/start/<provider>): open it in the browser of the person who authorizes. It opens once, ' +
        'gives that browser a cookie binding the authorization to it (httpOnly, SameSite=Lax, 10 minutes) and redirects to the network; ' +
        'the callback refuses a browser without it (error=invalid_request). Started in the dashboard, it opens only in that signed-in ' +
        'session’s browser; started with an API key, it first shows its visitor a page naming the workspace and who asked, and goes on ' +
        'to the network only when they continue.',
    }),
    state: t.exposeString('state', { description: 'Single-use; valid for 10 minutes.' }),
    expiresAt: t.exposeString('expiresAt'),
  }),
});

const ConnectionOutcomeRef = builder.objectRef<ConnectionOutcomeView>('ConnectionOutcome').implement({
  description:
    'How an OAuth connection ended, for the person who started it: the `outcome` the callback adds to its redirect names it. ' +
    'The dashboard shows this, never text from its address.',
  fields: (t) => ({
    id: t.exposeID('id'),
    provider: t.expose('provider', { type: Provider }),
    connectionIds: t.exposeIDList('connectionIds', { description: 'The accounts connected (one per account); empty when none was.' }),
    error: t.exposeString('error', { nullable: true, description: 'Why none was: the RFC 6749 error code (or ours, in lower case); null when connected.' }),
    message: t.string({
      nullable: true,
      description: 'Why none was, in the request’s language; null when connected.',
      resolve: (outcome, _args, context) => (outcome.reason ? renderMessage(context.language, outcome.reason.messageKey, outcome.reason.params) : null),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryField('connectionOutcome', (t) =>
  t.field({
    type: ConnectionOutcomeRef,
    nullable: true,
    description: 'How the OAuth connection named by the callback’s `outcome` ended; null unless the caller started it in this workspace (kept a day).',
    args: { id: t.arg.id({ required: true }) },
    authScopes: { operation: 'getConnectionOutcome' },
    resolve: (_root, args, context) => connectionOutcome(context.services.db, context.actor, String(args.id)),
  }),
);

builder.mutationFields((t) => ({
  startAccountConnection: t.field({
    type: AuthorizationStartRef,
    description: 'Connects an OAuth network account (owners and admins; keys need accounts:write).',
    args: {
      provider: t.arg({ type: Provider, required: true }),
      redirectUri: t.arg.string(),
      instanceUrl: t.arg.string(),
      method: t.arg.string({
        description: 'Instagram: facebook_login (the default where its app is set) or instagram_login (accounts without a Facebook Page).',
      }),
    },
    authScopes: { operation: 'startAccountConnection' },
    resolve: (_root, args, context) => startAccountConnection(context.services.db, context.services.connections, context.actor, args),
  }),
  addSocialAccount: t.field({
    type: SocialAccount,
    description:
      'Connects an account of a credential network with the fields its `connection.fields` name (`credentials`: Bluesky identifier, appPassword, service; ' +
      'Telegram botToken, chat; Bluesky’s also as arguments of their own) or a sandbox account (username).',
    args: {
      provider: t.arg({ type: Provider, required: true }),
      username: t.arg.string(),
      displayName: t.arg.string(),
      credentials: t.arg({ type: 'JSON', description: 'The network’s credential fields by name (GET /v1/providers `connection.fields`).' }),
      identifier: t.arg.string(),
      appPassword: t.arg.string(),
      service: t.arg.string(),
    },
    authScopes: { operation: 'addSocialAccount' },
    resolve: (_root, args, context) =>
      addSocialAccount(context.services.db, context.services.outbox, context.services.connections, context.actor, {
        ...args,
        credentials: args.credentials as Record<string, unknown> | null | undefined,
      }),
  }),
  disconnectSocialAccount: t.field({
    type: SocialAccount,
    description: 'Disconnects the account: REVOKED, tokens erased (and revoked at the network where it offers that), history kept.',
    args: { id: t.arg.id({ required: true }) },
    authScopes: { operation: 'disconnectSocialAccount' },
    resolve: (_root, args, context) =>
      disconnectSocialAccount(context.services.db, context.services.outbox, context.services.connections, context.actor, String(args.id)),
  }),
}));
