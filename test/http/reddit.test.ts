// Reddit end to end against its stand-in (test/support/reddit.ts): connecting (permanent duration, HTTP Basic, the
// User-Agent Reddit asks for), text and link posts with flair, NSFW and spoiler, image and video posts (leased,
// uploaded as S3's form, submitted, then found in the subreddit once Reddit made them), refusals by the rules (no
// title, a title too long, two images, a format Reddit does not take) and by Reddit inside a 200 (SUBREDDIT_NOEXIST,
// NO_LINKS), Reddit's rate limits waited (a 429's X-Ratelimit-Reset, a RATELIMIT's "try again in 9 minutes"), a
// refused token leading to NEEDS_RECONNECT, and interrupted submits looked up rather than posted twice.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, storedTokens, type TestService } from '../support/service.ts';
import { createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, publishUntilWaiting, uploadMedia as uploadTo, waitForPost, type Api } from '../support/posts.ts';
import { OAuthBrowser } from '../support/oauthBrowser.ts';
import { RedditStandIn } from '../support/reddit.ts';
import { keptCheckpoint } from '../support/checkpoints.ts';
import { image, video } from '../support/mediaFiles.ts';
import { publishMedia } from '../support/publishMedia.ts';
import { RedditAdapter } from '../../src/providers/reddit/adapter.ts';
import type { PublishRequest } from '../../src/providers/adapter.ts';

const publicBaseUrl = 'https://publisher.example';
const callback = `${publicBaseUrl}/oauth/callback/reddit`;
const alice = { id: '1w72', name: 'alicebakes', username: 'alicebakes', profileImageUrl: 'https://styles.redditmedia.com/alice.png' };

let reddit: RedditStandIn;
let service: TestService;
let workspace: TestWorkspace;
let api: Api;
let account: string;

beforeAll(async () => {
  reddit = await new RedditStandIn([callback], alice).start();
  reddit.subreddits.push(
    {
      name: 'Baking',
      allows: 'any',
      flairs: [
        { id: 'a8d3b0f2-0c2e-11ee-b3f4-5e3a2c1d9f01', text: 'Recipe' },
        { id: 'c1e5d7a9-0c2e-11ee-b3f4-5e3a2c1d9f02', text: 'Announcement', modOnly: true },
      ],
    },
    { name: 'AskBaking', allows: 'self' },
  );
  // The upload URL Reddit leases is this stand-in's, at 127.0.0.1: allowed as the outbound guard's exception.
  service = await startTestService({ PUBLIC_BASE_URL: publicBaseUrl, ...reddit.env, NETWORK_ALLOWED_HOSTS: '127.0.0.1' });
  workspace = await createWorkspace(service.services);
  api = apiFor(service.url, workspace.ownerKey);
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await reddit?.stop();
});

async function connect(): Promise<{ ids: string[]; authorization: URL }> {
  const started = await api('POST', '/social-accounts/connect', { provider: 'reddit' });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const person = new OAuthBrowser(service.url, publicBaseUrl);
  const authorization = await person.start(started.body.data.authorizationUrl);
  const atReddit = await fetch(authorization, { redirect: 'manual' });
  const back = await person.callback(atReddit.headers.get('location')!);
  expect(back.status).toBe(302);
  return { ids: back.location!.searchParams.getAll('connectionId'), authorization };
}

const target = (placement: string, settings: Record<string, unknown>) => ({ connectionId: account, placement, settings });

async function createPost(caption: string, placement: string, settings: Record<string, unknown>, mediaIds: string[] = []) {
  return api('POST', '/posts', { content: { caption, mediaIds }, targets: [target(placement, settings)] });
}

async function publish(caption: string, placement: string, settings: Record<string, unknown>, mediaIds: string[] = []) {
  const created = await createPost(caption, placement, settings, mediaIds);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await api('POST', `/posts/${created.body.data.id}/publish`);
  return (await waitForPost(api, created.body.data.id, ['published', 'failed'])).targets[0];
}

const uploadMedia = (bytes: Buffer, filename: string, contentType: string) =>
  uploadTo(api, { publicBaseUrl, serviceUrl: service.url }, { bytes, filename, contentType });

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const submits = () => reddit.apiRequests.filter((call) => call.path === '/api/submit').length;

const userAgentForm = /^web:[^:\s]+:\d+\.\d+\.\d+ \(by \/u\/alicebakes\)$/;

