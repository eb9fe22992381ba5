// Google Business Profile end to end against its stand-in (test/support/googleBusiness.ts): connecting through Google's
// OAuth (business.manage, offline, consent, PKCE) makes one account per location, across every page of accounts and
// locations; updates, offers and events with their button, coupon and dates, and a photo Google fetches; refusals by
// the rules (a summary over 1,500 characters, two photos, a video, a button without its link) and by Google (a photo
// it cannot fetch: 400 INVALID_ARGUMENT's fieldViolations); Google's 429 waited; a refused token leading to
// NEEDS_RECONNECT; a post Google reviews (PROCESSING) read again; an interrupted create looked up rather than posted
// twice; and Google's own clients reading the stand-in's accounts and locations.
import { createHash } from 'node:crypto';
import { auth, mybusinessaccountmanagement } from '@googleapis/mybusinessaccountmanagement';
import { mybusinessbusinessinformation } from '@googleapis/mybusinessbusinessinformation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishRequest } from '../../src/providers/adapter.ts';
import { GoogleBusinessAdapter } from '../../src/providers/google_business/adapter.ts';
import type { CheckpointState } from '../../src/providers/kit/steps.ts';
import { keptCheckpoint } from '../support/checkpoints.ts';
import { crashPublicBaseUrl as publicBaseUrl, uploadMedia } from '../support/crashTests.ts';
import { createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { businessManage, GoogleBusinessStandIn } from '../support/googleBusiness.ts';
import { image, video } from '../support/mediaFiles.ts';
import { connectByOAuth, connectRefusal } from '../support/oauthConnect.ts';
import { OAuthBrowser } from '../support/oauthBrowser.ts';
import { apiFor, publishUntilWaiting, waitForPost, type Api } from '../support/posts.ts';
import { startTestService, storedTokens, type TestService } from '../support/service.ts';

const callback = `${publicBaseUrl}/oauth/callback/google_business`;
const owner = { id: '108234567890123456789', name: 'Bea Baker', username: 'bea@example.test' };
const accounts = [
  {
    id: 'accounts/1234567890',
    accountName: 'Bea Baker',
    locations: [
      { id: '9911223344', title: 'Bea’s Bakery', locality: 'Berlin' },
      { id: '9911223345', title: 'Bea’s Bakery', locality: 'Potsdam' },
    ],
  },
  { id: 'accounts/2234567890', accountName: 'Bea’s Cafés', locations: [{ id: '8811223344', title: 'Café Bea' }] },
];

let google: GoogleBusinessStandIn;
let service: TestService;
let workspace: TestWorkspace;
let api: Api;
let account: string;

beforeAll(async () => {
  google = await new GoogleBusinessStandIn([callback], owner).start();
  google.accounts.set(owner.id, accounts);
  service = await startTestService({ PUBLIC_BASE_URL: publicBaseUrl, NETWORK_ALLOWED_HOSTS: '127.0.0.1', ...google.env });
  google.mediaOrigin = { from: publicBaseUrl, to: service.url };
  workspace = await createWorkspace(service.services);
  api = apiFor(service.url, workspace.ownerKey);
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await google?.stop();
});

const berlin = 'accounts/1234567890/locations/9911223344';

async function createPost(caption: string, placement: string, settings: Record<string, unknown> = {}, mediaIds: string[] = []) {
  return api('POST', '/posts', { content: { caption, mediaIds }, targets: [{ connectionId: account, placement, settings }] });
}

async function publish(caption: string, placement: string, settings: Record<string, unknown> = {}, mediaIds: string[] = []) {
  const created = await createPost(caption, placement, settings, mediaIds);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await api('POST', `/posts/${created.body.data.id}/publish`);
  return (await waitForPost(api, created.body.data.id, ['published', 'failed'])).targets[0];
}

const event = { eventTitle: 'Sourdough workshop', startDate: '2027-03-06', startTime: '10:00', endDate: '2027-03-06', endTime: '13:30' };

describe('GET /v1/providers', () => {
  it('lists Google Business Profile, configured, with its three placements, one photo, 1,500 characters and no inbox (reviews are not comments)', async () => {
    const { body } = await api('GET', '/providers');
    const entry = body.data.find((candidate: { provider: string }) => candidate.provider === 'google_business');
    expect(entry).toMatchObject({ displayName: 'Google Business Profile', configured: true, connection: { method: 'oauth2' } });
    expect(
      entry.placements.map((placement: { name: string; caption: { maxLength: number }; media: { max: number } }) => [
        placement.name,
        placement.caption.maxLength,
        placement.media.max,
      ]),
    ).toEqual([
      ['update', 1500, 1],
      ['offer', 1500, 1],
      ['event', 1500, 1],
    ]);
    expect(entry.inbox).toEqual({ available: false, reason: expect.stringContaining('reviews, not comments') });
  });
});

describe('connecting Google Business Profile', () => {
  it('asks Google for business.manage offline with consent and PKCE, and connects every location the person manages, across every page', async () => {
    google.pageSizeCap = 1;
    try {
      const started = await api('POST', '/social-accounts/connect', { provider: 'google_business' });
      expect(started.status, JSON.stringify(started.body)).toBe(201);
      const person = new OAuthBrowser(service.url, publicBaseUrl);
      const authorization = await person.start(started.body.data.authorizationUrl);
      expect(authorization.origin + authorization.pathname).toBe(`${google.url}/o/oauth2/v2/auth`);
      expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
        scope: businessManage,
        access_type: 'offline',
        prompt: 'consent',
        code_challenge_method: 'S256',
        redirect_uri: callback,
      });
      const back = await person.callback((await fetch(authorization, { redirect: 'manual' })).headers.get('location')!);
      const ids = back.location!.searchParams.getAll('connectionId');
      expect(ids).toHaveLength(3);
      const exchange = google.requests.findLast((request) => request.path === '/token')!;
      expect(exchange.form).toMatchObject({ grant_type: 'authorization_code', client_secret: google.clientSecret, redirect_uri: callback });
      const connected = await Promise.all(ids.map(async (id) => (await api('GET', `/social-accounts/${id}`)).body.data));
      expect(connected.map(({ provider, username, displayName, status }) => ({ provider, username, displayName, status }))).toEqual([
        { provider: 'google_business', username: '9911223344', displayName: 'Bea’s Bakery (Berlin)', status: 'ACTIVE' },
        { provider: 'google_business', username: '9911223345', displayName: 'Bea’s Bakery (Potsdam)', status: 'ACTIVE' },
        { provider: 'google_business', username: '8811223344', displayName: 'Café Bea', status: 'ACTIVE' },
      ]);
      // Every page of accounts and of each account's locations was read, each with the read mask.
      const listed = google.apiRequests.filter((request) => request.method === 'GET').map((request) => request.path);
      expect(listed).toContain('/v1/accounts?pageToken=1');
      expect(listed).toContain('/v1/accounts/1234567890/locations?readMask=name,title,storefrontAddress&pageSize=100&pageToken=1');
      account = ids[0]!;
    } finally {
      google.pageSizeCap = Number.POSITIVE_INFINITY;
    }
  });

  it('refuses a Google account that manages no location, and a grant without business.manage; no account is made', async () => {
    const before = (await api('GET', '/social-accounts?limit=100')).body.data.length;
    google.user = { id: '108000000000000000001', name: 'No Shop', username: 'noshop@example.test' };
    try {
      expect(await connectRefusal(service, publicBaseUrl, api, 'google_business')).toContain('this Google account manages no business locations');
      google.user = owner;
      google.grantable = [];
      expect(await connectRefusal(service, publicBaseUrl, api, 'google_business')).toContain(`Google Business Profile did not grant ${businessManage}`);
    } finally {
      google.user = owner;
      google.grantable = undefined;
    }
    expect((await api('GET', '/social-accounts?limit=100')).body.data).toHaveLength(before);
  });
});

