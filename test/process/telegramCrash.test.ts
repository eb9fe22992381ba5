// The worker killed while Telegram sends a message (the stand-in, test/support/telegram.ts, records it and holds its
// answer): Telegram lets a bot look up no message it sent, so after a restart the interrupted send is not repeated:
// the target fails saying to look in the chat, and the chat holds the message once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { ServerProcesses, setupWithCli } from '../support/processes.ts';
import { apiFor, waitForPost } from '../support/posts.ts';
import { TelegramStandIn } from '../support/telegram.ts';
import { crashEnvironment } from '../support/crashTests.ts';

let env: Record<string, string>;
let apiKey: string;
let telegram: TelegramStandIn;
const servers = new ServerProcesses();

beforeAll(async () => {
  telegram = await TelegramStandIn.start();
  const bot = telegram.addBot(7_200_001, 'crash_news_bot');
  telegram.addChat({ id: -1_005_555_555_555, type: 'channel', title: 'Crash News', username: 'crashnews' }, [
    [bot, { status: 'administrator', can_post_messages: true }],
  ]);
  env = await crashEnvironment(telegram.env);
  ({ apiKey } = await setupWithCli(env, { name: 'Telegram crash', email: 'telegram-crash@example.test' }));
}, 180_000);
afterAll(async () => {
  await servers.killAll();
  await telegram?.stop();
});

describe('sending to Telegram across a crash', () => {
  it('never sends the message again after the worker died waiting for its answer: one message, the target failed saying why', async () => {
    const first = await servers.start(env);
    const api = apiFor(first.url, apiKey);
    const [bot] = telegram.bots.values();
    const connected = await api('POST', '/social-accounts', { provider: 'telegram', credentials: { botToken: bot!.token, chat: '@crashnews' } });
    expect(connected.status, JSON.stringify(connected.body)).toBe(201);
    // Telegram sends the message and never answers: the worker dies waiting.
    telegram.hold = new Promise(() => {});
    const post = (
      await api('POST', '/posts', { content: { caption: 'Once, crash or not' }, targets: [{ connectionId: connected.body.data.id, placement: 'feed' }] })
    ).body.data;
    expect((await api('POST', `/posts/${post.id}/publish`)).status).toBe(202);

    for (let i = 0; i < 1200 && telegram.messages.length === 0; i++) await sleep(25);
    await servers.stop(first, 'SIGKILL');
    expect(telegram.messages).toHaveLength(1);
    telegram.hold = null;

    const second = await servers.start(env);
    const settled = await waitForPost(apiFor(second.url, apiKey), post.id, ['published', 'failed'], 120_000);
    expect(settled.targets[0]).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_REJECTED', message: expect.stringContaining('Look in the chat') } });
    expect(telegram.sends).toBe(1);
    expect(telegram.messages).toHaveLength(1);
    await servers.stop(second, 'SIGTERM');
  }, 300_000);
});
