// Section `inbox`: what one inbox poll costs per account. One Mastodon account (the Mastodon stand-in,
// test/support/mastodon.ts) with 20 posts published in the lookback, each with 5 comments by another person; polled
// once with everything new, then again with nothing new, then with one new comment. Then the same for one LinkedIn
// page (test/support/linkedin.ts), one of each post's comments with a comment nested under it. Counts the SQL
// statements the poll sends (through the service's pool) and its calls to the network, and times each poll.
import type pg from 'pg';
import { connectSocialAccount } from '../src/accounts/socialAccounts.ts';
import { pollInbox, type CollectionDeps } from '../src/inbox/collect.ts';
import { LinkedInStandIn } from '../test/support/linkedin.ts';
import { MastodonStandIn } from '../test/support/mastodon.ts';
import { benchRuntime, benchWorkspace, type Bench } from './support.ts';

type Services = Awaited<ReturnType<typeof benchRuntime>>['services'];

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

export async function inbox(bench: Bench): Promise<void> {
  await mastodonPolls(bench);
  await linkedinPolls(bench);
}

/** Records `remoteIds` as the account's posts, as publishing records them: published targets with the network's ids. */
async function recordPublished(services: Services, workspaceId: string, connectionId: string, remoteIds: string[]): Promise<void> {
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
}

/** Polls the account now and prints what the poll cost: statements, the network's calls (`requests()` counts them), time. */
function pollMeter(services: Services, connectionId: string, requests: () => number) {
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
  return async (label: string) => {
    const [sql, calls, began] = [statements.read(), requests(), performance.now()];
    const result = await pollInbox(deps, connectionId, new Date());
    const ms = performance.now() - began;
    if (result.status !== 'polled') throw new Error(`the poll was skipped: ${result.reason}`);
    console.log(
      `${label.padEnd(28)} ${String(result.collected).padStart(4)} collected: ${statements.read() - sql} statements, ${requests() - calls} network calls (${posts} posts), ${ms.toFixed(0)} ms`,
    );
  };
}

async function mastodonPolls(bench: Bench): Promise<void> {
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
    await recordPublished(services, workspaceId, connectionId, statusIds);
    const poll = pollMeter(services, connectionId, () => instance.requests.length);
    console.log('Mastodon account');
    await poll('first poll (all new)');
    await poll('next poll (nothing new)');
    await write(bob, 'One more', statusIds[0]);
    await poll('next poll (one new comment)');
  } finally {
    await runtime.stop();
    await instance.stop();
  }
}

async function linkedinPolls(bench: Bench): Promise<void> {
  const callback = 'https://publisher.example/oauth/callback/linkedin';
  const linkedin = await LinkedInStandIn.start({ redirectUris: [callback], products: 'community-management' });
  linkedin.signInAs({ id: 'bob', name: 'Bob Baker', username: 'bob@example.test' });
  const bobToken = await linkedin.accessToken(callback);
  const bakery = { id: '5515715', localizedName: 'Moreau Bakery', vanityName: 'moreau-bakery' };
  linkedin.signInAs({ id: 'alice', name: 'Alice Moreau', username: 'alice@example.test' }, [bakery]);
  const aliceToken = await linkedin.accessToken(callback);
  const runtime = await benchRuntime({
    ...bench.serviceEnv,
    ...linkedin.appSettings,
    LINKEDIN_PRODUCTS: 'community-management',
  });
  try {
    const { services } = runtime;
    const { workspaceId } = await benchWorkspace(services, 'inbox-linkedin');
    const page = `urn:li:organization:${bakery.id}`;
    const { connectionId } = await connectSocialAccount(services.db, services.secrets, services.adapters, services.outbox, {
      workspaceId,
      provider: 'linkedin',
      username: bakery.vanityName,
      remoteId: page,
      tokens: { accessToken: aliceToken },
    });
    const call = async (token: string, path: string, body: unknown) => {
      const response = await fetch(`${linkedin.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'linkedin-version': '202610', 'x-restli-protocol-version': '2.0.0' },
        body: JSON.stringify(body),
      });
      return response;
    };
    const comment = async (post: string, text: string, parent?: string) =>
      (
        (await (
          await call(bobToken, `/rest/socialActions/${encodeURIComponent(parent ?? post)}/comments`, {
            actor: 'urn:li:person:bob',
            object: post,
            message: { text },
            ...(parent ? { parentComment: parent } : {}),
          })
        ).json()) as { commentUrn: string }
      ).commentUrn;
    const urns: string[] = [];
    for (let i = 0; i < posts; i++) {
      const created = await call(aliceToken, '/rest/posts', {
        author: page,
        commentary: `Post ${i}`,
        visibility: 'PUBLIC',
        distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
        lifecycleState: 'PUBLISHED',
      });
      const urn = created.headers.get('x-restli-id')!;
      urns.push(urn);
      const first = await comment(urn, `Comment 0 on post ${i}`);
      await comment(urn, `Answer to comment 0 on post ${i}`, first);
      for (let j = 1; j < commentsPerPost; j++) await comment(urn, `Comment ${j} on post ${i}`);
    }
    await recordPublished(services, workspaceId, connectionId, urns);
    const poll = pollMeter(services, connectionId, () => linkedin.requests.length);
    console.log('LinkedIn page (one nested comment a post)');
    await poll('first poll (all new)');
    await poll('next poll (nothing new)');
    await comment(urns[0]!, 'One more');
    await poll('next poll (one new comment)');
  } finally {
    await runtime.stop();
    await linkedin.stop();
  }
}
