// Analytics: metrics read from the networks' adapters on a decaying schedule after publishing, summed per day,
// network, account and post, with totals, as JSON and as CSV, checked against figures computed by hand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { connectSandbox, createWorkspace, keyFor, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { readMetrics } from '../../src/analytics/collect.ts';
import { zeroMetrics } from '../../src/analytics/metrics.ts';
import { setTimeout as sleep } from 'node:timers/promises';

let service: TestService;
let acme: TestWorkspace;
let api: Api;

beforeAll(async () => ({ service, acme, api } = await serviceWithWorkspace()));
afterAll(() => service.stop());

const read = (targetId: string, now: Date) =>
  readMetrics(
    { db: service.services.db, adapters: service.services.adapters, secrets: service.services.secrets, logger: service.services.logger },
    [targetId],
    now,
  );

async function publishMeasured(caption: string) {
  const account = await connectSandbox(service.services, acme.workspaceId);
  const post = (await api('POST', '/posts', { content: { caption }, targets: [{ connectionId: account, placement: 'feed' }] })).body.data;
  await api('POST', `/posts/${post.id}/publish`);
  const published = await waitForPost(api, post.id, ['published']);
  const sandbox = service.services.adapters.get('sandbox')!;
  const networkFigures = await sandbox.metrics(
    { id: account, provider: 'sandbox', username: 'x', remoteId: null, tokens: null },
    published.targets[0].remoteId,
  );
  return { post: published, target: published.targets[0], networkFigures: { ...zeroMetrics(), ...networkFigures } };
}

const dayOf = (time: Date) => time.toISOString().slice(0, 10);

async function postRow(postId: string, from: Date, to = from) {
  const { body } = await api('GET', `/analytics?from=${dayOf(from)}&to=${dayOf(to)}&groupBy=post`);
  return body.data.rows.find((row: { key: string }) => row.key === postId);
}

/** The read-metrics jobs queued for a target, in order, with how long after publishing each is due (seconds). */
async function readingsOf(targetId: string, publishedAt: string) {
  const { rows } = await service.services.db.pool.query<{ reading: number; state: string; start_after: Date }>(
    `SELECT (data->>'reading')::int AS reading, state, start_after FROM pgboss.job WHERE name = 'read-metrics' AND data->>'targetId' = $1 ORDER BY 1`,
    [targetId],
  );
  return rows.map((row) => ({ reading: row.reading, state: row.state, dueAfter: Math.round((row.start_after.getTime() - Date.parse(publishedAt)) / 1000) }));
}

describe('reading metrics from the sandbox network', () => {
  it('shows a post published just now with zeros, then the network’s figures after its first reading, minutes later', async () => {
    const { post, target, networkFigures } = await publishMeasured('Measured at once');
    expect((await postRow(post.id, new Date(target.publishedAt))).metrics).toEqual(zeroMetrics());
    expect(await readingsOf(target.id, target.publishedAt)).toEqual([{ reading: 0, state: 'created', dueAfter: 120 }]);

    // Two minutes pass: the first reading is due, and the next one an hour after publishing.
    await service.services.db.pool.query(`UPDATE pgboss.job SET start_after = now() WHERE name = 'read-metrics' AND data->>'targetId' = $1`, [target.id]);
    for (let i = 0; i < 200 && (await postRow(post.id, new Date())).metrics.impressions === 0; i++) await sleep(100);
    expect((await postRow(post.id, new Date(target.publishedAt), new Date())).metrics).toEqual(networkFigures);
    for (let i = 0; i < 100 && (await readingsOf(target.id, target.publishedAt)).length < 2; i++) await sleep(100);
    expect((await readingsOf(target.id, target.publishedAt))[1]).toEqual({ reading: 1, state: 'created', dueAfter: 3600 });
  });

  it('stores each target’s figures once, as the network reports them, whichever day they are read', async () => {
    const { post, target, networkFigures } = await publishMeasured('Measured');
    const today = new Date();
    expect(await read(target.id, today)).toHaveLength(1);
    await read(target.id, today); // reading again the same day changes nothing
    const tomorrow = new Date(today.getTime() + 86_400_000);
    await read(target.id, tomorrow); // the network reports the same totals: nothing gained the next day
    expect((await postRow(post.id, today, tomorrow)).metrics).toEqual(networkFigures);
  });
});

