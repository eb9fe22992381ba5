// The Accounts page's form for a credential network, made from the fields GET /providers names for it: Telegram's bot
// token and chat (against its stand-in, test/support/telegram.ts), Telegram's refusal shown at the field it names,
// then the channel connected and listed.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TelegramStandIn, type Bot } from '../support/telegram.ts';
import { inspectPage } from './chromium.ts';
import { openDashboard, openPage, type DashboardSession } from './session.ts';

let telegram: TelegramStandIn;
let bot: Bot;
let session: DashboardSession;
let page: Page;

beforeAll(async () => {
  telegram = await TelegramStandIn.start();
  bot = telegram.addBot(7_100_001, 'shop_news_bot');
  telegram.addChat({ id: -1_009_876_543_210, type: 'channel', title: 'Shop News', username: 'shopnews' }, [
    [bot, { status: 'administrator', can_post_messages: true }],
  ]);
  session = await openDashboard({ env: { ...telegram.env, NETWORK_ALLOWED_HOSTS: '127.0.0.1' } });
  page = session.page;
}, 60_000);
afterAll(async () => {
  await session?.close();
  await telegram?.stop();
});

describe('connecting a Telegram channel', () => {
  it("asks for the fields Telegram's entry names, shows Telegram's refusal at the chat, then connects the channel", async () => {
    await openPage(page, 'Accounts');
    const form = page.getByRole('form', { name: 'Telegram' });
    const token = form.getByLabel('Bot token');
    expect(await token.getAttribute('type')).toBe('password');
    await token.fill(bot.token);
    await form.getByLabel('Channel or group').fill('@nosuchchannel');
    await form.getByRole('button', { name: 'Connect Telegram account' }).click();
    const refusal = form.locator('.field-error');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('chat not found');
    expect(await form.getByLabel('Channel or group').getAttribute('aria-invalid')).toBe('true');
    expect(await inspectPage(page, 'credentials-connect-refused')).toEqual([]);

    await form.getByLabel('Channel or group').fill('@shopnews');
    await form.getByRole('button', { name: 'Connect Telegram account' }).click();
    await page.getByRole('cell', { name: 'Shop News (@shopnews)' }).waitFor();
    expect(await token.inputValue()).toBe('');
  });
});
