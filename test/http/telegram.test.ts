// Telegram end to end against its stand-in (test/support/telegram.ts): a channel connected with a bot's token and the
// chat (checked with getMe, getChat and getChatMember), its fields in GET /providers, text with Telegram's entities,
// a photo, an album of a photo and a video, captions held to 1,024 characters and messages to 4,096, a 429 waited for
// as long as `retry_after` says, a revoked token leading to NEEDS_RECONNECT, and a send cut off never sent twice.
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { image, video } from '../support/mediaFiles.ts';
import { keptCheckpoint } from '../support/checkpoints.ts';
import { crashPublicBaseUrl, uploadMedia as uploadLibraryFile } from '../support/crashTests.ts';
import { TelegramStandIn, type Bot } from '../support/telegram.ts';
import { TelegramAdapter } from '../../src/providers/telegram/adapter.ts';
import type { ProviderTokens, PublishRequest } from '../../src/providers/adapter.ts';

let telegram: TelegramStandIn;
let service: TestService;
let workspace: TestWorkspace;
let api: Api;
let bot: Bot;
let account: string;

beforeAll(async () => {
  telegram = await TelegramStandIn.start();
  bot = telegram.addBot(7_000_001, 'acme_news_bot');
  const stranger = telegram.addBot(7_000_002, 'stranger_bot');
  telegram.addChat({ id: -1_001_234_567_890, type: 'channel', title: 'Acme News', username: 'acmenews' }, [
    [bot, { status: 'administrator', can_post_messages: true }],
    [stranger, { status: 'administrator', can_post_messages: false }],
  ]);
  service = await startTestService({ PUBLIC_BASE_URL: crashPublicBaseUrl, ...telegram.env, NETWORK_ALLOWED_HOSTS: '127.0.0.1' });
  workspace = await createWorkspace(service.services);
  api = apiFor(service.url, workspace.ownerKey);
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await telegram?.stop();
});

const connect = (credentials: Record<string, unknown>) => api('POST', '/social-accounts', { provider: 'telegram', credentials });

/** A file in the media library, processed: its id. */
const uploadMedia = (bytes: Buffer, filename: string, contentType: string) => uploadLibraryFile(api, service.url, { bytes, filename, contentType });

const post = (caption: string, mediaIds: string[] = [], settings: Record<string, unknown> = {}) =>
  api('POST', '/posts', { content: { caption, mediaIds }, targets: [{ connectionId: account, placement: 'feed', settings }] });

