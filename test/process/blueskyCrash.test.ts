// The worker killed while publishing to a real PDS: after a restart every target has exactly one post there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase } from '../support/database.ts';
import { ServerProcesses, setupWithCli } from '../support/processes.ts';
import { apiFor, waitForPost } from '../support/posts.ts';
import { startPds, type PdsAccount, type TestPds } from '../support/pds.ts';

let env: Record<string, string>;
let apiKey: string;
let pds: TestPds;
let people: PdsAccount[];
const servers = new ServerProcesses();

async function postsOf(person: PdsAccount) {
  const { data } = await person.agent.com.atproto.repo.listRecords({ repo: person.did, collection: 'app.bsky.feed.post', limit: 100 });
  return data.records;
}

beforeAll(async () => {
  // The PDS answers each write 3 s after making it: a kill in that time lands after Bluesky has the post and
  // before the service has heard so.
  pds = await startPds({ slowWritesMs: 3000 });
  people = await Promise.all([pds.createAccount('dora'), pds.createAccount('erin')]);
  const databaseUrl = await createTestDatabase();
  env = {
    DATABASE_URL: databaseUrl,
    ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    JOB_SUPERVISE_SECONDS: '1',
    RATE_LIMIT_PER_MINUTE: '100000',
    NETWORK_ALLOWED_HOSTS: 'localhost',
  };
  ({ apiKey } = await setupWithCli(env, { name: 'Bluesky crash', email: 'bluesky-crash@example.test' }));
}, 180_000);
afterAll(async () => {
  await servers.killAll();
  await pds?.close();
});

describe('publishing to Bluesky across a crash', () => {
  it('leaves exactly one post per target at the PDS when the worker is killed mid-publish', async () => {
    const first = await servers.start(env);
    const api = apiFor(first.url, apiKey);
    const accounts: string[] = [];
    for (const person of people) {
      const connected = await api('POST', '/social-accounts', {
        provider: 'bluesky',
        identifier: person.handle,
        appPassword: person.appPassword,
        service: pds.url,
      });
      expect(connected.status).toBe(201);
      accounts.push(connected.body.data.id);
    }
    const post = (
      await api('POST', '/posts', {
        content: { caption: 'Posted once, crash or not' },
        targets: accounts.map((connectionId) => ({ connectionId, placement: 'feed' })),
      })
    ).body.data;
    expect((await api('POST', `/posts/${post.id}/publish`)).status).toBe(202);
    for (let i = 0; i < 200 && (await Promise.all(people.map(postsOf))).some((records) => records.length === 0); i++) await sleep(50);
    expect((await Promise.all(people.map(postsOf))).map((records) => records.length)).toEqual([1, 1]);
    await servers.stop(first, 'SIGKILL');

    const second = await servers.start(env);
    const restarted = apiFor(second.url, apiKey);
    expect((await restarted('GET', `/posts/${post.id}`)).body.data.status).toBe('publishing');
    const published = await waitForPost(restarted, post.id, ['published'], 90_000);
    const records = await Promise.all(people.map(postsOf));
    expect(records.map((list) => list.length)).toEqual([1, 1]);
    published.targets.forEach((target: { status: string; attempts: number; remoteUrl: string }, index: number) => {
      expect(target.status).toBe('published');
      // The second attempt found the first one's record at the PDS instead of posting again.
      expect(target.attempts).toBe(2);
      expect(target.remoteUrl).toBe(`https://bsky.app/profile/${people[index]!.handle}/post/${records[index]![0]!.uri.split('/').pop()}`);
    });
    await servers.stop(second, 'SIGTERM');
  }, 240_000);
});
