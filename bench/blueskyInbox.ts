// Section `inbox-bluesky`: what one inbox poll of a Bluesky account costs, as `inbox` measures Mastodon's: 20 posts
// in the lookback with 5 replies each by another person, on a real PDS with the real AppView beside it
// (test/support/pds.ts, appview.ts, on a schema `bsky` of the bench's database). The network calls are the poll's own
// count (one getPostThread per post): the PDS keeps no count of the calls it answers.
import { addSocialAccount } from '../src/accounts/connect.ts';
import { startPds } from '../test/support/pds.ts';
import { pollMeter, publishedTargets } from './inbox.ts';
import { benchRuntime, benchWorkspace, type Bench } from './support.ts';

const posts = 20;
const commentsPerPost = 5;

export async function blueskyInbox(bench: Bench): Promise<void> {
  const pds = await startPds({ appView: { databaseUrl: bench.databaseUrl } });
  const runtime = await benchRuntime({ ...bench.serviceEnv, NETWORK_ALLOWED_HOSTS: 'localhost' });
  try {
    const { services } = runtime;
    const [alice, bob] = await Promise.all([pds.createAccount('alice'), pds.createAccount('bob')]);
    const { workspaceId, apiKey } = await benchWorkspace(services, 'inbox-bluesky');
    const { actor } = await services.callers.resolve({ kind: 'apiKey', token: apiKey });
    const account = await addSocialAccount(services.db, services.outbox, services.connections, actor, {
      provider: 'bluesky',
      identifier: alice.handle,
      appPassword: alice.appPassword,
      service: pds.url,
    });
    const postsOfAlice: { uri: string; cid: string }[] = [];
    for (let i = 0; i < posts; i++) {
      const { uri, cid } = await alice.agent.post({ text: `Post ${i}` });
      const post = { uri, cid };
      postsOfAlice.push(post);
      for (let j = 0; j < commentsPerPost; j++) await bob.agent.post({ text: `Comment ${j} on post ${i}`, reply: { root: post, parent: post } });
    }
    await pds.appViewIndexed();
    await publishedTargets(
      services,
      workspaceId,
      account.id,
      'feed',
      postsOfAlice.map((post) => post.uri),
    );
    // The poll's own count of its calls: the PDS keeps none.
    const poll = pollMeter(services, account.id, undefined, posts);
    await poll('first poll (all new)');
    await poll('next poll (nothing new)');
    const first = postsOfAlice[0]!;
    await bob.agent.post({ text: 'One more', reply: { root: first, parent: first } });
    await pds.appViewIndexed();
    await poll('next poll (one new comment)');
  } finally {
    await runtime.stop();
    await pds.close();
  }
}