async function publish(caption: string, mediaIds: string[] = [], settings: Record<string, unknown> = {}) {
  const created = await post(caption, mediaIds, settings);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await api('POST', `/posts/${created.body.data.id}/publish`);
  return (await waitForPost(api, created.body.data.id, ['published', 'failed'])).targets[0];
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('GET /providers', () => {
  it("names Telegram's credential fields and its limits", async () => {
    const { body } = await api('GET', '/providers');
    const entry = body.data.find((provider: any) => provider.provider === 'telegram');
    expect(entry).toMatchObject({ displayName: 'Telegram', configured: true, requiredSettings: [] });
    expect(entry.connection).toEqual({
      method: 'credentials',
      fields: [
        expect.objectContaining({ name: 'botToken', secret: true, required: true }),
        expect.objectContaining({ name: 'chat', secret: false, required: true }),
      ],
    });
    expect(entry.placements[0]).toMatchObject({ name: 'feed', caption: { maxLength: 4096, maxLengthWithMedia: 1024 }, media: { max: 10 } });
  });
});

describe('connecting a channel', () => {
  it('refuses a token or chat of the wrong form with 400 details on credentials.<field>, before Telegram is asked', async () => {
    const asked = telegram.sends;
    const refused = await connect({ botToken: 'not-a-token', chat: 'acme news' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.map((detail: any) => detail.field).sort()).toEqual(['credentials.botToken', 'credentials.chat']);
    const missing = await connect({ chat: '@acmenews' });
    expect(missing.body.error.details).toEqual([expect.objectContaining({ field: 'credentials.botToken', code: 'required' })]);
    const unknown = await connect({ botToken: bot.token, chat: '@acmenews', identifier: 'alice' });
    expect(unknown.body.error.details).toEqual([expect.objectContaining({ field: 'credentials.identifier', code: 'unknownField' })]);
    expect(telegram.sends).toBe(asked);
  });

  it('is 422 on credentials.botToken for a token Telegram refuses, and on credentials.chat for a chat it does not know or the bot may not post in; nothing is kept', async () => {
    const before = (await api('GET', '/social-accounts?limit=100')).body.data.length;
    const badToken = await connect({ botToken: '7000009:AAHaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', chat: '@acmenews' });
    expect(badToken.status).toBe(422);
    expect(badToken.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'credentials.botToken', code: 'rejected' }] });
    const noChat = await connect({ botToken: bot.token, chat: '@nosuchchannel' });
    expect(noChat.body.error.details).toEqual([expect.objectContaining({ field: 'credentials.chat', message: expect.stringContaining('chat not found') })]);
    const stranger = [...telegram.bots.values()].find((candidate) => candidate.username === 'stranger_bot')!;
    const mayNotPost = await connect({ botToken: stranger.token, chat: '@acmenews' });
    expect(mayNotPost.status).toBe(422);
    expect(mayNotPost.body.error.details[0]).toMatchObject({ field: 'credentials.chat', message: expect.stringContaining('right to post') });
    expect((await api('GET', '/social-accounts?limit=100')).body.data).toHaveLength(before);
  });

  it('connects the channel as the account, by its id, @username and title; the token is never shown', async () => {
    const connected = await connect({ botToken: bot.token, chat: '@acmenews' });
    expect(connected.status, JSON.stringify(connected.body)).toBe(201);
    expect(connected.body.data).toMatchObject({ provider: 'telegram', username: 'acmenews', displayName: 'Acme News', status: 'ACTIVE' });
    expect(JSON.stringify(connected.body)).not.toContain(bot.token.split(':')[1]);
    account = connected.body.data.id;
    const { rows } = await service.services.db.pool.query('SELECT remote_id FROM social_account WHERE id = $1', [account]);
    expect(rows[0].remote_id).toBe('-1001234567890');
    const again = await connect({ botToken: bot.token, chat: '-1001234567890' });
    expect(again.body.data.id).toBe(account);
  });
});

describe('publishing', () => {
  it('sends a text as one message, its links and hashtags made entities by Telegram, with its t.me link', async () => {
    const target = await publish('Spring sale starts today #sale https://acme.example/sale', [], { silent: true });
    expect(target).toMatchObject({ status: 'published', attempts: 1 });
    const message = telegram.messages.at(-1)!;
    expect(target.remoteUrl).toBe(`https://t.me/acmenews/${message.messageId}`);
    expect(message).toMatchObject({ chatId: -1_001_234_567_890, text: 'Spring sale starts today #sale https://acme.example/sale', silent: true });
    expect(message.entities.map((entity) => entity.type)).toEqual(['hashtag', 'url']);
  });

  it('sends one photo with the text as its caption', async () => {
    const file = await image('jpeg', 320, 240);
    const target = await publish('Our new shop', [await uploadMedia(file, 'shop.jpg', 'image/jpeg')]);
    expect(target.status).toBe('published');
    expect(telegram.messages.at(-1)).toMatchObject({ caption: 'Our new shop', file: { type: 'photo', sha256: sha256(file) } });
  });

  it('sends a photo and a video as one album, the caption on its first item', async () => {
    const photo = await image('png', 200, 200);
    const clip = await video(160, 120, 1);
    const before = telegram.messages.length;
    const target = await publish('Behind the scenes', [await uploadMedia(photo, 'a.png', 'image/png'), await uploadMedia(clip, 'b.mp4', 'video/mp4')]);
    expect(target.status).toBe('published');
    const album = telegram.messages.slice(before);
    expect(album.map((message) => [message.file?.type, message.caption])).toEqual([
      ['photo', 'Behind the scenes'],
      ['video', undefined],
    ]);
    expect(new Set(album.map((message) => message.mediaGroupId)).size).toBe(1);
    expect(target.remoteId).toBe(String(album[0]!.messageId));
    expect(album[1]!.file).toMatchObject({ contentType: 'video/mp4', sha256: sha256(clip) });
  });

  it('refuses a caption over 1,024 characters on a post with media, and a text over 4,096, when the post is made', async () => {
    const mediaId = await uploadMedia(await image('png', 100, 100), 'c.png', 'image/png');
    const longCaption = await post('x'.repeat(1025), [mediaId]);
    expect(longCaption.status).toBe(422);
    expect(longCaption.body.error).toMatchObject({ code: 'PROVIDER_VALIDATION_FAILED' });
    expect(longCaption.body.error.details[0]).toMatchObject({ field: 'targets[0].caption', code: 'caption.maxLength' });
    expect((await post('x'.repeat(4096))).status).toBe(201);
    expect((await post('x'.repeat(4097))).status).toBe(422);
  });
});