describe('posting', () => {
  it('posts a “What’s new” update with its button, once, and keeps the post’s name and Google search link', async () => {
    const before = google.posts.length;
    const posted = await publish('Fresh rye every morning from 7.', 'update', { button: 'ORDER', buttonUrl: 'https://bea.example/order' });
    expect(google.posts).toHaveLength(before + 1);
    const made = google.posts.at(-1)!;
    expect(made).toMatchObject({
      parent: berlin,
      body: { topicType: 'STANDARD', summary: 'Fresh rye every morning from 7.', callToAction: { actionType: 'ORDER', url: 'https://bea.example/order' } },
    });
    expect(posted).toMatchObject({ status: 'published', attempts: 1, remoteId: made.name, remoteUrl: made.searchUrl });
  });

  it('posts an offer with its coupon, terms and dates, leaving out the button Google ignores on offers', async () => {
    const offer = { couponCode: 'RYE-2027', redeemOnlineUrl: 'https://bea.example/redeem', termsConditions: 'One loaf per customer.' };
    const posted = await publish('Two loaves for one.', 'offer', {
      eventTitle: 'Rye week',
      startDate: '2027-03-01',
      endDate: '2027-03-07',
      ...offer,
      button: 'SHOP',
      buttonUrl: 'https://bea.example/shop',
    });
    expect(posted.status).toBe('published');
    expect(google.posts.at(-1)!.body).toEqual({
      topicType: 'OFFER',
      summary: 'Two loaves for one.',
      event: { title: 'Rye week', schedule: { startDate: { year: 2027, month: 3, day: 1 }, endDate: { year: 2027, month: 3, day: 7 } } },
      offer,
    });
  });

  it('posts an event with its start and end times, and a CALL button without a link', async () => {
    const posted = await publish('Learn to bake sourdough.', 'event', { ...event, button: 'CALL' });
    expect(posted.status).toBe('published');
    expect(google.posts.at(-1)!.body).toMatchObject({
      topicType: 'EVENT',
      event: {
        title: 'Sourdough workshop',
        schedule: {
          startDate: { year: 2027, month: 3, day: 6 },
          startTime: { hours: 10, minutes: 0, seconds: 0, nanos: 0 },
          endDate: { year: 2027, month: 3, day: 6 },
          endTime: { hours: 13, minutes: 30, seconds: 0, nanos: 0 },
        },
      },
      callToAction: { actionType: 'CALL' },
    });
  });

  it('posts an update with one photo, which Google fetches from the signed media URL', async () => {
    const photo = await image('jpeg', 400, 300);
    const mediaId = await uploadMedia(api, service.url, { bytes: photo, filename: 'rye.jpg', contentType: 'image/jpeg' });
    const posted = await publish('Our rye.', 'update', {}, [mediaId]);
    expect(posted.status).toBe('published');
    const made = google.posts.at(-1)!;
    expect(made.body.media).toEqual([{ mediaFormat: 'PHOTO', sourceUrl: expect.stringMatching(new RegExp(`^${publicBaseUrl}/`)) }]);
    expect(made.photo).toMatchObject({ contentType: 'image/jpeg', sha256: createHash('sha256').update(photo).digest('hex') });
  });
});

