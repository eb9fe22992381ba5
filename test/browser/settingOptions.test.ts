// The composer's settings form with an account's own options, in headless Chromium against the Pinterest and TikTok
// stand-ins: a Pinterest account's boards offered by name for the board (its id what is chosen), and TikTok's settings as
// its Content Sharing Guidelines require them: the privacy levels in the creator's order with none chosen, comments,
// duets and stitches off (the switch the creator turned off disabled with the reason), the commercial content
// disclosure with TikTok's wording, and the Music Usage Confirmation before posting; a Reddit account's flairs offered
// for the subreddit typed, by name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { PinterestStandIn } from '../support/pinterest.ts';
import { TikTokStandIn } from '../support/tiktok.ts';
import { RedditStandIn } from '../support/reddit.ts';
import { connectByOAuth } from '../support/oauthConnect.ts';
import { inspectPage } from './chromium.ts';
import { dashboardOrigin, openDashboard, type DashboardSession } from './session.ts';

const boards = [
  { id: '549755885176', name: 'Recipes' },
  { id: '549755885177', name: 'Travel' },
];

let session: DashboardSession;
let page: Page;
let pinterest: PinterestStandIn;
let tiktok: TikTokStandIn;
let reddit: RedditStandIn;

beforeAll(async () => {
  pinterest = await PinterestStandIn.start([`${dashboardOrigin}/oauth/callback/pinterest`]);
  tiktok = await TikTokStandIn.start([`${dashboardOrigin}/oauth/callback/tiktok`]);
  reddit = await new RedditStandIn([`${dashboardOrigin}/oauth/callback/reddit`], { id: '3k9x', name: 'redbaker', username: 'redbaker' }).start();
  reddit.subreddits.push({ name: 'Baking', allows: 'any', flairs: [{ id: 'b1f0c2d4-0c2e-11ee-b3f4-5e3a2c1d9f03', text: 'Recipe' }] });
  session = await openDashboard({
    env: {
      ...pinterest.env,
      ...reddit.env,
      TIKTOK_CLIENT_ID: tiktok.oauth.clientId,
      TIKTOK_CLIENT_SECRET: tiktok.oauth.clientSecret,
      TIKTOK_API_BASE_URL: tiktok.url,
      TIKTOK_AUTH_BASE_URL: tiktok.url,
      NETWORK_ALLOWED_HOSTS: '127.0.0.1',
    },
  });
  page = session.page;
  pinterest.signInAs({ id: '549755885175', name: 'Alice Bakes', username: 'alicebakes', profileImageUrl: 'https://i.pinimg.com/a.jpg' }, boards);
  await connectByOAuth(session.service, dashboardOrigin, session.api, 'pinterest');
  tiktok.signInAs(
    { id: '-000OkPQZ9rQvD2Cz7hLgqgR', name: 'Mara Quill', username: 'maraquill', profileImageUrl: 'https://p16.tiktokcdn.example/m.jpeg' },
    { privacyLevels: ['FOLLOWER_OF_CREATOR', 'PUBLIC_TO_EVERYONE', 'SELF_ONLY'], duetDisabled: true },
  );
  await connectByOAuth(session.service, dashboardOrigin, session.api, 'tiktok');
  await connectByOAuth(session.service, dashboardOrigin, session.api, 'reddit');
}, 120_000);

afterAll(async () => {
  await session?.close();
  await pinterest?.stop();
  await tiktok?.stop();
  await reddit?.stop();
});

const handle = (username: string) => new RegExp(`\\(@${username},`);

/** Chooses the account as a target in a new composer and opens its settings, whichever control the composer offers for it. */
async function settingsOf(username: string): Promise<Locator> {
  await page.goto(`${dashboardOrigin}/compose`);
  await page.getByRole('heading', { name: 'New post' }).waitFor();
  await page
    .getByRole('button', { name: handle(username) })
    .or(page.getByRole('checkbox', { name: handle(username) }))
    .click();
  const panel = page.getByRole('button', { name: new RegExp(`@${username} on `) });
  if ((await panel.count()) && (await panel.getAttribute('aria-expanded')) === 'false') await panel.click();
  const settings = page.getByRole('group', { name: new RegExp(`^Settings for @${username},`) });
  await settings.waitFor();
  return settings;
}

