// The operator CLI's commands apart from its process: what an argument list means, which domain function it calls
// and what it answers (the text or JSON, and the exit code). bin/cli.ts starts the runtime, prints the answer and
// exits with its code; tests run the same commands in-process on a test service's runtime.
import { parseArgs } from 'node:util';
import type { Services } from '../src/runtime.ts';
import type { ScopePreset } from '../src/access/scopes.ts';
import type { LocalizedError } from '../src/errors/localize.ts';

export const usage = `Usage: sps <command> [options] [--json]

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

/** What a command prints and the process's exit code: 0 done, 1 refused or failed, 2 wrong usage. */
export interface Answer {
  exitCode: 0 | 1 | 2;
  stdout: string;
  stderr: string;
}

/** A command read from the arguments, to run once the runtime has started. */
export interface Invocation {
  json: boolean;
  /** Runs the command; a refusal or a failure is an answer too. */
  run(services: Services): Promise<Answer>;
  /** The answer to an error thrown before the command ran (starting the runtime). */
  failed(error: unknown): Promise<Answer>;
}

class UsageError extends Error {}

const options = {
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
} as const;

const parse = (args: string[]) => parseArgs({ args, allowPositionals: true, options });
type Values = ReturnType<typeof parse>['values'];

// Loaded only when a command runs: --help and wrong usage need none of the dependencies (and bin/cli.ts checks the
// Node version before anything loads them).
async function loadDomain() {
  const modules = await Promise.all([
    import('../src/errors/appError.ts'),
    import('../src/errors/localize.ts'),
    import('../src/ids.ts'),
    import('../src/access/scopes.ts'),
    import('../src/access/apiKeys.ts'),
    import('../src/workspaces/workspaces.ts'),
    import('../src/workspaces/plans.ts'),
    import('../src/accounts/socialAccounts.ts'),
    import('../src/accounts/connect.ts'),
  ]);
  return Object.assign({}, ...modules) as (typeof modules)[0] &
    (typeof modules)[1] &
    (typeof modules)[2] &
    (typeof modules)[3] &
    (typeof modules)[4] &
    (typeof modules)[5] &
    (typeof modules)[6] &
    (typeof modules)[7] &
    (typeof modules)[8];
}
type Domain = Awaited<ReturnType<typeof loadDomain>>;

/** The parsed options, read as the command needs them: a missing or malformed one is a UsageError. */
class Options {
  constructor(
    readonly values: Values,
    private readonly domain: Domain,
  ) {}

  required(name: keyof Values): string {
    const value = this.values[name];
    if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
    return value;
  }

  id(name: 'workspace' | 'user' | 'key' | 'connection'): string {
    const value = this.required(name);
    if (!this.domain.isUuid(value)) throw new UsageError(`--${name} must be an id (UUID), got "${value}"`);
    return value;
  }

  role() {
    const value = this.required('role');
    if (!this.domain.isRole(value)) throw new UsageError(`--role must be owner, admin, editor or viewer, got "${value}"`);
    return value;
  }

  date(name: 'expires' | 'token-expires'): Date | undefined {
    const value = this.values[name];
    if (value === undefined) return undefined;
    const parsed = new Date(value);
    if (Number.isNaN(parsed.getTime())) throw new UsageError(`--${name} must be an ISO 8601 date, got "${value}"`);
    return parsed;
  }

  plan() {
    const value = this.required('plan');
    if (!this.domain.isPlanName(value)) throw new UsageError(`--plan must be free, pro or business, got "${value}"`);
    return value;
  }
}

type Command = (options: Options, services: Services, domain: Domain) => Promise<{ result: Record<string, unknown>; text: string }>;

const commands: Record<string, Command> = {
  setup: async (o, { db }, { setupWorkspace }) => {
    const result = await setupWorkspace(db, {
      name: o.required('workspace'),
      email: o.required('email'),
      password: o.values.password,
      plan: o.values.plan ? o.plan() : undefined,
    });
    const key = result.apiKey ? `\nAPI key (shown once): ${result.apiKey}` : '\nNo API key: the plan has no API access.';
    return { result: { ...result }, text: `workspace ${result.workspaceId}, owner ${result.userId}${key}` };
  },
  'users add': async (o, { db }, { addUser }) => {
    const result = await addUser(db, { workspaceId: o.id('workspace'), email: o.required('email'), role: o.role(), password: o.values.password });
    return { result, text: `user ${result.userId}` };
  },
  'users set-role': async (o, { db }, { setUserRole }) => {
    await setUserRole(db, { workspaceId: o.id('workspace'), userId: o.id('user'), role: o.role() });
    return { result: { ok: true }, text: 'role changed' };
  },
  'users remove': async (o, { db }, { removeUser }) => {
    await removeUser(db, { workspaceId: o.id('workspace'), userId: o.id('user') });
    return { result: { ok: true }, text: 'user removed; their keys in this workspace are revoked' };
  },
  'keys create': async (o, { db }, { createApiKey, scopePresets }) => {
    const { scopes, preset } = o.values;
    if (scopes && preset) throw new UsageError('give --scopes or --preset, not both');
    if (preset && !Object.hasOwn(scopePresets, preset)) throw new UsageError(`--preset must be read-only or publishing`);
    const result = await createApiKey(db, {
      workspaceId: o.id('workspace'),
      userId: o.id('user'),
      scopes: scopes
        ?.split(',')
        .map((scope) => scope.trim())
        .filter(Boolean),
      preset: (preset as ScopePreset | undefined) ?? (scopes ? undefined : 'publishing'),
      expiresAt: o.date('expires'),
      name: o.values.name,
    });
    return { result, text: `key ${result.keyId}\nAPI key (shown once): ${result.apiKey}` };
  },
  'keys revoke': async (o, { db }, { revokeApiKey }) => {
    await revokeApiKey(db, o.id('key'));
    return { result: { ok: true }, text: 'key revoked' };
  },
  'keys list': async (o, { db }, { listApiKeys }) => {
    const keys = await listApiKeys(db, o.id('workspace'));
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
  'accounts connect': async (o, { db, secrets, adapters, outbox }, { connectSocialAccount }) => {
    const accessToken = o.values['access-token'];
    const result = await connectSocialAccount(db, secrets, adapters, outbox, {
      workspaceId: o.id('workspace'),
      provider: o.required('provider'),
      username: o.required('username'),
      displayName: o.values['display-name'],
      remoteId: o.values['remote-id'],
      tokens: accessToken
        ? {
            accessToken,
            refreshToken: o.values['refresh-token'],
            expiresAt: o.date('token-expires')?.toISOString(),
            extra: o.values['instance-url'] ? { instanceUrl: o.values['instance-url'] } : undefined,
          }
        : undefined,
    });
    return { result, text: `connection ${result.connectionId}` };
  },
  'accounts revoke': async (o, { db, outbox, connections }, { disconnectAccount }) => {
    await disconnectAccount(db, outbox, connections, o.id('connection'));
    return { result: { ok: true }, text: 'connection revoked' };
  },
  'accounts refresh': async (o, { tokens }) => {
    const refreshed = await tokens.refreshAccount(o.id('connection'), { force: o.values.force });
    const text = refreshed.status === 'rejected' ? `the network refused the tokens: ${refreshed.reason}` : `tokens ${refreshed.status}`;
    return { result: { status: refreshed.status }, text };
  },
  'plans set': async (o, { db }, { setPlan }) => {
    const credits = o.values['ai-credits'];
    if (credits !== undefined && !/^\d+$/.test(credits)) throw new UsageError('--ai-credits must be a whole number');
    await setPlan(db, {
      workspaceId: o.id('workspace'),
      plan: o.plan(),
      aiCredits: credits === undefined ? undefined : Number(credits),
      expired: o.values.expired,
    });
    return { result: { ok: true }, text: 'plan set' };
  },
};

/** Reads the arguments (without node and the script): the command to run, or the answer to --help and wrong usage. */
export function readInvocation(args: string[]): Invocation | Answer {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    return { exitCode: 2, stdout: '', stderr: `${(error as Error).message}\n\n${usage}` };
  }
  const { values, positionals } = parsed;
  const name = positionals[0] === 'setup' ? 'setup' : positionals.slice(0, 2).join(' ');
  const command = commands[name];
  if (values.help) return { exitCode: 0, stdout: '', stderr: usage };
  if (!command) return { exitCode: 2, stdout: '', stderr: `${name ? `unknown command "${name}"\n` : ''}\n${usage}` };

  const failure = (error: LocalizedError, exitCode: 1 | 2): Answer => {
    if (values.json) return { exitCode, stdout: JSON.stringify({ error }), stderr: '' };
    const stderr = error.details?.length
      ? error.details.map((d) => `${Object.hasOwn(values, d.field) ? `--${d.field}` : d.field}: ${d.message}`).join('\n')
      : error.message;
    return { exitCode, stdout: '', stderr };
  };
  const failed = async (error: unknown): Promise<Answer> => {
    const { AppError, localizeError } = await loadDomain();
    if (error instanceof UsageError) return failure({ code: 'USAGE', message: `${error.message}\n\n${usage}` }, 2);
    if (error instanceof AppError) return failure(localizeError(error, 'en'), 1);
    return failure({ code: 'INTERNAL', message: String((error as Error)?.stack ?? error) }, 1);
  };
  return {
    json: values.json,
    failed,
    async run(services) {
      try {
        const domain = await loadDomain();
        const { result, text } = await command(new Options(values, domain), services, domain);
        return { exitCode: 0, stdout: values.json ? JSON.stringify(result) : text, stderr: '' };
      } catch (error) {
        return failed(error);
      }
    },
  };
}
