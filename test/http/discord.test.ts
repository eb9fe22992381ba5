// Discord end to end against its stand-in (test/support/discord.ts): connecting a server through a bot authorization
// (the bot and identify scopes, the bot's permissions, HTTP Basic; the server the token answer names becomes the
// account) and its refusals, the server's channels as the `channel` setting's options, text, an image and a video as
// attachments with alt text, link previews suppressed, refusals by the rules before Discord is asked and by the
// service for a channel of another server, a 429 waited for as long as retry_after says, the bot's token refused and
// the bot removed from the server leading to NEEDS_RECONNECT, an interrupted send posting once (the nonce within
// Discord's window, the channel's messages beyond it), and the stand-in held to @discordjs/rest, Discord's own client.
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DiscordAPIError, RateLimitError, REST } from '@discordjs/rest';
import { type APIMessage, Routes } from 'discord-api-types/v10';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { image, video } from '../support/mediaFiles.ts';
import { keptCheckpoint } from '../support/checkpoints.ts';
import { connectByOAuth, connectRefusal } from '../support/oauthConnect.ts';
import { crashPublicBaseUrl, uploadMedia as uploadLibraryFile } from '../support/crashTests.ts';
import { DiscordStandIn } from '../support/discord.ts';
import { OAuthBrowser } from '../support/oauthBrowser.ts';
import { DiscordAdapter, nonceWindowMs } from '../../src/providers/discord/adapter.ts';
import type { ProviderTokens, PublishMedia, PublishRequest } from '../../src/providers/adapter.ts';
import type { CheckpointState } from '../../src/providers/kit/steps.ts';

const publicBaseUrl = crashPublicBaseUrl;
const callback = `${publicBaseUrl}/oauth/callback/discord`;
const bakery = { id: '613425648685547541', name: 'Bakery Friends', icon: 'a_8a2b1c' };
const news = '613425648685547600';
const announcements = '613425648685547601';
const elsewhere = { id: '700000000000000001', name: 'Other Server' };
const elsewhereChannel = '700000000000000100';

let discord: DiscordStandIn;
let service: TestService;
let workspace: TestWorkspace;
let api: Api;
let account: string;

beforeAll(async () => {
  discord = await DiscordStandIn.start([callback]);
  discord.addGuild(bakery, [
    { id: '613425648685547599', name: 'Text channels', type: 4, position: 0 },
    { id: announcements, name: 'announcements', type: 5, position: 2 },
    { id: news, name: 'news', type: 0, position: 1 },
    { id: '613425648685547602', name: 'Voice', type: 2, position: 3 },
  ]);
  // Another workspace's server, which the operator's bot is in too.
  discord.addGuild({ ...elsewhere, botMember: true }, [{ id: elsewhereChannel, name: 'general', type: 0, position: 0 }]);
  service = await startTestService({ PUBLIC_BASE_URL: publicBaseUrl, ...discord.env, NETWORK_ALLOWED_HOSTS: '127.0.0.1' });
  workspace = await createWorkspace(service.services);
  api = apiFor(service.url, workspace.ownerKey);
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await discord?.stop();
});

/** The person adds the bot to `guildId` on Discord's authorization page. */
function connect(guildId: string | undefined = bakery.id): Promise<string> {
  discord.chosenGuild = guildId;
  return connectByOAuth(service, publicBaseUrl, api, 'discord');
}

const uploadMedia = (bytes: Buffer, filename: string, contentType: string) => uploadLibraryFile(api, service.url, { bytes, filename, contentType });

const post = (caption: string, settings: Record<string, unknown>, mediaIds: string[] = []) =>
  api('POST', '/posts', { content: { caption, mediaIds }, targets: [{ connectionId: account, placement: 'feed', settings }] });

async function publish(caption: string, settings: Record<string, unknown>, mediaIds: string[] = []) {
  const created = await post(caption, settings, mediaIds);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await api('POST', `/posts/${created.body.data.id}/publish`);
  return (await waitForPost(api, created.body.data.id, ['published', 'failed'])).targets[0];
}