describe('the settings form with the account’s own options', () => {
  it("offers the Pinterest account's boards by name for the board, choosing its id", async () => {
    const settings = await settingsOf('alicebakes');
    const board = settings.getByLabel('Board id (required)');
    // The boards come from Pinterest once the form is shown.
    await board.locator('option', { hasText: 'Travel' }).waitFor({ state: 'attached' });
    expect(await board.locator('option').allTextContents()).toEqual(['Not set', 'Recipes', 'Travel']);
    await board.selectOption({ label: 'Travel' });
    expect(await board.inputValue()).toBe('549755885177');
    expect(await inspectPage(page, 'composer-pinterest-boards')).toEqual([]);
  });

  it("shows TikTok's settings as its guidelines require: no privacy level chosen, interactions off, the disclosure and the music confirmation", async () => {
    const settings = await settingsOf('maraquill');
    const privacy = settings.getByLabel('Who can see this post (required)');
    await privacy.locator('option', { hasText: 'Only me' }).waitFor({ state: 'attached' });
    expect(await privacy.locator('option').allTextContents()).toEqual(['Not set', 'Followers', 'Everyone', 'Only me']);
    expect(await privacy.inputValue()).toBe('');
    for (const name of ['Allow comments', 'Allow stitch']) {
      const interaction = settings.getByRole('checkbox', { name });
      expect(await interaction.isChecked()).toBe(false);
      expect(await interaction.isDisabled()).toBe(false);
    }
    const duet = settings.getByRole('checkbox', { name: 'Allow duet' });
    expect(await duet.isDisabled()).toBe(true);
    expect(await duet.isChecked()).toBe(false);
    const reasons = await Promise.all((await duet.getAttribute('aria-describedby'))!.split(' ').map((id) => page.locator(`[id="${id}"]`).textContent()));
    expect(reasons).toContain('The creator turned duets off on TikTok.');
    const yourBrand = settings.getByRole('checkbox', { name: 'Your brand', exact: true });
    const branded = settings.getByRole('checkbox', { name: 'Branded content', exact: true });
    expect(await yourBrand.isChecked()).toBe(false);
    expect(await branded.isChecked()).toBe(false);
    expect(await settings.getByText("labeled 'Promotional content'").count()).toBe(1);
    expect(await settings.getByText(/labeled 'Paid partnership' and cannot be private/).count()).toBe(1);
    await settings.getByText("By posting, you agree to TikTok's Music Usage Confirmation.").waitFor();

    await privacy.selectOption({ label: 'Everyone' });
    expect(await privacy.inputValue()).toBe('PUBLIC_TO_EVERYONE');
    await settings.getByRole('checkbox', { name: 'Allow comments' }).check();
    await branded.check();
    expect(await branded.isChecked()).toBe(true);
    // Branded content cannot be private: the API's check says so under the privacy choice.
    await privacy.selectOption({ label: 'Only me' });
    await settings.getByText('Must be one of: PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR.').waitFor();
    expect(await privacy.getAttribute('aria-invalid')).toBe('true');
    expect(await inspectPage(page, 'composer-tiktok-options')).toEqual([]);
  });

  it("offers a Reddit account's flairs by name once the subreddit is typed", async () => {
    const settings = await settingsOf('redbaker');
    const flair = settings.getByLabel('Flair');
    expect(await flair.locator('option').count()).toBe(0);
    await settings.getByLabel('Subreddit (required)').fill('r/Baking');
    await flair.locator('option', { hasText: 'Recipe' }).waitFor({ state: 'attached' });
    await flair.selectOption({ label: 'Recipe' });
    expect(await flair.inputValue()).toBe('b1f0c2d4-0c2e-11ee-b3f4-5e3a2c1d9f03');
    expect(reddit.apiRequests.filter((request) => request.path.includes('link_flair_v2')).map((request) => request.path)).toEqual([
      '/r/Baking/api/link_flair_v2?raw_json=1',
    ]);
    expect(await inspectPage(page, 'composer-reddit-flairs')).toEqual([]);
  });
});