describe('connecting Reddit', () => {
  it('asks for a permanent grant with the four scopes, exchanges the code with HTTP Basic and connects the person as an active account', async () => {
    const { ids, authorization } = await connect();
    expect(authorization.origin + authorization.pathname).toBe(`${reddit.url}/api/v1/authorize`);
    expect(authorization.searchParams.get('duration')).toBe('permanent');
    expect(authorization.searchParams.get('scope')).toBe('identity submit read flair');
    const exchange = reddit.requests.findLast((request) => request.path === '/api/v1/access_token')!;
    expect(exchange.form).toMatchObject({ grant_type: 'authorization_code', redirect_uri: callback });
    expect(exchange.authorization).toMatch(/^Basic /);
    expect(reddit.apiRequests.findLast((call) => call.path === '/api/v1/me')!.userAgent).toBe(`web:${reddit.clientId}:1.0.0`);
    expect(ids).toHaveLength(1);
    account = ids[0]!;
    const connected = (await api('GET', `/social-accounts/${account}`)).body.data;
    expect(connected).toMatchObject({ provider: 'reddit', username: 'alicebakes', displayName: 'u/alicebakes', status: 'ACTIVE' });
  });

  it('refuses a grant without submit, naming it; no account is made', async () => {
    const before = (await api('GET', '/social-accounts?limit=100')).body.data.length;
    reddit.grantable = ['identity', 'read', 'flair'];
    try {
      const started = await api('POST', '/social-accounts/connect', { provider: 'reddit' });
      const person = new OAuthBrowser(service.url, publicBaseUrl);
      const atReddit = await fetch(await person.start(started.body.data.authorizationUrl), { redirect: 'manual' });
      const { location } = await person.callback(atReddit.headers.get('location')!);
      expect(location!.searchParams.get('error_description')).toContain('Reddit did not grant submit, which publishing needs');
    } finally {
      reddit.grantable = undefined;
    }
    expect((await api('GET', '/social-accounts?limit=100')).body.data).toHaveLength(before);
  });
});