const sendsTo = (channel: string) => discord.apiRequests.filter((call) => call.method === 'POST' && call.path === `/channels/${channel}/messages`).length;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function storedTokens(connectionId: string): Promise<ProviderTokens> {
  const { rows } = await service.services.db.pool.query('SELECT encrypted_tokens FROM social_account WHERE id = $1', [connectionId]);
  return JSON.parse(service.services.secrets.open(rows[0].encrypted_tokens));
}

describe('an installation without the bot', () => {
  it('shows Discord not configured without DISCORD_BOT_TOKEN, and connecting answers 409 naming the three settings', async () => {
    const { DISCORD_BOT_TOKEN: _left, ...withoutBot } = discord.env;
    const botless = await startTestService({ PUBLIC_BASE_URL: publicBaseUrl, ...withoutBot });
    try {
      const owner = apiFor(botless.url, (await createWorkspace(botless.services)).ownerKey);
      const entry = (await owner('GET', '/providers')).body.data.find((provider: any) => provider.provider === 'discord');
      expect(entry).toMatchObject({
        displayName: 'Discord',
        configured: false,
        requiredSettings: ['DISCORD_CLIENT_ID', 'DISCORD_CLIENT_SECRET', 'DISCORD_BOT_TOKEN'],
      });
      const refused = await owner('POST', '/social-accounts/connect', { provider: 'discord' });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ code: 'PROVIDER_NOT_CONFIGURED' });
      expect(refused.body.error.message).toContain('DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET and DISCORD_BOT_TOKEN');
    } finally {
      await botless.stop();
    }
  });
});

describe('connecting a server', () => {
  it('adds the bot with its permissions through a code grant, and connects the server the token answer names', async () => {
    discord.chosenGuild = bakery.id;
    const started = await api('POST', '/social-accounts/connect', { provider: 'discord' });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const person = new OAuthBrowser(service.url, publicBaseUrl);
    const authorization = await person.start(started.body.data.authorizationUrl);
    expect(authorization.origin + authorization.pathname).toBe(`${discord.url}/oauth2/authorize`);
    expect(authorization.searchParams.get('scope')).toBe('bot identify');
    // View Channel, Send Messages, Embed Links and Attach Files.
    expect(authorization.searchParams.get('permissions')).toBe(String(0x400 + 0x800 + 0x4000 + 0x8000));
    const back = await person.callback((await fetch(authorization, { redirect: 'manual' })).headers.get('location')!);
    account = back.location!.searchParams.get('connectionId')!;
    expect(account, back.location?.href).toBeTruthy();

    const exchange = discord.requests.findLast((request) => request.path === '/api/v10/oauth2/token')!;
    expect(exchange).toMatchObject({ form: { grant_type: 'authorization_code', redirect_uri: callback }, authorization: expect.stringMatching(/^Basic /) });
    expect(discord.apiRequests.findLast((call) => call.path === `/guilds/${bakery.id}`)).toMatchObject({ scheme: 'Bot' });
    const connected = (await api('GET', `/social-accounts/${account}`)).body.data;
    expect(connected).toMatchObject({ provider: 'discord', username: bakery.name, displayName: bakery.name, status: 'ACTIVE' });
    expect(discord.guilds.get(bakery.id)!.botMember).toBe(true);
    // The person's own token is kept only to revoke it: it never expires here, so nothing refreshes it.
    expect(await storedTokens(account)).not.toHaveProperty('expiresAt');
  });

  it('connects no server when the authorization added the bot to none, or the person refused', async () => {
    const before = (await api('GET', '/social-accounts?limit=100')).body.data.length;
    discord.chosenGuild = undefined;
    expect(await connectRefusal(service, publicBaseUrl, api, 'discord')).toContain('Discord added the bot to no server');
    discord.deny = true;
    try {
      expect(await connectRefusal(service, publicBaseUrl, api, 'discord')).toBeTruthy();
    } finally {
      discord.deny = false;
    }
    expect((await api('GET', '/social-accounts?limit=100')).body.data).toHaveLength(before);
  });

  it("lists the server's text and announcement channels, in Discord's order, as the channel setting's options", async () => {
    const { status, body } = await api('GET', `/social-accounts/${account}/setting-options`);
    expect(status).toBe(200);
    expect(body.data).toEqual({
      channel: {
        choices: [
          { value: news, label: '#news' },
          { value: announcements, label: '#announcements' },
        ],
      },
    });
    expect(JSON.stringify(body)).not.toContain(discord.botToken);
  });
});

