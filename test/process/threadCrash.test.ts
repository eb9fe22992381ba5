// The worker killed between the parts of a thread on a real PDS: after a restart the thread is whole, each part
// posted once and replying to the part before, none lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase } from '../support/database.ts';
import { ServerProcesses, setupWithCli } from '../support/processes.ts';
import { apiFor, waitForPost } from '../support/posts.ts';
import { startPds, type PdsAccount, type TestPds } from '../support/pds.ts';

let env: Record<string, string>;
let apiKey: string;
let pds: TestPds;
let fern: PdsAccount;
const servers = new ServerProcesses();

async function postsOfFern() {
  const { data } = await fern.agent.com.atproto.repo.listRecords({ repo: fern.did, collection: 'app.bsky.feed.post', limit: 100 });
  return data.records as { uri: string; cid: string; value: Record<string, any> }[];
}

beforeAll(async () => {
  // The PDS answers each write 3 s after making it: killed once the second part is written, the worker has heard
  // of the first part and not of the second.
  pds = await startPds({ slowWritesMs: 3000 });
  fern = await pds.createAccount('fern');
  env = {
    DATABASE_URL: await createTestDatabase(),
    ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64'),
    JOB_SUPERVISE_SECONDS: '1',
    RATE_LIMIT_PER_MINUTE: '100000',
    NETWORK_ALLOWED_HOSTS: 'localhost',
  };
  ({ apiKey } = await setupWithCli(env, { name: 'Thread crash', email: 'thread-crash@example.test' }));
}, 180_000);
afterAll(async () => {
  await servers.killAll();
  await pds?.close();
});

describe('a thread across a crash', () => {
  it('posts no part twice and loses none when the worker is killed while a part is in flight', async () => {
    const first = await servers.start(env);
    const api = apiFor(first.url, apiKey);
    const connected = await api('POST', '/social-accounts', { provider: 'bluesky', identifier: fern.handle, appPassword: fern.appPassword, service: pds.url });
    expect(connected.status).toBe(201);
    const post = (
      await api('POST', '/posts', {
        content: { caption: 'Crash thread 1/3', thread: [{ caption: 'Crash thread 2/3' }, { caption: 'Crash thread 3/3' }] },
        targets: [{ connectionId: connected.body.data.id, placement: 'feed' }],
      })
    ).body.data;
    expect((await api('POST', `/posts/${post.id}/publish`)).status).toBe(202);
    for (let i = 0; i < 400 && (await postsOfFern()).length < 2; i++) await sleep(50);
    expect(await postsOfFern()).toHaveLength(2);
    await servers.stop(first, 'SIGKILL');

    const second = await servers.start(env);
    const restarted = apiFor(second.url, apiKey);
    const published = await waitForPost(restarted, post.id, ['published', 'failed'], 90_000);
    expect(published.status).toBe('published');
    const [target] = published.targets;
    expect(target.status).toBe('published');
    expect(target.attempts).toBe(2);

    const records = await postsOfFern();
    expect(records).toHaveLength(3);
    const byUri = new Map(records.map((record) => [record.uri, record]));
    const parts = target.parts.map((part: { remoteId: string }) => byUri.get(part.remoteId)!);
    expect(parts.map((record: { value: { text: string } }) => record?.value.text)).toEqual(['Crash thread 1/3', 'Crash thread 2/3', 'Crash thread 3/3']);
    const ref = (record: { uri: string; cid: string }) => ({ uri: record.uri, cid: record.cid });
    expect(parts[0].value.reply).toBeUndefined();
    expect(parts[1].value.reply).toEqual({ root: ref(parts[0]), parent: ref(parts[0]) });
    expect(parts[2].value.reply).toEqual({ root: ref(parts[0]), parent: ref(parts[1]) });
    expect(target.remoteId).toBe(parts[0].uri);
    await servers.stop(second, 'SIGTERM');
  }, 240_000);
});