describe('refusals', () => {
  it.each([
    ['a summary over 1,500 characters', 'x'.repeat(1501), {}, 'caption'],
    ['a button other than CALL without its link', 'Book now', { button: 'BOOK' }, 'settings.buttonUrl'],
    ['a CALL button with a link', 'Call us', { button: 'CALL', buttonUrl: 'https://bea.example/' }, 'settings.button'],
    ['a link without its button', 'See', { buttonUrl: 'https://bea.example/' }, 'settings.button'],
    ['an event start without its title and end', 'Soon', { startDate: '2027-03-06' }, 'settings.eventTitle'],
    ['an event title over 58 characters', 'Soon', { ...event, eventTitle: 'x'.repeat(59) }, 'settings.eventTitle'],
    ['an event date not in YYYY-MM-DD', 'Soon', { ...event, startDate: '6.3.2027' }, 'settings.startDate'],
  ])('refuses an update with %s by the rules, with details, before Google is asked', async (_case, caption, settings, field) => {
    const creates = google.apiRequests.filter((request) => request.method === 'POST').length;
    const created = await createPost(caption, 'update', settings);
    expect(created.status).toBe(422);
    expect(created.body.error.details.map((detail: { field: string }) => detail.field)).toContainEqual(expect.stringContaining(field));
    expect(google.apiRequests.filter((request) => request.method === 'POST')).toHaveLength(creates);
  });

  it('refuses two photos, and a video, by the rules (one photo a post)', async () => {
    const [a, b] = [await image('png', 300, 300), await image('png', 320, 300)];
    const photos = [
      await uploadMedia(api, service.url, { bytes: a, filename: 'a.png', contentType: 'image/png' }),
      await uploadMedia(api, service.url, { bytes: b, filename: 'b.png', contentType: 'image/png' }),
    ];
    expect((await createPost('Two', 'update', {}, photos)).status).toBe(422);
    const clip = await uploadMedia(api, service.url, { bytes: await video(320, 240, 1), filename: 'clip.mp4', contentType: 'video/mp4' });
    const refused = await createPost('A clip', 'update', {}, [clip]);
    expect(refused.status).toBe(422);
    expect(refused.body.error.details.length).toBeGreaterThan(0);
  });

  it('fails an event without its title and dates before Google is asked (the settings are checked without the placement)', async () => {
    const creates = google.apiRequests.filter((request) => request.method === 'POST').length;
    const failed = await publish('When?', 'event');
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: 'PROVIDER_REJECTED', message: expect.stringContaining('needs its title, start and end date') },
    });
    expect(google.apiRequests.filter((request) => request.method === 'POST')).toHaveLength(creates);
  });

  it("fails the target with Google's fieldViolations when Google cannot fetch the photo (PUBLIC_BASE_URL not reachable)", async () => {
    const mediaId = await uploadMedia(api, service.url, { bytes: await image('jpeg', 300, 300), filename: 'p.jpg', contentType: 'image/jpeg' });
    const origin = google.mediaOrigin;
    google.mediaOrigin = undefined;
    try {
      const failed = await publish('Unreachable photo', 'update', {}, [mediaId]);
      expect(failed).toMatchObject({
        status: 'failed',
        error: { code: 'PROVIDER_REJECTED', message: expect.stringContaining('media[0].source_url: The photo could not be fetched') },
      });
    } finally {
      google.mediaOrigin = origin;
    }
  });
});

