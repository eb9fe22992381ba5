// A worker killed in the middle of a publish, in the middle of a burst of posts due in the same second, and a
// schedule that comes due while the service is down: after a restart every target is published exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase } from '../support/database.ts';
import { ServerProcesses, setupWithCli } from '../support/processes.ts';
import { apiFor, inSeconds, waitForPost } from '../support/posts.ts';
import { until } from '../support/rateWindow.ts';

let env: Record<string, string>;
let db: pg.Client;
let apiKey: string;
let accounts: string[];
const servers = new ServerProcesses();

const itemsOf = async (targetId: string) => Number((await db.query('SELECT count(*) FROM sandbox_item WHERE idempotency_key = $1', [targetId])).rows[0].count);

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  env = { DATABASE_URL: databaseUrl, ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'), JOB_SUPERVISE_SECONDS: '1', RATE_LIMIT_PER_MINUTE: '100000' };
  ({ apiKey, connectionIds: accounts } = await setupWithCli(env, { name: 'Crash', email: 'crash@example.test', sandboxUsernames: ['one', 'two'] }));
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db.end();
  await servers.killAll();
});

describe('publishing across crashes and restarts', () => {
  it('posts each target exactly once when the worker is killed mid-publish', async () => {
    const first = await servers.start(env);
    const api = apiFor(first.url, apiKey);
    // [sandbox:slow]: the network holds the item from the start of a 3 s call, so the kill lands after the
    // network created the post and before the service learnt of it: the case that tempts a duplicate.
    const post = (
      await api('POST', '/posts', {
        content: { caption: 'Crash test [sandbox:slow]' },
        targets: accounts.map((connectionId) => ({ connectionId, placement: 'feed' })),
      })
    ).body.data;
    expect((await api('POST', `/posts/${post.id}/publish`)).status).toBe(202);
    const targetIds: string[] = post.targets.map((target: { id: string }) => target.id);
    for (let i = 0; i < 100 && (await Promise.all(targetIds.map(itemsOf))).some((n) => n === 0); i++) await sleep(50);
    expect(await Promise.all(targetIds.map(itemsOf))).toEqual([1, 1]);
    await servers.stop(first, 'SIGKILL');

    const second = await servers.start(env);
    const restarted = apiFor(second.url, apiKey);
    expect((await restarted('GET', `/posts/${post.id}`)).body.data.status).toBe('publishing');
    const published = await waitForPost(restarted, post.id, ['published'], 60_000);
    expect(await Promise.all(targetIds.map(itemsOf))).toEqual([1, 1]);
    for (const target of published.targets) {
      expect(target.status).toBe('published');
      expect(target.attempts).toBe(2);
      // The second attempt found the first one's item at the network instead of posting again.
      const { rows } = await db.query('SELECT id FROM sandbox_item WHERE idempotency_key = $1', [target.id]);
      expect(target.remoteId).toBe(rows[0].id);
    }
    await servers.stop(second, 'SIGTERM');
  });

  it('publishes every target of a due burst once when the server is killed in the middle of it', async () => {
    const server = await servers.start(env);
    const api = apiFor(server.url, apiKey);
    // Every third post is slow at the network (3 s), so that the kill finds publishes in flight.
    const posts = 120;
    const ids: string[] = [];
    const creating = Date.now();
    for (let i = 0; i < posts; i += 10) {
      const created = await Promise.all(
        Array.from({ length: 10 }, (_, j) =>
          api('POST', '/posts', {
            content: { caption: `Burst ${i + j}${(i + j) % 3 === 0 ? ' [sandbox:slow]' : ''}` },
            targets: [{ connectionId: accounts[(i + j) % accounts.length], placement: 'feed' }],
          }),
        ),
      );
      ids.push(...created.map((answer) => answer.body.data.id));
    }
    // Due once all are scheduled, however loaded the machine: scheduling takes about as long as creating did.
    const scheduledAt = inSeconds(10 + (2 * (Date.now() - creating)) / 1000);
    for (let i = 0; i < posts; i += 10) {
      const answers = await Promise.all(ids.slice(i, i + 10).map((id) => api('POST', `/posts/${id}/schedule`, { scheduledAt, timezone: 'UTC' })));
      expect(answers.map((answer) => answer.status)).toEqual(Array(answers.length).fill(200));
    }
    await until(Date.parse(scheduledAt));
    const published = async () =>
      Number((await db.query("SELECT count(*) FROM post_target WHERE post_id = ANY($1::uuid[]) AND status = 'published'", [ids])).rows[0].count);
    for (let i = 0; i < 600 && (await published()) < posts / 3; i++) await sleep(20);
    await servers.stop(server, 'SIGKILL');
    expect(await published()).toBeLessThan(posts);

    const back = await servers.start(env);
    const restarted = apiFor(back.url, apiKey);
    for (const id of ids) expect((await waitForPost(restarted, id, ['published', 'failed'], 90_000)).status).toBe('published');
    const { rows } = await db.query(
      `SELECT t.id, count(i.id)::int AS items FROM post_target t LEFT JOIN sandbox_item i ON i.idempotency_key = t.id::text
       WHERE t.post_id = ANY($1::uuid[]) GROUP BY t.id`,
      [ids],
    );
    expect(rows).toHaveLength(posts);
    expect(rows.filter((row) => row.items !== 1)).toEqual([]);
    await servers.stop(back, 'SIGTERM');
  }, 240_000);

  it('publishes a post whose time came while the service was stopped, once it is back', async () => {
    const server = await servers.start(env);
    const api = apiFor(server.url, apiKey);
    const post = (
      await api('POST', '/posts', { content: { caption: 'Scheduled through a restart' }, targets: [{ connectionId: accounts[0], placement: 'feed' }] })
    ).body.data;
    const scheduledAt = inSeconds(2);
    expect((await api('POST', `/posts/${post.id}/schedule`, { scheduledAt, timezone: 'Europe/Paris' })).status).toBe(200);
    await servers.stop(server, 'SIGTERM');
    await until(Date.parse(scheduledAt) + 500);
    expect((await db.query('SELECT status FROM post WHERE id = $1', [post.id])).rows[0].status).toBe('scheduled');

    const back = await servers.start(env);
    const published = await waitForPost(apiFor(back.url, apiKey), post.id, ['published'], 30_000);
    expect(published.targets[0].attempts).toBe(1);
    expect(new Date(published.publishedAt).getTime()).toBeGreaterThan(new Date(scheduledAt).getTime());
    expect(await itemsOf(published.targets[0].id)).toBe(1);
    await servers.stop(back, 'SIGTERM');
  });
});