describe('results for a period', () => {
  let a: string;
  let b: string;
  let postA: string;
  let postB: string;

  beforeAll(async () => {
    const workspace = await createWorkspace(service.services);
    api = apiFor(service.url, workspace.ownerKey);
    a = await connectSandbox(service.services, workspace.workspaceId);
    b = await connectSandbox(service.services, workspace.workspaceId);
    postA = (await api('POST', '/posts', { content: { caption: 'A' }, targets: [{ connectionId: a, placement: 'feed' }], campaign: 'spring' })).body.data.id;
    postB = (await api('POST', '/posts', { content: { caption: 'B' }, targets: [{ connectionId: b, placement: 'feed' }] })).body.data.id;
    const targetOf = async (postId: string) => (await service.services.db.prisma.postTarget.findFirstOrThrow({ where: { postId } })).id;
    const rows: [string, string, string, string, string, number, number, number][] = [
      // target post account provider day impressions likes videoViews
      [await targetOf(postA), postA, a, 'sandbox', '2026-03-01', 100, 10, 0],
      [await targetOf(postA), postA, a, 'sandbox', '2026-03-02', 50, 5, 7],
      [await targetOf(postB), postB, b, 'mastodon', '2026-03-02', 30, 3, 0],
      [await targetOf(postB), postB, b, 'mastodon', '2026-03-05', 20, 2, 0],
      [await targetOf(postB), postB, b, 'mastodon', '2026-04-01', 999, 99, 0], // outside the period
    ];
    for (const [target, post, account, provider, day, impressions, likes, videoViews] of rows) {
      await service.services.db.pool.query(
        `INSERT INTO target_metric_day (target_id, day, workspace_id, post_id, connection_id, provider, impressions, likes, video_views, collected_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now())`,
        [target, day, workspace.workspaceId, post, account, provider, impressions, likes, videoViews],
      );
    }
  });

  const metrics = (impressions: number, likes: number, videoViews = 0) => ({
    impressions,
    reach: 0,
    likes,
    comments: 0,
    shares: 0,
    saves: 0,
    clicks: 0,
    videoViews,
  });

  it('groups by day, network, account and post, with totals', async () => {
    const byDay = (await api('GET', '/analytics?from=2026-03-01&to=2026-03-31')).body.data;
    expect(byDay).toEqual({
      from: '2026-03-01',
      to: '2026-03-31',
      groupBy: 'day',
      totals: metrics(200, 20, 7),
      rows: [
        { key: '2026-03-01', metrics: metrics(100, 10) },
        { key: '2026-03-02', metrics: metrics(80, 8, 7) },
        { key: '2026-03-05', metrics: metrics(20, 2) },
      ],
    });
    expect((await api('GET', '/analytics?from=2026-03-01&to=2026-03-31&groupBy=provider')).body.data.rows).toEqual([
      { key: 'mastodon', metrics: metrics(50, 5) },
      { key: 'sandbox', metrics: metrics(150, 15, 7) },
    ]);
    const byAccount = (await api('GET', '/analytics?from=2026-03-01&to=2026-03-31&groupBy=account')).body.data.rows;
    expect(Object.fromEntries(byAccount.map((r: { key: string; metrics: { impressions: number } }) => [r.key, r.metrics.impressions]))).toEqual({
      [a]: 150,
      [b]: 50,
    });
    const byPost = (await api('GET', '/analytics?from=2026-03-02&to=2026-03-02&groupBy=post')).body.data.rows;
    expect(Object.fromEntries(byPost.map((r: { key: string; metrics: { likes: number } }) => [r.key, r.metrics.likes]))).toEqual({ [postA]: 5, [postB]: 3 });
  });

  it('applies the filters of GET /posts', async () => {
    expect((await api('GET', `/analytics?from=2026-03-01&to=2026-12-31&provider=mastodon`)).body.data.totals.impressions).toBe(1049);
    expect((await api('GET', `/analytics?from=2026-03-01&to=2026-03-31&campaign=spring`)).body.data.totals).toEqual(metrics(150, 15, 7));
    expect((await api('GET', `/analytics?from=2026-03-01&to=2026-03-31&connectionId=${b}`)).body.data.totals.impressions).toBe(50);
    expect((await api('GET', `/analytics?from=2026-03-01&to=2026-03-31&status=published`)).body.data.totals.impressions).toBe(0);
  });

  it('exports the same rows as CSV, with a header and an attachment name', async () => {
    const response = await fetch(`${service.url}/v1/analytics/export?from=2026-03-01&to=2026-03-31&groupBy=provider`, {
      headers: { authorization: await keyHeader() },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="analytics-provider-2026-03-01-2026-03-31.csv"');
    expect(await response.text()).toBe(
      'provider,impressions,reach,likes,comments,shares,saves,clicks,videoViews\n' + 'mastodon,50,0,5,0,0,0,0,0\n' + 'sandbox,150,0,15,0,0,0,0,7\n',
    );
  });

  it('refuses bad periods and groupings, and needs analytics:read', async () => {
    const grouping = await api('GET', '/analytics?from=2026-03-01&to=2026-03-31&groupBy=week');
    expect(grouping.status).toBe(400);
    expect(grouping.body.error.details).toEqual([expect.objectContaining({ field: 'groupBy', code: 'enum' })]);
    const backwards = await api('GET', '/analytics?from=2026-03-31&to=2026-03-01');
    expect(backwards.body.error.details).toEqual([expect.objectContaining({ field: 'to', code: 'range' })]);
    expect((await api('GET', '/analytics?from=yesterday&to=2026-03-01')).body.error.details[0].field).toBe('from');
    const impossible = await api('GET', '/analytics?from=2026-02-31&to=2026-03-01');
    expect(impossible.status).toBe(400);
    expect(impossible.body.error.details[0].field).toBe('from');
    expect((await api('GET', '/analytics/export?to=2026-03-01')).status).toBe(400);
    const key = await keyFor(service.services, acme.workspaceId, acme.ownerId, { scopes: ['posts:read'] });
    const refused = await apiFor(service.url, key.apiKey)('GET', '/analytics?from=2026-03-01&to=2026-03-31');
    expect(refused.body.error.message).toBe('API key needs the analytics:read scope for getAnalytics.');
  });

  async function keyHeader() {
    const { workspaceId, userId } = await service.services.db.prisma.membership.findFirstOrThrow({ where: { workspace: { posts: { some: { id: postA } } } } });
    return `Bearer ${(await keyFor(service.services, workspaceId, userId, { preset: 'read-only' })).apiKey}`;
  }
});