describe('posting', () => {
  it('posts a text message as the bot, with a nonce Discord checks, naming the client as Discord asks', async () => {
    const posted = await publish('Fresh bread at 7 https://bakery.example/today', { channel: news });
    expect(posted).toMatchObject({ status: 'published', attempts: 1 });
    const message = discord.messages.at(-1)!;
    expect(posted.remoteId).toBe(message.id);
    expect(posted.remoteUrl).toBe(`https://discord.com/channels/${bakery.id}/${news}/${message.id}`);
    expect(message).toMatchObject({ channelId: news, authorId: discord.bot.id, content: 'Fresh bread at 7 https://bakery.example/today', flags: 0 });
    expect(message.nonce).toMatch(/^[A-Za-z0-9_-]{25}$/);
    const send = discord.apiRequests.findLast((call) => call.path === `/channels/${news}/messages`)!;
    expect(send).toMatchObject({ scheme: 'Bot', userAgent: `DiscordBot (${publicBaseUrl}, 1.0.0)` });
  });

  it('sends an image and a video as attachments with their alt text, and suppresses link previews when asked', async () => {
    const photo = await image('png', 64, 48);
    const clip = await video(160, 120, 1);
    const photoId = await uploadMedia(photo, 'loaf.png', 'image/png');
    const clipId = await uploadMedia(clip, 'oven.mp4', 'video/mp4');
    expect((await api('PUT', `/media/${photoId}/alt-text`, { altText: 'A sourdough loaf' })).status).toBe(200);
    const posted = await publish('Today: https://bakery.example/', { channel: announcements, suppressEmbeds: true }, [photoId, clipId]);
    expect(posted).toMatchObject({ status: 'published' });
    const message = discord.messages.at(-1)!;
    expect(message).toMatchObject({ channelId: announcements, content: 'Today: https://bakery.example/', flags: 4 });
    expect(message.attachments).toEqual([
      expect.objectContaining({ filename: `${photoId}.png`, description: 'A sourdough loaf', contentType: 'image/png', sha256: sha256(photo) }),
      expect.objectContaining({ filename: `${clipId}.mp4`, description: null, contentType: 'video/mp4', sha256: sha256(clip) }),
    ]);
  });
});

describe('refusals', () => {
  it.each([
    ['a message over 2,000 characters', 'x'.repeat(2001), { channel: news }],
    ['no channel', 'Hello', {}],
    ['a channel that is not an id', 'Hello', { channel: '#news' }],
  ])('refuses %s by the rules, with details, before Discord is asked', async (_case, caption, settings) => {
    const asked = discord.apiRequests.length;
    const created = await post(caption, settings);
    expect(created.status).toBe(422);
    expect(created.body.error.details.length).toBeGreaterThan(0);
    expect(discord.apiRequests).toHaveLength(asked);
  });

  it('fails a target naming a channel of another server the bot is in, posting nothing there', async () => {
    const failed = await publish('Not yours', { channel: elsewhereChannel });
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: 'PROVIDER_REJECTED', message: expect.stringContaining('not one of the connected server') },
    });
    expect(sendsTo(elsewhereChannel)).toBe(0);
  });

  it("fails a target whose channel Discord no longer knows with Discord's reason (10003)", async () => {
    const failed = await publish('Gone', { channel: '613425648685547999' });
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_REJECTED', message: expect.stringContaining('Unknown Channel (10003)') } });
  });
});

