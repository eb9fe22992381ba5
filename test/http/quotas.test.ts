// A network's quotas (src/providers/kit/quotas.ts): charged in PostgreSQL by every process, all of a network's
// quotas or none, and a target past one waits for the next window (waitingUntil, waitingReason in REST and GraphQL)
// instead of failing. The sandbox's quota (SANDBOX_QUOTA) shows it end to end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { bearer, connectSandbox, createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { waitForPost, type Api } from '../support/posts.ts';
import { chargeQuotas, quotaExceededBy, quotasFor, type Quota } from '../../src/providers/kit/quotas.ts';
import { withPoolTransaction } from '../../src/db/database.ts';

let service: TestService;
let acme: TestWorkspace;
let api: Api;

beforeAll(async () => {
  ({ service, acme, api } = await serviceWithWorkspace({ SANDBOX_QUOTA: '1/3' }));
});
afterAll(() => service.stop());

const quota = (fields: Partial<Quota>): Quota => ({ name: 'test', scope: 'account', windowSeconds: 3600, limit: 2, costPerPublish: 1, ...fields });
const charge = (network: string, quotas: Quota[], accountId: string, replies = 0) =>
  withPoolTransaction(service.services.db.pool, (client) => chargeQuotas(client, network, quotas, accountId, replies));

