// Section `inbox-linkedin`: what one inbox poll costs per LinkedIn page (the LinkedIn stand-in,
// test/support/linkedin.ts) with 20 posts in the lookback, each with 5 comments by a member, one of them with a
// comment nested under it; polled once with everything new, then with nothing new, then with one new comment. Counts
// as `inbox` does (bench/inbox.ts): the SQL statements the poll sends, its calls to the network, its time.
import { connectSocialAccount } from '../src/accounts/socialAccounts.ts';
import { LinkedInStandIn } from '../test/support/linkedin.ts';
import { pollMeter, publishedTargets } from './inbox.ts';
import { benchRuntime, benchWorkspace, type Bench } from './support.ts';

const posts = 20;
const commentsPerPost = 5;

export async function linkedinInbox(bench: Bench): Promise<void> {
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
    await publishedTargets(services, workspaceId, connectionId, 'feed', urns);
    const poll = pollMeter(services, connectionId, () => linkedin.requests.length, posts);
    await poll('first poll (all new)');
    await poll('next poll (nothing new)');
    await comment(urns[0]!, 'One more');
    await poll('next poll (one new comment)');
  } finally {
    await runtime.stop();
    await linkedin.stop();
  }
}
