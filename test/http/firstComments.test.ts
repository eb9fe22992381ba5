// First comments (issue 30) on the four networks that take them as comments, end to end against their stand-ins
// (test/support/meta.ts, linkedin.ts, youtube.ts): `settings.firstComment` is posted once, on the item just published,
// by the account that published it; a comment the network refuses leaves the target published with the comment's
// error on it; an attempt stopped between the post and its comment posts the comment once when it resumes; a comment
// the network made but whose answer was lost is found by the next attempt, not posted again; a YouTube
// channel connected without youtube.force-ssl gets the comment's error, not a failed video.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { createWorkspace } from '../support/fixtures.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { image, video } from '../support/mediaFiles.ts';
import { OAuthBrowser } from '../support/oauthBrowser.ts';
import { publishMedia } from '../support/publishMedia.ts';
import { keptCheckpoint } from '../support/checkpoints.ts';
import { MetaStandIn, type MetaPage } from '../support/meta.ts';
import { LinkedInStandIn } from '../support/linkedin.ts';
import { YouTubeStandIn } from '../support/youtube.ts';
import { LinkedInAdapter } from '../../src/providers/linkedin/adapter.ts';
import { YouTubeAdapter } from '../../src/providers/youtube/adapter.ts';
import type { PublishRequest } from '../../src/providers/adapter.ts';

const publicBaseUrl = 'https://publisher.example';
const callback = (network: string) => `${publicBaseUrl}/oauth/callback/${network}`;
const bakery: MetaPage = {
  id: '1101',
  name: 'Moreau Bakery',
  username: 'moreaubakery',
  instagram: { id: '17841401', username: 'moreau.bakery', name: 'Moreau Bakery' },
};
const alice = { id: 'aB3xY9kQ', name: 'Alice Moreau', username: 'alice@example.test' };
const channel = { id: 'UCx9fQmW2nq8Ih0mYQd7kZpA', title: 'Nora Field Travels', customUrl: '@norafield' };

let meta: MetaStandIn;
let linkedin: LinkedInStandIn;
let youtube: YouTubeStandIn;
let service: TestService;
let api: Api;
/** Connection ids by network. */
const accounts: Record<'facebook' | 'instagram' | 'linkedin' | 'youtube', string> = { facebook: '', instagram: '', linkedin: '', youtube: '' };
let photoId: string;
let clipId: string;

async function connect(provider: string): Promise<string[]> {
  const started = await api('POST', '/social-accounts/connect', { provider });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const person = new OAuthBrowser(service.url, publicBaseUrl);
  const authorization = await person.start(started.body.data.authorizationUrl);
  const atNetwork = await fetch(authorization, { redirect: 'manual' });
  const back = await person.callback(atNetwork.headers.get('location')!);
  expect(back.status).toBe(302);
  return back.location!.searchParams.getAll('connectionId');
}

async function uploadMedia(bytes: Buffer, filename: string, contentType: string): Promise<string> {
  const started = await api('POST', '/media/uploads', { filename, contentType, size: bytes.length });
  const { id, uploadUrl, method, headers } = started.body.data;
  await fetch(uploadUrl.replace(publicBaseUrl, service.url), { method, headers, body: new Uint8Array(bytes) });
  await api('POST', `/media/uploads/${id}/complete`);
  for (let i = 0; i < 300 && (await api('GET', `/media/${id}`)).body.data.status === 'processing'; i++) await sleep(100);
  return id;
}

/** Publishes a post with a first comment to one account; answers its target once published or failed. */
async function publish(connectionId: string, caption: string, firstComment: string, mediaIds: string[], placement = 'feed') {
  const created = await api('POST', '/posts', { content: { caption, mediaIds }, targets: [{ connectionId, placement, settings: { firstComment } }] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await api('POST', `/posts/${created.body.data.id}/publish`)).status).toBe(202);
  return (await waitForPost(api, created.body.data.id, ['published', 'failed'], 60_000)).targets[0];
}

