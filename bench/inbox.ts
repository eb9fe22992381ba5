// Section `inbox`: what one inbox poll costs per account. One Mastodon account (the Mastodon stand-in,
// test/support/mastodon.ts) with 20 posts published in the lookback, each with 5 comments by another person; polled
// once with everything new, then again with nothing new, then with one new comment. Counts the SQL statements the poll
// sends (through the service's pool) and its calls to the network, and times each poll.
import type pg from 'pg';
import { connectSocialAccount } from '../src/accounts/socialAccounts.ts';
import { pollInbox, type CollectionDeps } from '../src/inbox/collect.ts';
import { MastodonStandIn } from '../test/support/mastodon.ts';
import { benchRuntime, benchWorkspace, type Bench } from './support.ts';
import type { Services } from '../src/runtime.ts';

const posts = 20;
const commentsPerPost = 5;

/**
 * Counts the statements sent through the pool: its own queries, and those on clients it hands out to callers (the
 * quota charge's transaction). pool.query takes its client through connect(callback), which is left as it is.
 */
export function countStatements(pool: pg.Pool): { read(): number } {
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

export async function inbox(bench: Bench): Promise<void> {
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
    const statusIds: string[] = [];
    for (let i = 0; i < posts; i++) {
      const id = await write(aliceToken, `Post ${i}`);
      statusIds.push(id);
      for (let j = 0; j < commentsPerPost; j++) await write(bob, `Comment ${j} on post ${i}`, id);
    }
    await publishedTargets(services, workspaceId, connectionId, 'feed', statusIds);
    const poll = pollMeter(services, connectionId, () => instance.requests.length, posts);
    await poll('first poll (all new)');
    await poll('next poll (nothing new)');
    await write(bob, 'One more', statusIds[0]);
    await poll('next poll (one new comment)');
  } finally {
    await runtime.stop();
    await instance.stop();
  }
}

/** The posts as publishing records them: published targets of the account at `placement`, with the network's ids. */
export async function publishedTargets(services: Services, workspaceId: string, connectionId: string, placement: string, remoteIds: string[]): Promise<void> {
  await services.db.pool.query(
    `WITH p AS (
       INSERT INTO post (id, workspace_id, created_by_id, caption, status, published_at, updated_at)
       SELECT gen_random_uuid(), $1, (SELECT user_id FROM membership WHERE workspace_id = $1 LIMIT 1), 'Post ' || n, 'published', now(), now()
       FROM generate_series(1, $3::int) n RETURNING id)
     INSERT INTO post_target (id, post_id, connection_id, placement, position, status, remote_id, published_at)
     SELECT gen_random_uuid(), p.id, $2, $5, 0, 'published', r.remote_id, now()
     FROM (SELECT id, row_number() OVER () AS n FROM p) p JOIN unnest($4::text[]) WITH ORDINALITY AS r(remote_id, n) ON r.n = p.n`,
    [workspaceId, connectionId, remoteIds.length, remoteIds, placement],
  );
}

/**
 * A poll of the account, printed with its statements, its network calls and its time. `networkCalls` counts the calls
 * the stand-in answered so far; where the network keeps no count (a real PDS), the poll's own count is printed.
 */
export function pollMeter(services: Services, connectionId: string, networkCalls: (() => number) | undefined, posts: number): (label: string) => Promise<void> {
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
  return async (label) => {
    const [sql, calls, began] = [statements.read(), networkCalls?.(), performance.now()];
    const result = await pollInbox(deps, connectionId, new Date());
    const ms = performance.now() - began;
    if (result.status !== 'polled') throw new Error(`the poll was skipped: ${result.reason}`);
    console.log(
      `${label.padEnd(28)} ${String(result.collected).padStart(4)} collected: ${statements.read() - sql} statements, ${networkCalls && calls !== undefined ? networkCalls() - calls : result.calls} network calls (${posts} posts), ${ms.toFixed(0)} ms`,
    );
  };
}
