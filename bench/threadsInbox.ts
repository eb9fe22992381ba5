// Section `inbox-threads`: what one inbox poll of a Threads profile costs, as the `inbox` section measures Mastodon's.
// One profile (the Meta stand-in's graph.threads.net, test/support/meta.ts) with 20 posts published in the lookback,
// each with 5 replies by another profile; polled once with everything new, then with nothing new, then with one new
// reply. Each poll reads each post's conversation (one call while its replies fit one page).
import { connectSocialAccount } from '../src/accounts/socialAccounts.ts';
import { MetaStandIn, postOnThreads, type ThreadsProfile } from '../test/support/meta.ts';
import { pollMeter, publishedTargets } from './inbox.ts';
import { benchRuntime, benchWorkspace, type Bench } from './support.ts';

const posts = 20;
const repliesPerPost = 5;

export async function threadsInbox(bench: Bench): Promise<void> {
  const meta = await MetaStandIn.start({ redirectUris: [], processingReads: 0 });
  const runtime = await benchRuntime({ ...bench.serviceEnv, ...meta.threadsSettings });
  try {
    const { services } = runtime;
    const { workspaceId } = await benchWorkspace(services, 'inbox-threads');
    const alice = meta.threadsProfile;
    const bob: ThreadsProfile = { id: '40112', username: 'bob.baker', name: 'Bob Baker' };
    const aliceToken = meta.issueThreadsToken(alice);
    const bobToken = meta.issueThreadsToken(bob);
    const { connectionId } = await connectSocialAccount(services.db, services.secrets, services.adapters, services.outbox, {
      workspaceId,
      provider: 'threads',
      username: alice.username,
      remoteId: alice.id,
      tokens: { accessToken: aliceToken },
    });
    const postIds: string[] = [];
    for (let i = 0; i < posts; i++) {
      const id = await postOnThreads(meta, alice, aliceToken, `Post ${i}`);
      postIds.push(id);
      for (let j = 0; j < repliesPerPost; j++) await postOnThreads(meta, bob, bobToken, `Reply ${j} to post ${i}`, id);
    }
    await publishedTargets(services, workspaceId, connectionId, 'feed', postIds);
    const poll = pollMeter(services, connectionId, () => meta.requests.length, posts);
    await poll('first poll (all new)');
    await poll('next poll (nothing new)');
    await postOnThreads(meta, bob, bobToken, 'One more', postIds[0]);
    await poll('next poll (one new reply)');
  } finally {
    await runtime.stop();
    await meta.stop();
  }
}