/** The four networks' publications, each with the comments its stand-in holds on the published item. */
const networks = [
  {
    name: 'facebook',
    post: (comment: string) => publish(accounts.facebook, 'Open on Sunday', comment, []),
    commentsOn: (remoteId: string) => [...meta.comments.values()].filter((c) => c.on === remoteId).map((c) => ({ by: c.from, text: c.message })),
    author: bakery.id,
    refuse: (on: boolean) => {
      meta.refuseComments = on;
    },
    loseNextCommentAnswer: () => {
      meta.lostCommentAnswers = 1;
    },
    lostAnswersLeft: () => meta.lostCommentAnswers,
  },
  {
    name: 'instagram',
    post: (comment: string) => publish(accounts.instagram, 'Fresh bread', comment, [photoId]),
    commentsOn: (remoteId: string) => [...meta.comments.values()].filter((c) => c.on === remoteId).map((c) => ({ by: c.from, text: c.message })),
    author: bakery.instagram!.id,
    refuse: (on: boolean) => {
      meta.refuseComments = on;
    },
    loseNextCommentAnswer: () => {
      meta.lostCommentAnswers = 1;
    },
    lostAnswersLeft: () => meta.lostCommentAnswers,
  },
  {
    name: 'linkedin',
    post: (comment: string) => publish(accounts.linkedin, 'We are hiring', comment, []),
    commentsOn: (remoteId: string) => [...linkedin.comments.values()].filter((c) => c.object === remoteId).map((c) => ({ by: c.actor, text: c.text })),
    author: `urn:li:person:${alice.id}`,
    refuse: (on: boolean) => {
      linkedin.refuseComments = on;
    },
    loseNextCommentAnswer: () => {
      linkedin.lostCommentAnswers = 1;
    },
    lostAnswersLeft: () => linkedin.lostCommentAnswers,
  },
  {
    name: 'youtube',
    post: (comment: string) => publish(accounts.youtube, 'A day in Lisbon', comment, [clipId], 'video'),
    commentsOn: (remoteId: string) => [...youtube.comments.values()].filter((c) => c.videoId === remoteId).map((c) => ({ by: c.channelId, text: c.text })),
    author: channel.id,
    refuse: (on: boolean) => {
      youtube.refuseComments = on;
    },
    loseNextCommentAnswer: () => {
      youtube.lostCommentAnswers = 1;
    },
    lostAnswersLeft: () => youtube.lostCommentAnswers,
  },
];

beforeAll(async () => {
  [meta, linkedin, youtube] = await Promise.all([
    MetaStandIn.start({ redirectUris: [callback('facebook'), callback('instagram')], processingReads: 1 }),
    LinkedInStandIn.start({ redirectUris: [callback('linkedin')] }),
    YouTubeStandIn.start({ redirectUris: [callback('youtube')], processingPolls: 1 }),
  ]);
  meta.signInAs({ id: '10158', name: 'Alice Moreau' }, [bakery]);
  linkedin.signInAs(alice);
  youtube.signInAs({ id: 'g-1', name: 'Nora Field', username: 'nora@example.test' }, channel);
  service = await startTestService({
    PUBLIC_BASE_URL: publicBaseUrl,
    FACEBOOK_CLIENT_ID: meta.clientId,
    FACEBOOK_CLIENT_SECRET: meta.clientSecret,
    FACEBOOK_API_BASE_URL: meta.url,
    FACEBOOK_AUTH_BASE_URL: meta.url,
    LINKEDIN_CLIENT_ID: linkedin.oauth.clientId,
    LINKEDIN_CLIENT_SECRET: linkedin.oauth.clientSecret,
    LINKEDIN_API_BASE_URL: linkedin.url,
    LINKEDIN_AUTH_BASE_URL: linkedin.authBaseUrl,
    LINKEDIN_VERSION: '202610',
    ...youtube.serviceSettings(),
    NETWORK_ALLOWED_HOSTS: '127.0.0.1',
  });
  meta.mediaOrigin = { from: publicBaseUrl, to: service.url };
  const workspace = await createWorkspace(service.services);
  api = apiFor(service.url, workspace.ownerKey);
  [accounts.facebook, accounts.instagram] = (await connect('facebook')) as [string, string];
  [accounts.linkedin] = (await connect('linkedin')) as [string];
  [accounts.youtube] = (await connect('youtube')) as [string];
  [photoId, clipId] = await Promise.all([
    uploadMedia(await image('jpeg', 800, 800), 'bread.jpg', 'image/jpeg'),
    uploadMedia(await video(320, 240, 1), 'lisbon.mp4', 'video/mp4'),
  ]);
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await Promise.all([meta?.stop(), linkedin?.stop(), youtube?.stop()]);
});

