// Section `inbox`: what one inbox poll costs per account, for a Mastodon account (the Mastodon stand-in,
// test/support/mastodon.ts) and an X account (the X stand-in, test/support/x.ts): each with 20 posts published in
// the lookback, each with 5 comments by another person; polled once with everything new, then again with nothing new,
// then with one new comment. Counts the SQL statements the poll sends (through the service's pool) and its calls to
// the network, and times each poll.
import type pg from 'pg';
import { connectSocialAccount } from '../src/accounts/socialAccounts.ts';
import { pollInbox, type CollectionDeps } from '../src/inbox/collect.ts';
import type { Services } from '../src/runtime.ts';
import { MastodonStandIn } from '../test/support/mastodon.ts';
import { XStandIn } from '../test/support/x.ts';
import { benchRuntime, benchWorkspace, type Bench } from './support.ts';

const posts = 20;
const commentsPerPost = 5;

/**
 * Counts the statements sent through the pool: its own queries, and those on clients it hands out to callers (the
 * quota charge's transaction). pool.query takes its client through connect(callback), which is left as it is.
 */
function countStatements(pool: pg.Pool): { read(): number } {
  let count = 0;
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as { query: unknown }).query = (...args: unknown[]) => {
    count++;
    return query(...args);
  };
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  const counted = new WeakSet<pg.PoolClient>();
  (pool as { connect: unknown }).connect = (...args: unknown[]) => {
    if (args.length) return connect(...args);
    return (connect() as Promise<pg.PoolClient>).then((client) => {
      // A pooled client comes back again: counted once.
      if (counted.has(client)) return client;
      counted.add(client);
      const clientQuery = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as { query: unknown }).query = (...queryArgs: unknown[]) => {
        count++;
        return clientQuery(...queryArgs);
      };
      return client;
    });
  };
  return { read: () => count };
}

/** The account to measure: its connection, its published posts' remote ids, and how to count and add comments. */
interface MeasuredAccount {
  network: string;
  workspaceId: string;
  connectionId: string;
  remoteIds: string[];
  /** Calls the network has answered so far. */
  calls(): number;
  comment(onRemoteId: string, text: string): Promise<unknown>;
}

/** Records the posts as publishing does (published targets with their remote ids), then measures three polls. */
async function measurePolls(services: Services, account: MeasuredAccount): Promise<void> {
  const { workspaceId, connectionId, remoteIds } = account;
  await services.db.pool.query(
    `WITH p AS (
       INSERT INTO post (id, workspace_id, created_by_id, caption, status, published_at, updated_at)
       SELECT gen_random_uuid(), $1, (SELECT user_id FROM membership WHERE workspace_id = $1 LIMIT 1), 'Post ' || n, 'published', now(), now()
       FROM generate_series(1, $3::int) n RETURNING id)
     INSERT INTO post_target (id, post_id, connection_id, placement, position, status, remote_id, published_at)
     SELECT gen_random_uuid(), p.id, $2, 'feed', 0, 'published', r.remote_id, now()
     FROM (SELECT id, row_number() OVER () AS n FROM p) p JOIN unnest($4::text[]) WITH ORDINALITY AS r(remote_id, n) ON r.n = p.n`,
    [workspaceId, connectionId, remoteIds.length, remoteIds],
  );
  const deps: CollectionDeps = {
    db: services.db,
    secrets: services.secrets,
    tokens: services.tokens,
    adapters: services.adapters,
    inboxes: services.inboxes,
    logger: services.logger,
    settings: services.config.inbox,
    linkHosts: services.connections.allowedHosts,
  };
  const statements = countStatements(services.db.pool);
  const poll = async (label: string) => {
    const [sql, calls, began] = [statements.read(), account.calls(), performance.now()];
    const result = await pollInbox(deps, connectionId, new Date());
    const ms = performance.now() - began;
    if (result.status !== 'polled') throw new Error(`the poll was skipped: ${result.reason}`);
    console.log(
      `${`${account.network}: ${label}`.padEnd(38)} ${String(result.collected).padStart(4)} collected: ${statements.read() - sql} statements, ${account.calls() - calls} network calls (${remoteIds.length} posts), ${ms.toFixed(0)} ms`,
    );
  };
  await poll('first poll (all new)');
  await poll('next poll (nothing new)');
  await account.comment(remoteIds[0]!, 'One more');
  await poll('next poll (one new comment)');
}