describe('throttling and tokens', () => {
  it('waits out a 429 for at least its retry_after, sending nothing meanwhile', async () => {
    const before = telegram.messages.length;
    telegram.throttle = { calls: 1, retryAfter: 42 };
    const created = await post('Throttled');
    const asked = Date.now();
    await api('POST', `/posts/${created.body.data.id}/publish`);
    let target: any;
    for (let i = 0; i < 100 && !target?.waitingUntil; i++, await sleep(100)) target = (await api('GET', `/posts/${created.body.data.id}`)).body.data.targets[0];
    expect(target).toMatchObject({ status: 'publishing', error: { code: 'RATE_LIMITED_BY_PROVIDER' } });
    expect(Date.parse(target.waitingUntil) - asked).toBeGreaterThanOrEqual(42_000);
    expect(telegram.messages.length).toBe(before);
  });

  it('never sends twice a message whose send was cut off: that attempt fails saying to look in the chat, and a retry after it sends', async () => {
    const { rows } = await service.services.db.pool.query('SELECT encrypted_tokens FROM social_account WHERE id = $1', [account]);
    const tokens: ProviderTokens = JSON.parse(service.services.secrets.open(rows[0].encrypted_tokens));
    const adapter = new TelegramAdapter({ baseUrl: telegram.url, timeoutMs: 5000 });
    const checkpoint = keptCheckpoint({ done: {}, started: 'message' });
    const request: PublishRequest = {
      account: { id: account, provider: 'telegram', username: 'acmenews', remoteId: '-1001234567890', tokens },
      placement: 'feed',
      caption: 'Cut off',
      media: [],
      thread: [],
      firstComment: null,
      settings: {},
      idempotencyKey: crypto.randomUUID(),
      checkpoint,
      signal: new AbortController().signal,
    };
    const sends = telegram.sends;
    const cutOff = await adapter.publish(request).catch((error) => error);
    expect(cutOff).toMatchObject({ code: 'PROVIDER_REJECTED', transient: false, message: expect.stringContaining('Look in the chat') });
    expect(telegram.sends).toBe(sends);
    const retried = await adapter.publish(request);
    expect(retried).toMatchObject({ status: 'published' });
    expect(telegram.sends).toBe(sends + 1);
    expect(telegram.messages.at(-1)).toMatchObject({ text: 'Cut off' });
  });

  it('fails a target whose token was revoked at @BotFather and marks the account NEEDS_RECONNECT', async () => {
    telegram.revoke(bot);
    const target = await publish('After the revoke');
    expect(target).toMatchObject({ status: 'failed', error: { code: 'ACCOUNT_NEEDS_RECONNECT' } });
    expect((await api('GET', `/social-accounts/${account}`)).body.data).toMatchObject({ status: 'NEEDS_RECONNECT' });
  });
});