describe('charging quotas', () => {
  it('charges until the limit, then answers when to ask again: at the next of the window’s twelve buckets', async () => {
    const network = `net-${randomUUID()}`;
    const hourly = quota({});
    expect(await charge(network, [hourly], 'a')).toBeNull();
    expect(await charge(network, [hourly], 'a')).toBeNull();
    const wait = await charge(network, [hourly], 'a');
    expect(wait!.until.getTime() % 300_000).toBe(0);
    expect(wait!.until.getTime()).toBeGreaterThan(Date.now());
    expect(wait!.until.getTime() - Date.now()).toBeLessThanOrEqual(300_000);
    expect(wait!.reason).toContain('test');
    // Per account: another account has its own count; a per-app quota counts every account.
    expect(await charge(network, [hourly], 'b')).toBeNull();
  });

  it('counts over a moving window, as networks do: use late in the last fixed window still counts', async () => {
    const network = `net-${randomUUID()}`;
    const perMinute = quota({ windowSeconds: 60, limit: 2 });
    // Two publishes 50 s ago: in a fixed minute they may belong to the minute before; a moving minute holds them.
    await service.services.db.pool.query(
      `INSERT INTO network_quota_usage (network, quota, scope, window_start, used)
       VALUES ($1, 'test', 'a', to_timestamp(floor(extract(epoch FROM now() - interval '50 seconds') / 5) * 5), 2)`,
      [network],
    );
    expect(await charge(network, [perMinute], 'a')).toMatchObject({ reason: expect.stringContaining('test') });
  });

  it('charges every quota of a network or none', async () => {
    const network = `net-${randomUUID()}`;
    const perAccount = quota({ name: 'posts', limit: 5 });
    const perApp = quota({ name: 'units', scope: 'app', limit: 1600 * 2, costPerPublish: 1600 });
    expect(await charge(network, [perAccount, perApp], 'a')).toBeNull();
    expect(await charge(network, [perAccount, perApp], 'b')).toBeNull();
    expect(await charge(network, [perAccount, perApp], 'c')).toMatchObject({ reason: expect.stringContaining('units') });
    const { rows } = await service.services.db.pool.query('SELECT quota, scope, used FROM network_quota_usage WHERE network = $1 ORDER BY quota, scope', [
      network,
    ]);
    // The refused third publish left the per-account count of `c` untouched.
    expect(rows).toEqual([
      { quota: 'posts', scope: 'a', used: 1 },
      { quota: 'posts', scope: 'b', used: 1 },
      { quota: 'units', scope: 'app', used: 3200 },
    ]);
  });

  it('charges a thread’s replies at the quota’s cost per reply, and refuses for good a publish no window could hold', async () => {
    const network = `net-${randomUUID()}`;
    const posts = quota({ name: 'posts', limit: 4, costPerReply: 1 });
    const replies = quota({ name: 'replies', limit: 10, costPerPublish: 0, costPerReply: 1 });
    // A post with two replies and one without: 3 + 1 posts, 2 replies.
    expect(await charge(network, [posts, replies], 'a', 2)).toBeNull();
    expect(await charge(network, [posts, replies], 'a', 0)).toBeNull();
    expect(await charge(network, [posts, replies], 'a', 0)).toMatchObject({ reason: expect.stringContaining('posts') });
    const { rows } = await service.services.db.pool.query('SELECT quota, used FROM network_quota_usage WHERE network = $1 ORDER BY quota', [network]);
    expect(rows).toEqual([
      { quota: 'posts', used: 4 },
      { quota: 'replies', used: 2 },
    ]);
    expect(quotaExceededBy([posts, replies], 3)).toBeNull();
    expect(quotaExceededBy([posts, replies], 4)).toBe(posts);
  });

  /** A workspace of its own, with an account of `network` in `status` (none where null). */
  const workspaceWith = async (network: string, status: string | null = 'ACTIVE') => {
    const { workspaceId } = await createWorkspace(service.services);
    if (status) {
      await service.services.db.prisma.socialAccount.create({ data: { workspaceId, provider: network, username: 'someone', displayName: 'Someone', status } });
    }
    return workspaceId;
  };
  const appQuotaCharge = (network: string, uploads: Quota) => (accountId: string, workspaceId: string) =>
    withPoolTransaction(service.services.db.pool, (client) => chargeQuotas(client, network, [uploads], accountId, 0, workspaceId));

  it('keeps each workspace to its share of an app-wide quota while others have the network, so that one using it up leaves the others theirs', async () => {
    const network = `net-${randomUUID()}`;
    const inWorkspace = appQuotaCharge(network, quota({ name: 'uploads', scope: 'app', limit: 4, workspaceShare: 50 }));
    const [a, b, c] = [await workspaceWith(network), await workspaceWith(network), await workspaceWith(network)];
    expect(await inWorkspace('a1', a)).toBeNull();
    expect(await inWorkspace('a2', a)).toBeNull();
    // Workspace A has used its half, whichever of its accounts asks: B still has its own.
    expect(await inWorkspace('a3', a)).toMatchObject({ reason: expect.stringContaining('this workspace has used its 50% (2 of 4) of uploads') });
    expect(await inWorkspace('b1', b)).toBeNull();
    expect(await inWorkspace('b2', b)).toBeNull();
    // And the app's whole limit still holds.
    expect(await inWorkspace('c1', c)).toMatchObject({ reason: expect.stringContaining('Quota used up: uploads') });
    // A publish costing more than a workspace's share could never go out.
    expect(quotaExceededBy([quota({ name: 'units', scope: 'app', limit: 10, costPerPublish: 6, workspaceShare: 50 })], 0)).not.toBeNull();
  });

  it('lets a workspace alone with the network use the whole app-wide quota, and counts that use once another connects it', async () => {
    const network = `net-${randomUUID()}`;
    const inWorkspace = appQuotaCharge(network, quota({ name: 'uploads', scope: 'app', limit: 4, workspaceShare: 50 }));
    // A disconnected account elsewhere shares nothing.
    const [alone] = [await workspaceWith(network), await workspaceWith(network, 'REVOKED')];
    for (const account of ['a1', 'a2', 'a3', 'a4']) expect(await inWorkspace(account, alone!)).toBeNull();
    expect(await inWorkspace('a5', alone!)).toMatchObject({ reason: expect.stringContaining('Quota used up: uploads') });

    // Another workspace connects a network the first has used three of four of: that is more than the first one's share.
    const shared = `net-${randomUUID()}`;
    const inShared = appQuotaCharge(shared, quota({ name: 'uploads', scope: 'app', limit: 4, workspaceShare: 50 }));
    const first = await workspaceWith(shared);
    for (const account of ['f1', 'f2', 'f3']) expect(await inShared(account, first)).toBeNull();
    const other = await workspaceWith(shared);
    expect(await inShared('f4', first)).toMatchObject({ reason: expect.stringContaining('this workspace has used its 50% (2 of 4) of uploads') });
    expect(await inShared('o1', other)).toBeNull();
  });

  it('counts a quota of some placements only for publishes to them (Facebook’s reels)', () => {
    const reels = quota({ name: 'reels', placements: ['reel'] });
    const posts = quota({ name: 'posts' });
    expect(quotasFor([reels, posts], 'reel')).toEqual([reels, posts]);
    expect(quotasFor([reels, posts], 'feed')).toEqual([posts]);
  });

  it('never lets processes charging at once exceed the limit', async () => {
    const network = `net-${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 12 }, () => charge(network, [quota({ limit: 5 })], 'a')));
    expect(results.filter((result) => result === null)).toHaveLength(5);
  });
});

describe('a target past its network’s quota', () => {
  it('waits until the window has room, showing when and why in REST and GraphQL, then publishes once', async () => {
    const account = await connectSandbox(service.services, acme.workspaceId);
    const ids: string[] = [];
    for (const caption of ['First in the window', 'Second in the window']) {
      const created = await api('POST', '/posts', { content: { caption }, targets: [{ connectionId: account, placement: 'feed' }] });
      expect((await api('POST', `/posts/${created.body.data.id}/publish`)).status).toBe(202);
      ids.push(created.body.data.id);
    }
    // The quota is 1 post per 3 s: one of the two goes out now, the other waits until 3 s have passed.
    let waiting: { postId: string; target: any } | null = null;
    for (let i = 0; i < 100 && !waiting; i++) {
      for (const id of ids) {
        const { body } = await api('GET', `/posts/${id}`);
        if (body.data.targets[0].waitingUntil) waiting = { postId: id, target: body.data.targets[0] };
      }
      if (!waiting) await sleep(20);
    }
    expect(waiting, 'a target waiting').not.toBeNull();
    expect(waiting!.target).toMatchObject({ status: expect.stringMatching(/pending|publishing/), attempts: 0, error: null });
    expect(waiting!.target.waitingReason).toContain('SANDBOX_QUOTA');
    expect(Date.parse(waiting!.target.waitingUntil) % 1000).toBe(0);

    const graph = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(acme.ownerKey) },
      body: JSON.stringify({ query: 'query ($id: ID!) { post(id: $id) { targets { waitingUntil waitingReason } } }', variables: { id: waiting!.postId } }),
    }).then((response) => response.json());
    // The same wait, or (on a loaded machine, the window's next bucket passed between the two reads) a later one.
    const shown = graph.data.post.targets[0];
    expect(shown.waitingReason).toBe(waiting!.target.waitingReason);
    expect(Date.parse(shown.waitingUntil)).toBeGreaterThanOrEqual(Date.parse(waiting!.target.waitingUntil));

    for (const id of ids) {
      const post = await waitForPost(api, id, ['published', 'failed'], 15_000);
      expect(post.targets[0]).toMatchObject({ status: 'published', attempts: 1, waitingUntil: null, waitingReason: null });
      expect(await service.services.db.prisma.sandboxItem.count({ where: { idempotencyKey: post.targets[0].id } })).toBe(1);
    }
    const publishedAt = await Promise.all(ids.map(async (id) => Date.parse((await api('GET', `/posts/${id}`)).body.data.targets[0].publishedAt)));
    expect(Math.max(...publishedAt)).toBeGreaterThanOrEqual(Date.parse(waiting!.target.waitingUntil));
    // Never two within any 3 s.
    expect(Math.max(...publishedAt) - Math.min(...publishedAt)).toBeGreaterThanOrEqual(2900);
  });
});