describe('rate limits and refusals of the bot', () => {
  it('waits as long as a 429 says (retry_after), posting nothing meanwhile', async () => {
    const before = discord.messages.length;
    discord.throttle = { next: 1, retryAfter: 64.57, scope: 'user' };
    const created = await post('Throttled', { channel: news });
    const asked = Date.now();
    await api('POST', `/posts/${created.body.data.id}/publish`);
    let target: any;
    for (let i = 0; i < 100 && !target?.waitingUntil; i++, await sleep(100)) target = (await api('GET', `/posts/${created.body.data.id}`)).body.data.targets[0];
    expect(target).toMatchObject({ error: { code: 'RATE_LIMITED_BY_PROVIDER', message: expect.stringContaining('You are being rate limited.') } });
    const waitedMs = Date.parse(target.waitingUntil) - asked;
    expect(waitedMs).toBeGreaterThanOrEqual(64_570);
    expect(waitedMs).toBeLessThan(75_000);
    expect(discord.messages).toHaveLength(before);
  });

  it("leaves the account to reconnect when Discord refuses the bot's token (401)", async () => {
    discord.botTokenReset = true;
    try {
      const refused = await publish('Token reset', { channel: news });
      expect(refused).toMatchObject({ status: 'failed', error: { code: 'ACCOUNT_NEEDS_RECONNECT', message: expect.stringContaining('DISCORD_BOT_TOKEN') } });
      expect((await api('GET', `/social-accounts/${account}`)).body.data).toMatchObject({ status: 'NEEDS_RECONNECT' });
    } finally {
      discord.botTokenReset = false;
    }
    account = await connect();
  });

  it('leaves the account to reconnect when the bot was removed from the server (403 Missing Access), and posts once it is back', async () => {
    discord.guilds.get(bakery.id)!.botMember = false;
    const refused = await publish('Kicked', { channel: news });
    expect(refused).toMatchObject({ status: 'failed', error: { code: 'ACCOUNT_NEEDS_RECONNECT', message: expect.stringContaining('Missing Access (50001)') } });
    expect((await api('GET', `/social-accounts/${account}`)).body.data).toMatchObject({ status: 'NEEDS_RECONNECT' });
    account = await connect();
    expect(await publish('Back again', { channel: news })).toMatchObject({ status: 'published' });
  });
});

/** The adapter as the service makes it, called directly (a test decides what the attempts before it left). */
const adapter = () =>
  new DiscordAdapter({
    app: { clientId: discord.clientId, clientSecret: discord.clientSecret, apiBaseUrl: `${discord.url}/api/v10`, authBaseUrl: discord.url },
    redirectUri: callback,
    timeoutMs: 5000,
    allowedHosts: new Set(['127.0.0.1']),
    botToken: discord.botToken,
    publicBaseUrl,
  });

async function request(caption: string, idempotencyKey: string, saved?: CheckpointState, media: PublishMedia[] = []): Promise<PublishRequest> {
  return {
    account: { id: account, provider: 'discord', username: bakery.name, remoteId: bakery.id, tokens: await storedTokens(account) },
    placement: 'feed',
    caption,
    media,
    thread: [],
    firstComment: null,
    settings: { channel: news },
    idempotencyKey,
    checkpoint: keptCheckpoint(saved),
    signal: new AbortController().signal,
  };
}

describe("the bot's permissions and Discord's upload limit", () => {
  it('leaves the account to reconnect when the bot may no longer post in the server (403 Missing Permissions)', async () => {
    discord.guilds.get(bakery.id)!.botMaySend = false;
    try {
      const refused = await adapter()
        .publish(await request('Muted', crypto.randomUUID()))
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: 'ACCOUNT_NEEDS_RECONNECT', tokenRejected: true, message: expect.stringContaining('Missing Permissions (50013)') });
    } finally {
      discord.guilds.get(bakery.id)!.botMaySend = true;
    }
  });

  it('fails a message whose files together pass 25 MiB before Discord is asked', async () => {
    const half = (id: string): PublishMedia => ({
      id,
      kind: 'video',
      mimeType: 'video/mp4',
      size: 13 * 1024 * 1024,
      width: 1280,
      height: 720,
      durationMs: 60_000,
      altText: null,
      url: `${publicBaseUrl}/media/${id}`,
      jpegUrl: `${publicBaseUrl}/media/${id}`,
      open: () => Promise.reject(new Error('not to be read')),
    });
    const asked = discord.apiRequests.length;
    const refused = await adapter()
      .publish(await request('Two long clips', crypto.randomUUID(), undefined, [half('a'), half('b')]))
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'PROVIDER_REJECTED', message: expect.stringContaining('25 MiB') });
    expect(discord.apiRequests).toHaveLength(asked);
  });
});

