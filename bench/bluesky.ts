// Section `bluesky`: 1,000 posts to 10 Bluesky accounts on a local PDS (test/support/pds.ts), published by the real
// server process, beside a plain @atproto/api loop posting the same texts to the same PDS with the same number of
// posts in flight. Prints targets per second for both and the delay from the due time to publication (ours).
import { setTimeout as sleep } from 'node:timers/promises';
import { AtpAgent, RichText } from '@atproto/api';
import pg from 'pg';
import { addSocialAccount } from '../src/accounts/connect.ts';
import { createPost } from '../src/posts/posts.ts';
import { schedulePost } from '../src/posts/publishing.ts';
import { startPds, type PdsAccount } from '../test/support/pds.ts';
import { benchRuntime, benchWorkspace, startChildServer, type Bench } from './support.ts';

const posts = 1000;
const accounts = 10;
/** At least; more when creating the posts was slow. */
const leadSeconds = 8;
/** The service's publish workers: PUBLISH_CONCURRENCY batches of up to 50 targets, each batch's calls at once. */
const publishConcurrency = 4;
const inFlight = publishConcurrency * 50;

const captionOf = (i: number) => `Bench post ${i} for #bench`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(run));
}

/** `count` calls of `run`, at most `concurrency` at a time. */
async function withConcurrency(count: number, concurrency: number, run: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await run(next++);
    }),
  );
}

/** The plain loop: app-password sessions, facets by RichText, agent.post, as an @atproto/api user writes it. */
async function plainLoop(pdsUrl: string, people: PdsAccount[]): Promise<number> {
  const agents = await Promise.all(
    people.map(async (person) => {
      const agent = new AtpAgent({ service: pdsUrl });
      await agent.login({ identifier: person.handle, password: person.appPassword });
      return agent;
    }),
  );
  const started = performance.now();
  await withConcurrency(posts, inFlight, async (i) => {
    const agent = agents[i % accounts]!;
    const text = new RichText({ text: captionOf(i) });
    await text.detectFacets(agent);
    await agent.post({ text: text.text, facets: text.facets, createdAt: new Date().toISOString() });
  });
  return (performance.now() - started) / 1000;
}

export async function bluesky(bench: Bench): Promise<void> {
  const pds = await startPds();
  const env = { ...bench.serviceEnv, RATE_LIMIT_PER_MINUTE: '100000000', NETWORK_ALLOWED_HOSTS: 'localhost', PUBLISH_CONCURRENCY: String(publishConcurrency) };
  const runtime = await benchRuntime(env);
  const server = await startChildServer('bin/server.ts', env);
  const db = new pg.Client({ connectionString: bench.databaseUrl });
  await db.connect();
  try {
    const { services } = runtime;
    const people = await Promise.all(Array.from({ length: accounts }, (_, i) => pds.createAccount(`bench${i}`)));
    const plainPeople = await Promise.all(Array.from({ length: accounts }, (_, i) => pds.createAccount(`plain${i}`)));
    const { apiKey } = await benchWorkspace(services, 'bluesky');
    const { actor } = await services.callers.resolve({ kind: 'apiKey', token: apiKey });
    const connectionIds: string[] = [];
    for (const person of people) {
      const account = await addSocialAccount(services.db, services.outbox, services.connections, actor, {
        provider: 'bluesky',
        identifier: person.handle,
        appPassword: person.appPassword,
        service: pds.url,
      });
      connectionIds.push(account.id);
    }

    const plainSeconds = await plainLoop(pds.url, plainPeople);
    const plainRate = posts / plainSeconds;
    console.log(
      `plain @atproto/api loop: ${posts} posts to ${accounts} accounts, ${inFlight} in flight: ${plainSeconds.toFixed(1)} s, ${plainRate.toFixed(0)} posts/s`,
    );

    const ids: string[] = [];
    const creating = performance.now();
    await inBatches([...Array(posts).keys()], 20, async (i) => {
      const post = await createPost(services.db, actor, {
        content: { caption: captionOf(i) },
        targets: [{ connectionId: connectionIds[i % accounts]!, placement: 'feed' }],
      });
      ids.push(post.id);
    });
    // Scheduling takes about as long as creating (more on a busy machine): all of it has to be done before the due time.
    const leadMs = Math.max(leadSeconds * 1000, 3 * (performance.now() - creating));
    const scheduledAt = new Date(Math.ceil((Date.now() + leadMs) / 1000) * 1000);
    await inBatches(ids, 20, (id) => schedulePost(services.db, services.boss, services.outbox, actor, id, { scheduledAt, timezone: 'UTC' }));
    const lead = (scheduledAt.getTime() - Date.now()) / 1000;
    if (lead < 1) console.log('WARNING: scheduling took longer than the lead time; delays include it');

    // Watching for the end costs the database little (one indexed count a second), and does not change the figures:
    // they come from the publication times recorded.
    const deadline = scheduledAt.getTime() + 300_000;
    while (Date.now() < deadline) {
      const { rows } = await db.query<{ done: string }>(
        `SELECT count(*) AS done FROM post WHERE workspace_id = $1 AND status IN ('published', 'partially_published', 'failed')`,
        [actor.workspaceId],
      );
      if (Number(rows[0]!.done) >= posts) break;
      await sleep(1000);
    }
    const { rows } = await db.query<{ published_at: Date | null; status: string; error_message: string | null }>(
      `SELECT t.published_at, t.status, t.error_message FROM post_target t JOIN post p ON p.id = t.post_id WHERE p.workspace_id = $1`,
      [actor.workspaceId],
    );
    const published = rows.filter((row) => row.status === 'published');
    const failed = rows.filter((row) => row.status === 'failed');
    const delays = published.map((row) => row.published_at!.getTime() - scheduledAt.getTime()).sort((a, b) => a - b);
    const last = delays.at(-1) ?? 0;
    const records = (
      await Promise.all(
        people.map(async (person) => {
          let count = 0;
          let cursor: string | undefined;
          do {
            const { data } = await person.agent.com.atproto.repo.listRecords({ repo: person.did, collection: 'app.bsky.feed.post', limit: 100, cursor });
            count += data.records.length;
            cursor = data.records.length === 100 ? data.cursor : undefined;
          } while (cursor);
          return count;
        }),
      )
    ).reduce((sum, count) => sum + count, 0);
    console.log(
      `service: published ${published.length}/${posts}, ${records} records at the PDS${failed.length ? ` (WARNING: ${failed.length} failed, e.g. ${failed[0]!.error_message})` : ''}`,
    );
    console.log(`delay from due to published: p50=${percentile(delays, 50)} ms  p99=${percentile(delays, 99)} ms  max=${last} ms`);
    const ourRate = published.length / Math.max(0.001, last / 1000);
    console.log(`service: ${ourRate.toFixed(0)} targets/s from the due time to the last publication`);
    console.log(`ratio service / plain loop: ${(ourRate / plainRate).toFixed(2)} (target >= 0.80)`);
  } finally {
    await db.end();
    await server.stop();
    await runtime.stop();
    await pds.close();
  }
}
