// Section `inbox-youtube`: what one inbox poll costs per YouTube channel (the YouTube stand-in,
// test/support/youtube.ts) with 20 videos in the lookback, each with 5 comments by another channel; polled once with
// everything new, then with nothing new, then with one new comment. Counts as `inbox` does (bench/inbox.ts): the SQL
// statements the poll sends, its calls to the network (each a unit of the project's daily quota), its time.
import { connectSocialAccount } from '../src/accounts/socialAccounts.ts';
import { YouTubeStandIn } from '../test/support/youtube.ts';
import { pollMeter, publishedTargets } from './inbox.ts';
import { benchRuntime, benchWorkspace, type Bench } from './support.ts';

const videos = 20;
const commentsPerVideo = 5;
const callback = 'https://publisher.example/oauth/callback/youtube';
const forceSsl = 'https://www.googleapis.com/auth/youtube.force-ssl';

export async function youtubeInbox(bench: Bench): Promise<void> {
  const youtube = await YouTubeStandIn.start({ redirectUris: [callback] });
  const runtime = await benchRuntime({ ...bench.serviceEnv, ...youtube.serviceSettings(), PUBLIC_BASE_URL: 'https://publisher.example' });
  try {
    const { services } = runtime;
    const { workspaceId } = await benchWorkspace(services, 'inbox-youtube');
    const channel = { id: 'UCbenchCh4nnel0000000001', title: 'Bench', customUrl: '@bench' };
    const viewer = { id: 'UCbenchV1ewer00000000001', title: 'Viewer', customUrl: '@viewer' };
    youtube.signInAs({ id: 'viewer', name: 'Viewer', username: 'viewer@example.test' }, viewer);
    const viewerToken = await youtube.accessToken(callback, forceSsl);
    youtube.signInAs({ id: 'bench', name: 'Bench', username: 'bench@example.test' }, channel);
    const token = await youtube.accessToken(callback, forceSsl);
    const { connectionId } = await connectSocialAccount(services.db, services.secrets, services.adapters, services.outbox, {
      workspaceId,
      provider: 'youtube',
      username: channel.customUrl,
      remoteId: channel.id,
      tokens: { accessToken: token, scope: forceSsl },
    });
    const comment = async (videoId: string, text: string) => {
      await fetch(`${youtube.url}/youtube/v3/commentThreads?part=snippet`, {
        method: 'POST',
        headers: { authorization: `Bearer ${viewerToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ snippet: { channelId: channel.id, videoId, topLevelComment: { snippet: { textOriginal: text } } } }),
      });
    };
    const videoIds = Array.from({ length: videos }, (_, i) => youtube.addVideo(channel.id, `Video ${i}`));
    for (const id of videoIds) for (let j = 0; j < commentsPerVideo; j++) await comment(id, `Comment ${j} on ${id}`);
    await publishedTargets(services, workspaceId, connectionId, 'video', videoIds);
    const poll = pollMeter(services, connectionId, () => youtube.requests.length, videos);
    await poll('first poll (all new)');
    await poll('next poll (nothing new)');
    await comment(videoIds[0]!, 'One more');
    await poll('next poll (one new comment)');
  } finally {
    await runtime.stop();
    await youtube.stop();
  }
}