describe('an interrupted send', () => {
  /** A send that Discord took and never answered: the checkpoint the cut-off attempt left. */
  async function cutOff(caption: string, key: string): Promise<CheckpointState> {
    discord.holdMessage = () => true;
    const attempt = await request(caption, key);
    await expect(adapter().publish({ ...attempt, signal: AbortSignal.timeout(500) })).rejects.toThrow();
    discord.holdMessage = undefined;
    return (attempt.checkpoint as ReturnType<typeof keptCheckpoint>).saved!;
  }

  it("sends again with the same nonce within Discord's window, and Discord answers the message it made", async () => {
    const key = crypto.randomUUID();
    const saved = await cutOff('Within the window', key);
    const before = discord.messages.length;
    const sends = sendsTo(news);
    const again = await adapter().publish(await request('Within the window', key, saved));
    expect(again).toMatchObject({ status: 'published', item: { remoteId: discord.messages.at(-1)!.id } });
    expect(sendsTo(news)).toBe(sends + 1);
    expect(discord.messages).toHaveLength(before);
  });

  it("finds the message among the channel's since the send began once the window has passed, sending nothing", async () => {
    const key = crypto.randomUUID();
    const saved = await cutOff('Beyond the window', key);
    const since = Date.now() - nonceWindowMs - 60_000;
    // The message was made when the send began, longer ago than the window.
    discord.messages.at(-1)!.nonce = null;
    const before = discord.messages.length;
    const sends = sendsTo(news);
    const again = await adapter().publish(await request('Beyond the window', key, { ...saved, done: { ...saved.done, 'message:since': since } }));
    expect(again).toMatchObject({ status: 'published', item: { remoteId: discord.messages.at(-1)!.id } });
    expect(sendsTo(news)).toBe(sends);
    expect(discord.apiRequests.findLast((call) => call.path.startsWith(`/channels/${news}/messages?`))!.path).toMatch(/after=\d+&limit=100$/);
    expect(discord.messages).toHaveLength(before);
  });

  it('sends when the channel shows no such message', async () => {
    const since = Date.now() - nonceWindowMs - 60_000;
    const before = discord.messages.length;
    const made = await adapter().publish(await request('Never made', crypto.randomUUID(), { done: { 'message:since': since }, started: 'message' }));
    expect(made.status).toBe('published');
    expect(discord.messages).toHaveLength(before + 1);
  });
});

describe('the stand-in, as @discordjs/rest (Discord’s own client) reads it', () => {
  const rest = (options: ConstructorParameters<typeof REST>[0] = {}) =>
    new REST({ api: `${discord.url}/api`, version: '10', retries: 0, offset: 0, ...options }).setToken(discord.botToken);

  it("lists a server's channels and creates a message with a file, as the client sends them", async () => {
    const channels = (await rest().get(Routes.guildChannels(bakery.id))) as { id: string; type: number }[];
    expect(channels.map((channel) => channel.id)).toContain(news);
    const photo = await image('jpeg', 32, 32);
    const message = (await rest().post(Routes.channelMessages(news), {
      body: { content: 'From the official client', nonce: 'official-client-1', enforce_nonce: true, attachments: [{ id: 0, description: 'A bun' }] },
      files: [{ name: 'bun.jpg', data: photo, contentType: 'image/jpeg' }],
    })) as APIMessage;
    expect(message).toMatchObject({ channel_id: news, content: 'From the official client', author: { id: discord.bot.id, bot: true } });
    expect(discord.messages.at(-1)!.attachments).toEqual([expect.objectContaining({ filename: 'bun.jpg', description: 'A bun', sha256: sha256(photo) })]);
  });

  it("reads the stand-in's 429 as Discord's (its wait, scope and bucket), and its refusals as DiscordAPIErrors", async () => {
    discord.throttle = { next: 1, retryAfter: 2.5, scope: 'shared' };
    const limited = await rest({ rejectOnRateLimit: () => true })
      .get(Routes.channel(news))
      .catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited).toMatchObject({ retryAfter: 3000, scope: 'shared', global: false });
    discord.throttle.next = 0;

    const unknown = await rest()
      .get(Routes.channel('613425648685547999'))
      .catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(DiscordAPIError);
    expect(unknown).toMatchObject({ status: 404, code: 10003, message: 'Unknown Channel' });
    discord.botTokenReset = true;
    try {
      const refused = await rest()
        .get(Routes.user('@me'))
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({ status: 401, code: 0 });
    } finally {
      discord.botTokenReset = false;
    }
  });
});
