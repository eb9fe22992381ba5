// Section `inbox-x`: what one inbox poll costs per X account (the X stand-in, test/support/x.ts) with 20 posts in the
// lookback, each with 5 replies by another account; polled once with everything new, then with nothing new, then with
// one new reply. Counts as `inbox` does (bench/inbox.ts): the SQL statements the poll sends, its recent searches, its
// time. The service runs on X_API_TIER=pro: one recent search per post, 300 a 15 minutes, so the three polls fit the
// polls' share.
import { connectSocialAccount } from '../src/accounts/socialAccounts.ts';
import { XStandIn } from '../test/support/x.ts';
import { pollMeter, publishedTargets } from './inbox.ts';
import { benchRuntime, benchWorkspace, type Bench } from './support.ts';

const posts = 20;
const commentsPerPost = 5;

export async function xInbox(bench: Bench): Promise<void> {
  const redirectUri = 'https://sps.example.test/oauth/callback/x';
  const x = await XStandIn.start([redirectUri]);
  const runtime = await benchRuntime({ ...bench.serviceEnv, PUBLIC_BASE_URL: 'https://sps.example.test', ...x.settings(), X_API_TIER: 'pro' });
  try {
    const { services } = runtime;
    const { workspaceId } = await benchWorkspace(services, 'inbox-x');
    x.oauth.user = { id: '6100002', name: 'Bob', username: 'bob' };
    const bob = (await x.authorize(redirectUri)).access_token;
    x.oauth.user = { id: '6100001', name: 'Alice', username: 'alice' };
    const alice = await x.authorize(redirectUri);
    const { connectionId } = await connectSocialAccount(services.db, services.secrets, services.adapters, services.outbox, {
      workspaceId,
      provider: 'x',
      username: 'alice',
      remoteId: '6100001',
      tokens: { accessToken: alice.access_token, refreshToken: alice.refresh_token },
    });
    const write = async (token: string, text: string, inReplyTo?: string) => {
      const response = await fetch(`${x.url}/2/tweets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text, ...(inReplyTo ? { reply: { in_reply_to_tweet_id: inReplyTo } } : {}) }),
      });
      return ((await response.json()) as { data: { id: string } }).data.id;
    };
    const remoteIds: string[] = [];
    for (let i = 0; i < posts; i++) {
      const id = await write(alice.access_token, `Post ${i}`);
      remoteIds.push(id);
      for (let j = 0; j < commentsPerPost; j++) await write(bob, `Comment ${j} on post ${i}`, id);
    }
    await publishedTargets(services, workspaceId, connectionId, 'feed', remoteIds);
    const poll = pollMeter(services, connectionId, () => x.calls.filter((call) => call.route === 'search').length, posts);
    await poll('first poll (all new)');
    await poll('next poll (nothing new)');
    await write(bob, 'One more', remoteIds[0]);
    await poll('next poll (one new comment)');
  } finally {
    await runtime.stop();
    await x.stop();
  }
}
