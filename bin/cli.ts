// The operator CLI: `npx sps <command> [--json]` (the bin) or `npm run -s cli -- …`. Each command prints one JSON
// object with --json, a readable line otherwise. Exit codes: 0 done, 1 refused or failed, 2 wrong usage.
import { parseArgs } from 'node:util';
import type { Services } from '../src/runtime.ts';
import type { Role, ScopePreset } from '../src/access/scopes.ts';
import type { LocalizedError } from '../src/errors/localize.ts';
import { requireSupportedNode } from './supportedNode.js';

requireSupportedNode();

const usage = `Usage: sps <command> [options] [--json]

  setup --workspace NAME --email EMAIL [--password P] [--plan free|pro|business]
  users add --workspace ID --email EMAIL --role owner|admin|editor|viewer [--password P]
  users set-role --workspace ID --user ID --role ROLE
  users remove --workspace ID --user ID
  keys create --workspace ID --user ID [--scopes a,b | --preset read-only|publishing] [--expires ISO] [--name N]
  keys revoke --key ID
  keys list --workspace ID
  accounts connect --workspace ID --provider NAME --username U [--display-name D]
                   [--access-token T [--refresh-token R] [--token-expires ISO] [--instance-url URL] [--remote-id ID]]
  accounts revoke --connection ID
  accounts refresh --connection ID [--force]   (tokens expiring within 15 minutes; --force: now)
  plans set --workspace ID --plan free|pro|business [--ai-credits N] [--expired]`;

class UsageError extends Error {}

const { values, positionals } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        workspace: { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
        plan: { type: 'string' },
        role: { type: 'string' },
        user: { type: 'string' },
        scopes: { type: 'string' },
        preset: { type: 'string' },
        expires: { type: 'string' },
        name: { type: 'string' },
        key: { type: 'string' },
        provider: { type: 'string' },
        username: { type: 'string' },
        'display-name': { type: 'string' },
        'access-token': { type: 'string' },
        'refresh-token': { type: 'string' },
        'token-expires': { type: 'string' },
        'instance-url': { type: 'string' },
        'remote-id': { type: 'string' },
        connection: { type: 'string' },
        'ai-credits': { type: 'string' },
        expired: { type: 'boolean', default: false },
        force: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    process.exit(2);
  }
})();

function required(name: keyof typeof values): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function id(name: 'workspace' | 'user' | 'key' | 'connection'): string {
  const value = required(name);
  if (!isUuid(value)) throw new UsageError(`--${name} must be an id (UUID), got "${value}"`);
  return value;
}

function role(): Role {
  const value = required('role');
  if (!isRole(value)) throw new UsageError(`--role must be owner, admin, editor or viewer, got "${value}"`);
  return value;
}

function date(name: 'expires' | 'token-expires'): Date | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  const parsed = new Date(value);
  if (Number.isNaN(parsed.getTime())) throw new UsageError(`--${name} must be an ISO 8601 date, got "${value}"`);
  return parsed;
}

function plan() {
  const value = required('plan');
  if (!isPlanName(value)) throw new UsageError(`--plan must be free, pro or business, got "${value}"`);
  return value;
}

type Command = (services: Services) => Promise<{ result: Record<string, unknown>; text: string }>;