describe('rate limits and tokens', () => {
  it("waits a minute after Google's 429 RESOURCE_EXHAUSTED, which names no delay (the quotas are per minute), posting nothing meanwhile", async () => {
    const before = google.posts.length;
    google.throttle = { next: 1 };
    const { target, waitedMs } = await publishUntilWaiting(api, (await createPost('Throttled', 'update')).body.data.id);
    expect(target).toMatchObject({ error: { code: 'RATE_LIMITED_BY_PROVIDER', message: expect.stringContaining("limit 'Requests per minute'") } });
    expect(waitedMs).toBeGreaterThanOrEqual(60_000);
    expect(waitedMs).toBeLessThan(70_000);
    expect(google.posts).toHaveLength(before);
  });

  it('waits as long as a google.rpc.RetryInfo says where Google gives one', async () => {
    google.throttle = { next: 1, retryDelay: '150s' };
    const { waitedMs } = await publishUntilWaiting(api, (await createPost('Throttled longer', 'update')).body.data.id);
    expect(waitedMs).toBeGreaterThanOrEqual(150_000);
    expect(waitedMs).toBeLessThan(160_000);
  });

  it('refreshes an expired token and posts; a refused refresh token leaves the account to reconnect', async () => {
    const refreshes = () => google.requests.filter((request) => request.form.grant_type === 'refresh_token');
    const before = refreshes().length;
    const { refreshToken } = await storedTokens(service, account);
    google.expireAccessTokens();
    expect((await publish('After a refresh', 'update')).status).toBe('published');
    expect(refreshes()).toHaveLength(before + 1);
    expect(refreshes().at(-1)!.form).toMatchObject({ refresh_token: refreshToken, client_secret: google.clientSecret });

    google.expireAccessTokens();
    google.revoked.add(refreshToken!);
    const refused = await publish('Not any more', 'update');
    expect(refused).toMatchObject({ status: 'failed', error: { code: 'ACCOUNT_NEEDS_RECONNECT' } });
    expect((await api('GET', `/social-accounts/${account}`)).body.data).toMatchObject({ status: 'NEEDS_RECONNECT' });
    account = await connectByOAuth(service, publicBaseUrl, api, 'google_business');
  });
});