describe('a first comment', () => {
  it.each(networks)('is posted once on the $name item just published, by the account that published it', async (network) => {
    const text = `Menu and hours: https://moreau.example/menu #${network.name}`;
    const target = await network.post(text);
    expect(target, JSON.stringify(target)).toMatchObject({ status: 'published', attempts: 1 });
    expect(network.commentsOn(target.remoteId)).toEqual([{ by: network.author, text }]);
    expect(target.firstComment).toMatchObject({ remoteId: expect.any(String), remoteUrl: expect.stringMatching(/^https:\/\//), error: null });
  });

  it.each(networks)('refused by $name leaves the target published, with the comment’s error on it', async (network) => {
    network.refuse(true);
    try {
      const target = await network.post('Link in the first comment');
      expect(target, JSON.stringify(target)).toMatchObject({ status: 'published', attempts: 1, remoteId: expect.any(String) });
      expect(network.commentsOn(target.remoteId)).toEqual([]);
      expect(target.firstComment).toMatchObject({ remoteId: null, error: { code: 'PROVIDER_REJECTED', message: expect.any(String) } });
      expect(target.error ?? null).toBeNull();
    } finally {
      network.refuse(false);
    }
  });
});

describe('a first comment whose answer was lost', () => {
  it.each(networks)('is found on the $name item by the next attempt, not posted again', async (network) => {
    network.loseNextCommentAnswer();
    const text = `Posted once: https://moreau.example/${network.name}`;
    const target = await network.post(text);
    // The comment was made and its answer lost: an attempt or a status check after it found it.
    expect(network.lostAnswersLeft()).toBe(0);
    expect(target, JSON.stringify(target)).toMatchObject({ status: 'published', firstComment: { remoteId: expect.any(String), error: null } });
    expect(network.commentsOn(target.remoteId)).toEqual([{ by: network.author, text }]);
  });
});

describe('an attempt stopped between the post and its comment', () => {
  it('is retried by the worker, which posts the comment once and the post not again', async () => {
    const before = linkedin.posts.size;
    linkedin.commentsUnavailable = 1;
    const target = await publish(accounts.linkedin, `Retried ${crypto.randomUUID()}`, 'Apply here: https://moreau.example/jobs', []);
    expect(target, JSON.stringify(target)).toMatchObject({ status: 'published', attempts: 2, firstComment: { error: null } });
    expect(linkedin.posts.size).toBe(before + 1);
    expect(networks[2]!.commentsOn(target.remoteId)).toEqual([{ by: `urn:li:person:${alice.id}`, text: 'Apply here: https://moreau.example/jobs' }]);
  });

  it('posts the comment once when it resumes, without posting again', async () => {
    const adapter = new LinkedInAdapter({
      app: { clientId: linkedin.oauth.clientId, clientSecret: linkedin.oauth.clientSecret, apiBaseUrl: linkedin.url, authBaseUrl: linkedin.authBaseUrl },
      redirectUri: callback('linkedin'),
      version: '202610',
      timeoutMs: 5000,
      allowedHosts: new Set(['127.0.0.1']),
    });
    const caption = `Resumed ${crypto.randomUUID()}`;
    const request: PublishRequest = {
      account: {
        id: 'a',
        provider: 'linkedin',
        username: 'alice',
        remoteId: `urn:li:person:${alice.id}`,
        tokens: { accessToken: await linkedin.accessToken(callback('linkedin')) },
      },
      placement: 'feed',
      caption,
      media: [],
      thread: [],
      firstComment: 'Details in the comments',
      settings: {},
      idempotencyKey: crypto.randomUUID(),
      checkpoint: keptCheckpoint(),
      signal: new AbortController().signal,
    };
    const postsOf = () => [...linkedin.posts.values()].filter((post) => post.commentary === caption);
    linkedin.commentsUnavailable = 1;
    await expect(adapter.publish(request)).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE', transient: true });
    expect(postsOf()).toHaveLength(1);
    const urn = postsOf()[0]!.id;
    expect([...linkedin.comments.values()].filter((c) => c.object === urn)).toEqual([]);

    const resumed = await adapter.publish(request);
    const again = await adapter.publish(request);
    expect(resumed).toMatchObject({
      status: 'published',
      item: { remoteId: urn, firstComment: { item: { remoteId: expect.stringMatching(/^urn:li:comment:/) }, error: null } },
    });
    expect(again).toEqual(resumed);
    expect(postsOf()).toHaveLength(1);
    expect([...linkedin.comments.values()].filter((c) => c.object === urn).map((c) => c.text)).toEqual(['Details in the comments']);
  });
});

describe('a YouTube channel connected without youtube.force-ssl', () => {
  it('publishes the video and gets the comment refused with the reason to reconnect', async () => {
    const adapter = new YouTubeAdapter({
      app: { clientId: youtube.oauth.clientId, clientSecret: youtube.oauth.clientSecret, apiBaseUrl: youtube.url, authBaseUrl: youtube.oauth.url },
      redirectUri: callback('youtube'),
      timeoutMs: 5000,
      allowedHosts: new Set(['127.0.0.1']),
      dailyQuotaUnits: 10_000,
    });
    // Granted before first comments asked for more: upload and read only.
    const scope = 'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly';
    const request: PublishRequest = {
      account: {
        id: 'a',
        provider: 'youtube',
        username: channel.customUrl,
        remoteId: channel.id,
        tokens: { accessToken: await youtube.accessToken(callback('youtube'), scope), scope },
      },
      placement: 'video',
      caption: 'Before the permission',
      media: [publishMedia(await video(320, 240, 1), { kind: 'video', mimeType: 'video/mp4' })],
      thread: [],
      firstComment: 'Gear list: https://nora.example/gear',
      settings: { privacy: 'public', tags: [], madeForKids: false },
      idempotencyKey: crypto.randomUUID(),
      checkpoint: keptCheckpoint(),
      signal: new AbortController().signal,
    };
    let outcome = await adapter.publish(request);
    for (let i = 0; i < 5 && outcome.status === 'processing'; i++) outcome = await adapter.publish(request);
    expect(outcome).toMatchObject({
      status: 'published',
      item: { remoteId: expect.any(String), firstComment: { item: null, error: { code: 'PROVIDER_REJECTED', message: expect.stringContaining('reconnect') } } },
    });
    if (outcome.status !== 'published') return;
    expect([...youtube.comments.values()].filter((c) => c.videoId === outcome.item.remoteId)).toEqual([]);
  });
});
