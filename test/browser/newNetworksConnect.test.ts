// The networks added with issue 40 from the dashboard, in Chromium, end to end against their stand-ins
// (test/support/reddit.ts, discord.ts, googleBusiness.ts name their evidence): each is connected with its "Connect"
// button on the accounts page through the network's authorization, comes back listed, and the composer counts a
// caption for it as the network counts (Reddit's 40,000, Discord's 2,000, Google Business Profile's 1,500). Each
// state is checked by axe-core.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscordStandIn } from '../support/discord.ts';
import { GoogleBusinessStandIn } from '../support/googleBusiness.ts';
import { RedditStandIn } from '../support/reddit.ts';
import { inspectPage } from './chromium.ts';
import { dashboardOrigin, openDashboard, openPage, type DashboardSession } from './session.ts';

let reddit: RedditStandIn;
let discord: DiscordStandIn;
let google: GoogleBusinessStandIn;
let session: DashboardSession;

beforeAll(async () => {
  const callback = (network: string) => [`${dashboardOrigin}/oauth/callback/${network}`];
  reddit = await new RedditStandIn(callback('reddit'), { id: '5t2q', name: 'crumbbaker', username: 'crumbbaker' }).start();
  discord = await DiscordStandIn.start(callback('discord'));
  discord.addGuild({ id: '713425648685547520', name: 'Crumb Bakers' }, [{ id: '713425648685547521', name: 'news', type: 0, position: 0 }]);
  discord.chosenGuild = '713425648685547520';
  const owner = { id: '208234567890123456789', name: 'Cora Crumb', username: 'cora@example.test' };
  google = await new GoogleBusinessStandIn(callback('google_business'), owner).start();
  google.accounts.set(owner.id, [
    { id: 'accounts/3234567890', accountName: 'Cora Crumb', locations: [{ id: '7711223344', title: 'Crumb Bakery', locality: 'Lyon' }] },
  ]);
  session = await openDashboard({ env: { ...reddit.env, ...discord.env, ...google.env, NETWORK_ALLOWED_HOSTS: '127.0.0.1' } });
}, 120_000);
afterAll(async () => {
  await session?.close();
  await Promise.all([reddit?.stop(), discord?.stop(), google?.stop()]);
});

describe('connecting the new networks from the accounts page', () => {
  for (const { network, provider, listed, max } of [
    { network: 'Reddit', provider: 'reddit', listed: /@crumbbaker/, max: '40,000' },
    { network: 'Discord', provider: 'discord', listed: /Crumb Bakers/, max: '2,000' },
    { network: 'Google Business Profile', provider: 'google_business', listed: /Crumb Bakery/, max: '1,500' },
  ]) {
    it(`connects ${network} through its authorization, and the composer counts a caption as ${network} does`, async () => {
      const { page } = session;
      await openPage(page, 'Accounts');
      await page.getByRole('button', { name: `Connect ${network}`, exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Account connected.' }).waitFor();
      await page.getByRole('row', { name: listed }).waitFor();
      const accounts = (await session.api('GET', '/social-accounts?limit=100')).body.data as { provider: string; status: string }[];
      expect(accounts.filter((account) => account.provider === provider).map((account) => account.status)).toEqual(['ACTIVE']);
      expect(await inspectPage(page, `accounts-${provider}`)).toEqual([]);

      await page.goto(`${dashboardOrigin}/compose`);
      await page.getByRole('heading', { name: 'New post' }).waitFor();
      await page.getByLabel('Caption').fill('Fresh bread at eight.');
      await page
        .getByRole('button', { name: listed })
        .or(page.getByRole('checkbox', { name: listed }))
        .first()
        .click();
      await page.getByText(`Counted as 21 of ${max}`).first().waitFor();
    });
  }
});