const commands: Record<string, Command> = {
  setup: async ({ db }) => {
    const result = await setupWorkspace(db, {
      name: required('workspace'),
      email: required('email'),
      password: values.password,
      plan: values.plan ? plan() : undefined,
    });
    const key = result.apiKey ? `\nAPI key (shown once): ${result.apiKey}` : '\nNo API key: the plan has no API access.';
    return { result: { ...result }, text: `workspace ${result.workspaceId}, owner ${result.userId}${key}` };
  },
  'users add': async ({ db }) => {
    const result = await addUser(db, { workspaceId: id('workspace'), email: required('email'), role: role(), password: values.password });
    return { result, text: `user ${result.userId}` };
  },
  'users set-role': async ({ db }) => {
    await setUserRole(db, { workspaceId: id('workspace'), userId: id('user'), role: role() });
    return { result: { ok: true }, text: 'role changed' };
  },
  'users remove': async ({ db }) => {
    await removeUser(db, { workspaceId: id('workspace'), userId: id('user') });
    return { result: { ok: true }, text: 'user removed; their keys in this workspace are revoked' };
  },
  'keys create': async ({ db }) => {
    if (values.scopes && values.preset) throw new UsageError('give --scopes or --preset, not both');
    if (values.preset && !Object.hasOwn(scopePresets, values.preset)) throw new UsageError(`--preset must be read-only or publishing`);
    const result = await createApiKey(db, {
      workspaceId: id('workspace'),
      userId: id('user'),
      scopes: values.scopes
        ?.split(',')
        .map((scope) => scope.trim())
        .filter(Boolean),
      preset: (values.preset as ScopePreset | undefined) ?? (values.scopes ? undefined : 'publishing'),
      expiresAt: date('expires'),
      name: values.name,
    });
    return { result, text: `key ${result.keyId}\nAPI key (shown once): ${result.apiKey}` };
  },
  'keys revoke': async ({ db }) => {
    await revokeApiKey(db, id('key'));
    return { result: { ok: true }, text: 'key revoked' };
  },
  'keys list': async ({ db }) => {
    const keys = await listApiKeys(db, id('workspace'));
    return {
      result: { keys },
      text:
        keys
          .map(
            (k) =>
              `${k.id}  ${k.prefix}…  ${k.scopes.join(',')}${k.revokedAt ? '  revoked' : ''}${k.expiresAt ? `  expires ${k.expiresAt.toISOString()}` : ''}`,
          )
          .join('\n') || 'no keys',
    };
  },
  'accounts connect': async ({ db, secrets, adapters, outbox }) => {
    const accessToken = values['access-token'];
    const result = await connectSocialAccount(db, secrets, adapters, outbox, {
      workspaceId: id('workspace'),
      provider: required('provider'),
      username: required('username'),
      displayName: values['display-name'],
      remoteId: values['remote-id'],
      tokens: accessToken
        ? {
            accessToken,
            refreshToken: values['refresh-token'],
            expiresAt: date('token-expires')?.toISOString(),
            extra: values['instance-url'] ? { instanceUrl: values['instance-url'] } : undefined,
          }
        : undefined,
    });
    return { result, text: `connection ${result.connectionId}` };
  },
  'accounts revoke': async ({ db, outbox, connections }) => {
    await disconnectAccount(db, outbox, connections, id('connection'));
    return { result: { ok: true }, text: 'connection revoked' };
  },
  'accounts refresh': async ({ tokens }) => {
    const refreshed = await tokens.refreshAccount(id('connection'), { force: values.force });
    const text = refreshed.status === 'rejected' ? `the network refused the tokens: ${refreshed.reason}` : `tokens ${refreshed.status}`;
    return { result: { status: refreshed.status }, text };
  },
  'plans set': async ({ db }) => {
    const credits = values['ai-credits'];
    if (credits !== undefined && !/^\d+$/.test(credits)) throw new UsageError('--ai-credits must be a whole number');
    await setPlan(db, { workspaceId: id('workspace'), plan: plan(), aiCredits: credits === undefined ? undefined : Number(credits), expired: values.expired });
    return { result: { ok: true }, text: 'plan set' };
  },
};

const name = positionals[0] === 'setup' ? 'setup' : positionals.slice(0, 2).join(' ');
const command = commands[name];
if (values.help || !command) {
  if (!values.help) console.error(name ? `unknown command "${name}"\n` : '');
  console.error(usage);
  process.exit(values.help ? 0 : 2);
}

// Loaded only now: static imports would load the dependencies (and crash in them on an old Node) before the
// version check, and --help or wrong usage need none of them.
const { loadConfig } = await import('../src/config.ts');
const { createLogger } = await import('../src/logger.ts');
const { startRuntime } = await import('../src/runtime.ts');
const { AppError } = await import('../src/errors/appError.ts');
const { localizeError } = await import('../src/errors/localize.ts');
const { isUuid } = await import('../src/ids.ts');
const { isRole, scopePresets } = await import('../src/access/scopes.ts');
const { createApiKey, listApiKeys, revokeApiKey } = await import('../src/access/apiKeys.ts');
const { addUser, removeUser, setPlan, setUserRole, setupWorkspace } = await import('../src/workspaces/workspaces.ts');
const { isPlanName } = await import('../src/workspaces/plans.ts');
const { connectSocialAccount } = await import('../src/accounts/socialAccounts.ts');
const { disconnectAccount } = await import('../src/accounts/connect.ts');

function fail(error: LocalizedError, exitCode: number): never {
  if (values.json) console.log(JSON.stringify({ error }));
  else if (error.details?.length)
    console.error(error.details.map((d) => `${Object.hasOwn(values, d.field) ? `--${d.field}` : d.field}: ${d.message}`).join('\n'));
  else console.error(error.message);
  // The wasm schema engine leaves a 10 s timer behind: exit now rather than wait for it.
  process.exit(exitCode);
}

const config = loadConfig();
let runtime: Awaited<ReturnType<typeof startRuntime>> | undefined;
try {
  runtime = await startRuntime(config, createLogger(values.json ? 'silent' : config.logLevel === 'info' ? 'error' : config.logLevel), { work: false });
  const { result, text } = await command(runtime.services);
  console.log(values.json ? JSON.stringify(result) : text);
  process.exitCode = 0;
} catch (error) {
  await runtime?.stop();
  if (error instanceof UsageError) fail({ code: 'USAGE', message: `${error.message}\n\n${usage}` }, 2);
  if (error instanceof AppError) fail(localizeError(error, 'en'), 1);
  fail({ code: 'INTERNAL', message: String((error as Error)?.stack ?? error) }, 1);
}
await runtime?.stop();
// The wasm schema engine leaves a 10 s timer behind; the command is done, so exit now.
process.exit();
