// The worker killed while Discord creates a message (the stand-in, test/support/discord.ts, makes it and holds its
// answer): after a restart, within Discord's nonce window, the interrupted send is made again with the same nonce and
// `enforce_nonce`, Discord answers the message it made, and the channel holds it once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { ServerProcesses, setupWithCli } from '../support/processes.ts';
import { apiFor, waitForPost } from '../support/posts.ts';
import { DiscordStandIn } from '../support/discord.ts';
import { connectByOAuth } from '../support/oauthConnect.ts';
import { crashEnvironment, crashPublicBaseUrl } from '../support/crashTests.ts';

const server = { id: '613425648685547541', name: 'Crash Bakery' };
const channel = '613425648685547600';

let env: Record<string, string>;
let apiKey: string;
let discord: DiscordStandIn;
const servers = new ServerProcesses();

beforeAll(async () => {
  discord = await DiscordStandIn.start([`${crashPublicBaseUrl}/oauth/callback/discord`]);
  discord.addGuild(server, [{ id: channel, name: 'news', type: 0, position: 0 }]);
  discord.chosenGuild = server.id;
  env = await crashEnvironment(discord.env);
  ({ apiKey } = await setupWithCli(env, { name: 'Discord crash', email: 'discord-crash@example.test' }));
}, 180_000);
afterAll(async () => {
  await servers.killAll();
  await discord?.stop();
});

describe('sending to Discord across a crash', () => {
  it('sends the interrupted message again with its nonce after a restart, and Discord answers the one it made', async () => {
    const first = await servers.start(env);
    const api = apiFor(first.url, apiKey);
    const connectionId = await connectByOAuth(first, crashPublicBaseUrl, api, 'discord');
    // Discord makes the message and never answers: the worker dies waiting.
    discord.holdMessage = () => true;
    const post = (
      await api('POST', '/posts', { content: { caption: 'Once, crash or not' }, targets: [{ connectionId, placement: 'feed', settings: { channel } }] })
    ).body.data;
    expect((await api('POST', `/posts/${post.id}/publish`)).status).toBe(202);

    for (let i = 0; i < 1200 && discord.messages.length === 0; i++) await sleep(25);
    await servers.stop(first, 'SIGKILL');
    expect(discord.messages).toHaveLength(1);
    discord.holdMessage = undefined;

    const second = await servers.start(env);
    const published = await waitForPost(apiFor(second.url, apiKey), post.id, ['published', 'failed'], 120_000);
    const [message] = discord.messages;
    expect(published.targets[0]).toMatchObject({
      status: 'published',
      remoteId: message!.id,
      remoteUrl: `https://discord.com/channels/${server.id}/${channel}/${message!.id}`,
    });
    // Sent twice with one nonce; one message.
    expect(discord.sends).toBe(2);
    expect(discord.messages).toHaveLength(1);
    expect(message).toMatchObject({ content: 'Once, crash or not', nonce: expect.stringMatching(/^[A-Za-z0-9_-]{25}$/) });
    await servers.stop(second, 'SIGTERM');
  }, 300_000);
});