describe("the subreddit's flairs", () => {
  it('lists the flairs a person may pick in the subreddit given, without the moderators’ own, as flairId’s choices', async () => {
    const options = await api('GET', `/social-accounts/${account}/setting-options?subreddit=r/Baking`);
    expect(options.status, JSON.stringify(options.body)).toBe(200);
    expect(options.body.data).toEqual({ flairId: { dependsOn: ['subreddit'], choices: [{ value: 'a8d3b0f2-0c2e-11ee-b3f4-5e3a2c1d9f01', label: 'Recipe' }] } });
    expect(reddit.apiRequests.at(-1)).toMatchObject({
      method: 'GET',
      path: '/r/Baking/api/link_flair_v2?raw_json=1',
      userAgent: expect.stringMatching(userAgentForm),
    });
    // The same through the graph, which the composer asks.
    const graph = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${workspace.ownerKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ socialAccount(id: "${account}") { settingOptions(subreddit: "Baking") { name dependsOn choices { value label } } } }` }),
    }).then((response) => response.json());
    expect(graph.data.socialAccount.settingOptions).toEqual([
      { name: 'flairId', dependsOn: ['subreddit'], choices: [{ value: 'a8d3b0f2-0c2e-11ee-b3f4-5e3a2c1d9f01', label: 'Recipe' }] },
    ]);
  });

  it('says which setting the flairs depend on without asking Reddit while no subreddit is given, and where a subreddit offers none', async () => {
    const asked = reddit.apiRequests.length;
    expect((await api('GET', `/social-accounts/${account}/setting-options`)).body.data).toEqual({ flairId: { dependsOn: ['subreddit'] } });
    expect(reddit.apiRequests).toHaveLength(asked);
    const none = await api('GET', `/social-accounts/${account}/setting-options?subreddit=AskBaking`);
    expect(none.body.data.flairId).toEqual({ dependsOn: ['subreddit'], unavailable: expect.stringContaining('r/AskBaking lets no one but its moderators') });
  });

  it('checks the subreddit given as the setting is checked (400 with details), before Reddit is asked', async () => {
    const asked = reddit.apiRequests.length;
    const wrong = await api('GET', `/social-accounts/${account}/setting-options?subreddit=${encodeURIComponent('no spaces')}`);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details).toEqual([expect.objectContaining({ field: 'subreddit' })]);
    expect(reddit.apiRequests).toHaveLength(asked);
  });
});

describe('posting', () => {
  it('posts a text post with its title, markdown body, flair, NSFW and spoiler, once, naming the app as Reddit asks', async () => {
    const before = reddit.posts.length;
    const settings = { subreddit: 'r/Baking', title: 'Lemon cake, the easy way', flairId: 'a8d3b0f2-0c2e-11ee-b3f4-5e3a2c1d9f01', nsfw: false, spoiler: true };
    const posted = await publish('**Zest** two lemons first.', 'text', settings);
    expect(posted).toMatchObject({ status: 'published', attempts: 1, remoteUrl: expect.stringMatching(/^https:\/\/www\.reddit\.com\/r\/Baking\/comments\//) });
    expect(reddit.posts).toHaveLength(before + 1);
    expect(reddit.posts.at(-1)).toMatchObject({
      id: posted.remoteId,
      sr: 'Baking',
      author: 'alicebakes',
      kind: 'self',
      title: 'Lemon cake, the easy way',
      text: '**Zest** two lemons first.',
      flair_id: 'a8d3b0f2-0c2e-11ee-b3f4-5e3a2c1d9f01',
      nsfw: false,
      spoiler: true,
    });
    expect(reddit.apiRequests.findLast((call) => call.path === '/api/submit')!.userAgent).toMatch(userAgentForm);
  });

  it('posts a link post to the url setting, with the caption as its body', async () => {
    const posted = await publish('Fresh out of the oven.', 'link', {
      subreddit: 'Baking',
      title: 'My cake recipe',
      url: 'https://alice.example/cake',
      nsfw: true,
    });
    expect(posted).toMatchObject({ status: 'published' });
    expect(reddit.posts.at(-1)).toMatchObject({
      id: posted.remoteId,
      kind: 'link',
      url: 'https://alice.example/cake',
      nsfw: true,
      text: 'Fresh out of the oven.',
    });
  });
});

describe('media posts', () => {
  it('posts an image: leased, uploaded as S3’s form, submitted as kind image with its Location, and found once Reddit made it', async () => {
    const file = await image('jpeg', 320, 240);
    const mediaId = await uploadMedia(file, 'cake.jpg', 'image/jpeg');
    const [before, submitted] = [reddit.posts.length, submits()];
    const posted = await publish('Fresh from the oven.', 'image', { subreddit: 'Baking', title: 'My lemon cake' }, [mediaId]);
    expect(posted, JSON.stringify(posted)).toMatchObject({
      status: 'published',
      remoteUrl: expect.stringMatching(/^https:\/\/www\.reddit\.com\/r\/Baking\/comments\//),
    });
    expect(reddit.posts).toHaveLength(before + 1);
    const post = reddit.posts.at(-1)!;
    expect(post).toMatchObject({ id: posted.remoteId, kind: 'image', title: 'My lemon cake', text: 'Fresh from the oven.' });
    expect(post.media).toEqual({ contentType: 'image/jpeg', bytes: file.length, sha256: sha256(file) });
    expect(submits()).toBe(submitted + 1);
    const lease = reddit.apiRequests.findLast((call) => call.path === '/api/media/asset.json')!;
    expect(lease.userAgent).toMatch(userAgentForm);
    expect([...reddit.uploads.values()].at(-1)).toMatchObject({ filepath: expect.stringMatching(/\.jpg$/), mimetype: 'image/jpeg' });
  });

  it('posts a video with the poster posterMediaId names, waiting while Reddit processes it, submitted once', async () => {
    const [clip, poster] = [await video(320, 240, 2), await image('png', 320, 240)];
    const [videoId, posterId] = [await uploadMedia(clip, 'clip.mp4', 'video/mp4'), await uploadMedia(poster, 'poster.png', 'image/png')];
    reddit.mediaListedAfterReads = 2;
    const reads = () => reddit.apiRequests.filter((call) => call.path.startsWith('/r/Baking/new')).length;
    const [submitted, read] = [submits(), reads()];
    try {
      const posted = await publish('How it is made.', 'video', { subreddit: 'Baking', title: 'Lemon cake, in a minute', posterMediaId: posterId }, [videoId]);
      expect(posted, JSON.stringify(posted)).toMatchObject({ status: 'published', remoteId: reddit.posts.at(-1)!.id });
    } finally {
      reddit.mediaListedAfterReads = 0;
    }
    const post = reddit.posts.at(-1)!;
    expect(post).toMatchObject({ kind: 'video', title: 'Lemon cake, in a minute' });
    expect(post.media).toEqual({ contentType: 'video/mp4', bytes: clip.length, sha256: sha256(clip) });
    expect(post.poster).toEqual({ contentType: 'image/png', bytes: poster.length, sha256: sha256(poster) });
    expect([...reddit.uploads.values()].slice(-2).map(({ filepath, mimetype }) => [filepath.split('.').pop(), mimetype])).toEqual([
      ['mp4', 'video/mp4'],
      ['png', 'image/png'],
    ]);
    // The subreddit was read until the post showed (twice without it, then with it); the submit was never sent again.
    expect(reads() - read).toBe(3);
    expect(submits()).toBe(submitted + 1);
  });

  it('fails a video target without its poster before anything is sent to Reddit', async () => {
    const videoId = await uploadMedia(await video(320, 240, 2), 'bare.mp4', 'video/mp4');
    const asked = reddit.apiRequests.length;
    const posted = await publish('No poster', 'video', { subreddit: 'Baking', title: 'Posterless' }, [videoId]);
    expect(posted).toMatchObject({
      status: 'failed',
      error: { code: 'PROVIDER_REJECTED', message: 'A Reddit video post needs its poster (setting posterMediaId).' },
    });
    expect(reddit.apiRequests.slice(asked).filter((call) => !call.path.startsWith('/api/v1/'))).toEqual([]);
  });
});

describe('refusals', () => {
  it.each([
    [
      'two images in an image post',
      'image',
      [
        ['a.jpg', 'image/jpeg', 'jpeg'],
        ['b.png', 'image/png', 'png'],
      ],
      'media.max',
    ],
    ['an image in the WebP format Reddit does not take', 'image', [['c.webp', 'image/webp', 'webp']], 'media.format'],
    ['an image in a text post', 'text', [['d.jpg', 'image/jpeg', 'jpeg']], 'media.kind'],
  ] as const)('refuses %s by the rules (422 with details), before Reddit is asked', async (_case, placement, files, code) => {
    const mediaIds = [];
    for (const [name, type, format] of files) mediaIds.push(await uploadMedia(await image(format, 64, 64), name, type));
    const [asked, submitted] = [reddit.apiRequests.filter((call) => call.path === '/api/media/asset.json').length, submits()];
    const created = await createPost('Body', placement, { subreddit: 'Baking', title: 'Refused' }, mediaIds);
    expect(created.status, JSON.stringify(created.body)).toBe(422);
    expect(created.body.error.details).toContainEqual(expect.objectContaining({ code }));
    expect(reddit.apiRequests.filter((call) => call.path === '/api/media/asset.json')).toHaveLength(asked);
    expect(submits()).toBe(submitted);
  });

  it.each([
    ['without a title', { subreddit: 'Baking' }],
    ['with a title over 300 characters', { subreddit: 'Baking', title: 'x'.repeat(301) }],
    ['without a subreddit', { title: 'Where to?' }],
  ])('refuses a Reddit target %s by the rules, with details, before Reddit is asked', async (_case, settings) => {
    const submits = reddit.apiRequests.filter((call) => call.path === '/api/submit').length;
    const created = await createPost('Body', 'text', settings);
    expect(created.status).toBe(422);
    expect(created.body.error.details.length).toBeGreaterThan(0);
    expect(reddit.apiRequests.filter((call) => call.path === '/api/submit')).toHaveLength(submits);
  });

  it('fails a link target without its url before Reddit is asked (the settings are checked without the placement)', async () => {
    const submits = reddit.apiRequests.filter((call) => call.path === '/api/submit').length;
    const linkless = await publish('See this', 'link', { subreddit: 'Baking', title: 'A link to nowhere' });
    expect(linkless).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_REJECTED', message: 'A Reddit link post needs the link (setting url).' } });
    expect(reddit.apiRequests.filter((call) => call.path === '/api/submit')).toHaveLength(submits);
  });

  it("fails the target with Reddit's own reason when Reddit refuses inside a 200 (SUBREDDIT_NOEXIST, NO_LINKS)", async () => {
    const missing = await publish('Body', 'text', { subreddit: 'NoSuchBakingSub', title: 'Hello' });
    expect(missing).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_REJECTED', message: expect.stringContaining('SUBREDDIT_NOEXIST') } });
    // A private subreddit's rules cannot be read: its submit answers.
    reddit.subreddits.push({ name: 'QuietBakers', allows: 'self', private: true });
    const textOnly = await publish('See this', 'link', { subreddit: 'QuietBakers', title: 'A link', url: 'https://alice.example/' });
    expect(textOnly).toMatchObject({ status: 'failed', error: { message: expect.stringContaining('that subreddit only allows text posts (NO_LINKS, sr)') } });
  });

  it("fails a post the subreddit's own rules refuse with that rule, before anything is uploaded or submitted", async () => {
    reddit.subreddits.push(
      { name: 'ShortTitles', allows: 'any', titleMax: 20, flairRequired: true, flairs: [{ id: 'd4e6f8a0-0c2e-11ee-b3f4-5e3a2c1d9f04', text: 'Bread' }] },
      { name: 'NoPictures', allows: 'any', allowImages: false, body: 'notAllowed' },
    );
    const [leases, submitted] = [reddit.apiRequests.filter((call) => call.path === '/api/media/asset.json').length, submits()];
    const cases: [string, string, Record<string, unknown>, string[], string][] = [
      ['Body', 'link', { subreddit: 'AskBaking', title: 'A link', url: 'https://alice.example/' }, [], 'r/AskBaking takes text posts only.'],
      ['Body', 'text', { subreddit: 'ShortTitles', title: 'A title longer than twenty' }, [], 'r/ShortTitles takes titles of at most 20 characters.'],
      ['Body', 'text', { subreddit: 'ShortTitles', title: 'Rye' }, [], 'r/ShortTitles requires post flair (setting flairId).'],
      ['Words', 'text', { subreddit: 'NoPictures', title: 'Titled' }, [], 'r/NoPictures takes no body (leave the caption empty).'],
      [
        'Look',
        'image',
        { subreddit: 'NoPictures', title: 'A loaf' },
        [await uploadMedia(await image('png', 64, 64), 'loaf.png', 'image/png')],
        'r/NoPictures takes no image posts.',
      ],
    ];
    for (const [caption, placement, settings, mediaIds, reason] of cases) {
      const posted = await publish(caption, placement, settings, mediaIds);
      expect(posted, reason).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_REJECTED', message: reason } });
    }
    expect(reddit.apiRequests.filter((call) => call.path === '/api/media/asset.json')).toHaveLength(leases);
    expect(submits()).toBe(submitted);
    // Within the rules it goes.
    const fine = await publish('Body', 'text', { subreddit: 'ShortTitles', title: 'Rye', flairId: 'd4e6f8a0-0c2e-11ee-b3f4-5e3a2c1d9f04' });
    expect(fine.status).toBe('published');
  });
});

describe('rate limits and tokens', () => {
  it("waits for the end of Reddit's window after a 429 (X-Ratelimit-Reset), posting nothing meanwhile", async () => {
    const before = reddit.posts.length;
    reddit.throttle = { next: 1, resetSeconds: 120 };
    const { target: waiting, waitedMs } = await publishUntilWaiting(
      api,
      (await createPost('Throttled', 'text', { subreddit: 'Baking', title: 'Throttled' })).body.data.id,
    );
    expect(waiting).toMatchObject({ error: { code: 'RATE_LIMITED_BY_PROVIDER' } });
    expect(waitedMs).toBeGreaterThanOrEqual(120_000);
    expect(waitedMs).toBeLessThan(130_000);
    expect(reddit.posts).toHaveLength(before);
  });

  it('waits as long as a RATELIMIT answered inside a 200 says ("try again in 9 minutes")', async () => {
    const before = reddit.posts.length;
    reddit.submitRateLimited = 1;
    const { target: waiting, waitedMs } = await publishUntilWaiting(
      api,
      (await createPost('Too much', 'text', { subreddit: 'Baking', title: 'Too much' })).body.data.id,
    );
    expect(waiting).toMatchObject({ error: { code: 'RATE_LIMITED_BY_PROVIDER', message: expect.stringContaining('try again in 9 minutes') } });
    expect(waitedMs).toBeGreaterThanOrEqual(9 * 60_000);
    expect(waitedMs).toBeLessThan(9 * 60_000 + 10_000);
    expect(reddit.posts).toHaveLength(before);
  });

  it('refreshes an expired token and posts; a refused refresh token leaves the account to reconnect', async () => {
    const refreshes = () => reddit.requests.filter((request) => request.form.grant_type === 'refresh_token');
    const before = refreshes().length;
    const { refreshToken } = await storedTokens(service, account);
    reddit.expireAccessTokens();
    expect((await publish('After a refresh', 'text', { subreddit: 'Baking', title: 'Refreshed' })).status).toBe('published');
    expect(refreshes()).toHaveLength(before + 1);
    expect(refreshes().at(-1)).toMatchObject({ form: { refresh_token: refreshToken }, authorization: expect.stringMatching(/^Basic /) });

    reddit.expireAccessTokens();
    reddit.revoked.add(refreshToken!);
    const refused = await publish('Not any more', 'text', { subreddit: 'Baking', title: 'Refused' });
    expect(refused).toMatchObject({ status: 'failed', error: { code: 'ACCOUNT_NEEDS_RECONNECT' } });
    expect((await api('GET', `/social-accounts/${account}`)).body.data).toMatchObject({ status: 'NEEDS_RECONNECT' });
    account = (await connect()).ids[0]!;
  });
});

describe('an interrupted submit', () => {
  const adapter = () =>
    new RedditAdapter({
      app: { clientId: reddit.clientId, clientSecret: reddit.clientSecret, apiBaseUrl: reddit.url, authBaseUrl: reddit.url },
      redirectUri: callback,
      timeoutMs: 5000,
      allowedHosts: new Set(['127.0.0.1']),
    });

  async function request(title: string, media: Partial<PublishRequest> = {}): Promise<PublishRequest> {
    return {
      account: { id: account, provider: 'reddit', username: alice.username, remoteId: alice.id, tokens: await storedTokens(service, account) },
      placement: 'text',
      caption: 'Interrupted',
      media: [],
      thread: [],
      firstComment: null,
      settings: { subreddit: 'Baking', title },
      idempotencyKey: crypto.randomUUID(),
      checkpoint: keptCheckpoint({ done: {}, started: 'submit' }),
      signal: new AbortController().signal,
      ...media,
    };
  }

  it("finds the post a submit cut off made (the subreddit's newest, by the account, with the title) instead of posting again", async () => {
    const title = `Made once ${crypto.randomUUID()}`;
    reddit.holdSubmit = () => true;
    const cutOff = adapter().publish({ ...(await request(title)), checkpoint: keptCheckpoint(), signal: AbortSignal.timeout(500) });
    await expect(cutOff).rejects.toThrow();
    reddit.holdSubmit = undefined;
    const before = reddit.posts.length;
    const again = await adapter().publish(await request(title));
    expect(again).toMatchObject({ status: 'published', item: { remoteId: reddit.posts.at(-1)!.id } });
    expect(reddit.posts).toHaveLength(before);
  });

  it('submits when the subreddit shows no such post', async () => {
    const before = reddit.posts.length;
    const made = await adapter().publish(await request(`Never made ${crypto.randomUUID()}`));
    expect(made.status).toBe('published');
    expect(reddit.posts).toHaveLength(before + 1);
  });

  it('looks an interrupted media submit up and, while Reddit has not made the post yet, waits for it instead of submitting again', async () => {
    const file = await image('png', 64, 64);
    const title = `Image once ${crypto.randomUUID()}`;
    const checkpoint = keptCheckpoint();
    const media = { placement: 'image', media: [publishMedia(file, { kind: 'image', mimeType: 'image/png' })], checkpoint };
    reddit.holdSubmit = () => true;
    reddit.mediaListedAfterReads = 1;
    try {
      await expect(adapter().publish({ ...(await request(title, media)), signal: AbortSignal.timeout(2000) })).rejects.toThrow();
      expect(checkpoint.saved).toMatchObject({ started: 'submit', done: { 'media:lease': expect.anything(), 'media:upload': expect.any(String) } });
      reddit.holdSubmit = undefined;
      const [before, submitted] = [reddit.posts.length, submits()];
      const again = await adapter().publish(await request(title, media));
      expect(again).toEqual({ status: 'processing', handle: 'submitted', checkAfterMs: expect.any(Number) });
      const found = await adapter().checkStatus(await request(title, media), 'submitted');
      expect(found).toMatchObject({ status: 'published', item: { remoteId: reddit.posts.at(-1)!.id } });
      expect(reddit.posts).toHaveLength(before);
      expect(submits()).toBe(submitted);
      expect(reddit.posts.at(-1)!.media).toMatchObject({ sha256: sha256(file) });
    } finally {
      reddit.holdSubmit = undefined;
      reddit.mediaListedAfterReads = 0;
    }
  });
});