export async function inbox(bench: Bench): Promise<void> {
  await mastodonInbox(bench);
  await xInbox(bench);
}

async function mastodonInbox(bench: Bench): Promise<void> {
  const instance = await MastodonStandIn.start();
  const runtime = await benchRuntime({ ...bench.serviceEnv, NETWORK_ALLOWED_HOSTS: '127.0.0.1' });
  try {
    const { services } = runtime;
    const { workspaceId } = await benchWorkspace(services, 'inbox');
    const host = new URL(instance.url).host;
    const aliceToken = instance.issueToken();
    const { connectionId } = await connectSocialAccount(services.db, services.secrets, services.adapters, services.outbox, {
      workspaceId,
      provider: 'mastodon',
      username: `alice@${host}`,
      remoteId: `${instance.signedIn.id}@${host}`,
      tokens: { accessToken: aliceToken, extra: { instanceUrl: instance.url } },
    });
    const bob = instance.issueToken(instance.addAccount('bob', 'Bob'));
    const write = async (token: string, text: string, inReplyTo?: string) => {
      const response = await fetch(`${instance.url}/api/v1/statuses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ status: text, ...(inReplyTo ? { in_reply_to_id: inReplyTo } : {}) }),
      });
      return ((await response.json()) as { id: string }).id;
    };
    const remoteIds: string[] = [];
    for (let i = 0; i < posts; i++) {
      const id = await write(aliceToken, `Post ${i}`);
      remoteIds.push(id);
      for (let j = 0; j < commentsPerPost; j++) await write(bob, `Comment ${j} on post ${i}`, id);
    }
    const calls = () => instance.requests.length;
    await measurePolls(services, { network: 'mastodon', workspaceId, connectionId, remoteIds, calls, comment: (on, text) => write(bob, text, on) });
  } finally {
    await runtime.stop();
    await instance.stop();
  }
}

/** X: one recent search per post (Pro's 300 a 15 minutes, so three polls of 20 posts fit the polls' share). */
async function xInbox(bench: Bench): Promise<void> {
  const redirectUri = 'https://sps.example.test/oauth/callback/x';
  const x = await XStandIn.start([redirectUri]);
  const runtime = await benchRuntime({ ...bench.serviceEnv, PUBLIC_BASE_URL: 'https://sps.example.test', ...x.settings(), X_API_TIER: 'pro' });
  try {
    const { services } = runtime;
    const { workspaceId } = await benchWorkspace(services, 'inbox-x');
    x.oauth.user = { id: '6100002', name: 'Bob', username: 'bob' };
    const bob = (await x.authorize(redirectUri)).access_token;
    x.oauth.user = { id: '6100001', name: 'Alice', username: 'alice' };
    const alice = await x.authorize(redirectUri);
    const { connectionId } = await connectSocialAccount(services.db, services.secrets, services.adapters, services.outbox, {
      workspaceId,
      provider: 'x',
      username: 'alice',
      remoteId: '6100001',
      tokens: { accessToken: alice.access_token, refreshToken: alice.refresh_token },
    });
    const write = async (token: string, text: string, inReplyTo?: string) => {
      const response = await fetch(`${x.url}/2/tweets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text, ...(inReplyTo ? { reply: { in_reply_to_tweet_id: inReplyTo } } : {}) }),
      });
      return ((await response.json()) as { data: { id: string } }).data.id;
    };
    const remoteIds: string[] = [];
    for (let i = 0; i < posts; i++) {
      const id = await write(alice.access_token, `Post ${i}`);
      remoteIds.push(id);
      for (let j = 0; j < commentsPerPost; j++) await write(bob, `Comment ${j} on post ${i}`, id);
    }
    const calls = () => x.calls.filter((call) => call.route === 'search').length;
    await measurePolls(services, { network: 'x', workspaceId, connectionId, remoteIds, calls, comment: (on, text) => write(bob, text, on) });
  } finally {
    await runtime.stop();
    await x.stop();
  }
}