describe('the adapter, attempt by attempt', () => {
  const adapter = () =>
    new GoogleBusinessAdapter({
      app: { clientId: google.clientId, clientSecret: google.clientSecret, apiBaseUrl: google.url, authBaseUrl: google.url, tokenBaseUrl: google.url },
      redirectUri: callback,
      timeoutMs: 5000,
      allowedHosts: new Set(['127.0.0.1']),
    });

  async function request(caption: string, saved?: CheckpointState): Promise<PublishRequest> {
    return {
      account: { id: account, provider: 'google_business', username: '9911223344', remoteId: berlin, tokens: await storedTokens(service, account) },
      placement: 'update',
      caption,
      media: [],
      thread: [],
      firstComment: null,
      settings: {},
      idempotencyKey: crypto.randomUUID(),
      checkpoint: keptCheckpoint(saved),
      signal: new AbortController().signal,
    };
  }

  it('waits while Google reviews a post (PROCESSING) and publishes it once a later attempt reads it LIVE; a REJECTED one fails', async () => {
    google.review = { created: 'PROCESSING', reviewed: 'LIVE' };
    try {
      const first = await request(`Reviewed ${crypto.randomUUID()}`);
      expect(await adapter().publish(first)).toMatchObject({ status: 'processing', handle: google.posts.at(-1)!.name });
      const before = google.posts.length;
      const again = await adapter().publish({ ...first, checkpoint: keptCheckpoint(first.checkpoint.saved) });
      expect(again).toMatchObject({ status: 'published', item: { remoteId: google.posts.at(-1)!.name, remoteUrl: google.posts.at(-1)!.searchUrl } });
      expect(google.posts).toHaveLength(before);

      google.review = { created: 'PROCESSING', reviewed: 'REJECTED' };
      const rejected = await request(`Rejected ${crypto.randomUUID()}`);
      await adapter().publish(rejected);
      await expect(adapter().publish({ ...rejected, checkpoint: keptCheckpoint(rejected.checkpoint.saved) })).rejects.toMatchObject({
        code: 'PROVIDER_REJECTED',
        message: expect.stringContaining('REJECTED'),
      });
    } finally {
      google.review = { created: 'LIVE', reviewed: 'LIVE' };
    }
  });

  it("finds the post a create cut off made (the location's newest, same topic and summary, made since the first attempt) instead of posting again", async () => {
    const caption = `Made once ${crypto.randomUUID()}`;
    google.holdCreate = () => true;
    const cutOff = await request(caption);
    await expect(adapter().publish({ ...cutOff, signal: AbortSignal.timeout(500) })).rejects.toThrow();
    google.holdCreate = undefined;
    expect(cutOff.checkpoint.saved).toMatchObject({ started: 'create', done: { since: expect.any(Number) } });
    const before = google.posts.length;
    const again = await adapter().publish(await request(caption, cutOff.checkpoint.saved));
    expect(again).toMatchObject({ status: 'published', item: { remoteId: google.posts.at(-1)!.name } });
    expect(google.posts).toHaveLength(before);
  });

  it('creates the post when the location shows no such post', async () => {
    const before = google.posts.length;
    const made = await adapter().publish(await request(`Never made ${crypto.randomUUID()}`, { done: { since: Date.now() }, started: 'create' }));
    expect(made.status).toBe('published');
    expect(google.posts).toHaveLength(before + 1);
  });
});

describe("Google's own clients against the stand-in", () => {
  it('list the accounts and their locations as @googleapis/mybusinessaccountmanagement and -businessinformation call them', async () => {
    const { accessToken } = await storedTokens(service, account);
    const oauth2 = new auth.OAuth2(google.clientId, google.clientSecret, callback);
    oauth2.setCredentials({ access_token: accessToken });
    const rootUrl = `${google.url}/`;
    const listed = await mybusinessaccountmanagement({ version: 'v1', auth: oauth2, rootUrl }).accounts.list();
    expect(listed.data.accounts?.map((entry) => entry.name)).toEqual(['accounts/1234567890', 'accounts/2234567890']);
    const information = mybusinessbusinessinformation({ version: 'v1', auth: oauth2, rootUrl });
    const locations = await information.accounts.locations.list({ parent: 'accounts/1234567890', readMask: 'name,title,storefrontAddress' });
    expect(locations.data.locations).toEqual([
      { name: 'locations/9911223344', title: 'Bea’s Bakery', storefrontAddress: expect.objectContaining({ locality: 'Berlin' }) },
      { name: 'locations/9911223345', title: 'Bea’s Bakery', storefrontAddress: expect.objectContaining({ locality: 'Potsdam' }) },
    ]);
    // Without the read mask Google refuses, and the client reads the refusal as Google's.
    await expect(information.accounts.locations.list({ parent: 'accounts/1234567890' })).rejects.toMatchObject({
      status: 400,
      message: 'Request contains an invalid argument.',
    });
  });
});
