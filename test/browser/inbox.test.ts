// The inbox page in headless Chromium: the comments on published posts newest first with the post and account
// they belong to, filtered by account, network and open/done; an answer counted as the network counts it, refused
// next to its field when too long, else stored pending; the answers' states (published with its link, failed with
// the network's reason); marking done, which the sidebar's open count follows, as the small screens' menu does.
// Checked by axe-core at 1280 and 375 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueNames } from '../../src/jobs/boss.ts';
import { connectSandbox } from '../support/fixtures.ts';
import { descriptionOf, inspectPage } from './chromium.ts';
import { libraryImage } from './libraryImage.ts';
import { openDashboard, openPage, type DashboardSession } from './session.ts';

let session: DashboardSession;

// The answers' worker is stopped (the others run: media becomes ready), so an answer stays pending as the API stored it.
beforeAll(async () => {
  session = await openDashboard();
  await session.service.services.boss.offWork(queueNames.postInboxReply);
});
afterAll(async () => {
  await session?.close();
});

/**
 * A comment as a network's poll stores it (src/inbox/collect.ts), on the post's only target, written `hoursAgo`:
 * the sandbox has no inbox to collect one from (as test/support/resources.ts does).
 */
async function commentOn(postId: string, comment: { author: string; text: string; hoursAgo: number; status?: 'open' | 'done' }) {
  const { rows } = await session.service.services.db.pool.query<{ id: string }>(
    `INSERT INTO inbox_item (id, workspace_id, connection_id, target_id, post_id, provider, kind, remote_id, author_name, author_username, text, status, created_at)
     SELECT gen_random_uuid(), $1, t.connection_id, t.id, t.post_id, 'sandbox', 'comment', gen_random_uuid()::text, $3, lower($3), $4, $5,
            now() - make_interval(hours => $6)
     FROM post_target t WHERE t.post_id = $2 RETURNING id`,
    [session.workspace.workspaceId, postId, comment.author, comment.text, comment.status ?? 'open', comment.hoursAgo],
  );
  return rows[0]!.id;
}

describe('the inbox page', () => {
  it('lists, filters, answers and closes the comments on published posts', async () => {
    const { page, api, service, workspace } = session;
    const bakery = await connectSandbox(service.services, workspace.workspaceId, 'corner-bakery');
    const market = await connectSandbox(service.services, workspace.workspaceId, 'night-market');
    const postTo = async (connectionId: string, caption: string, mediaIds: string[] = []) =>
      (await api('POST', '/posts', { content: { caption, mediaIds }, targets: [{ connectionId, placement: 'feed' }] })).body.data.id as string;
    const bread = await postTo(bakery, 'Fresh sourdough every morning', [await libraryImage(session, 'loaf.png')]);
    const dumplings = await postTo(market, 'Dumplings tonight');
    const sundays = await commentOn(bread, { author: 'Carla', text: 'Do you open on Sundays?', hoursAgo: 2 });
    const loved = await commentOn(dumplings, { author: 'Dan', text: 'Loved the dumplings!', hoursAgo: 1 });
    const thanked = await commentOn(bread, { author: 'Eve', text: 'Best bread in town', hoursAgo: 3, status: 'done' });
    // The outcomes of two earlier answers as the reply job records them (src/inbox/replies.ts); its worker is stopped here.
    await service.services.db.pool.query(
      `INSERT INTO inbox_reply (id, item_id, text, status, remote_url, error_code, error_message, created_at, published_at) VALUES
       (gen_random_uuid(), $1, 'Thank you, Eve!', 'published', 'https://sandbox.example/replies/1', NULL, NULL, now() - interval '150 minutes', now()),
       (gen_random_uuid(), $1, 'See you soon', 'failed', NULL, 'PROVIDER_REJECTED', 'The comment was deleted.', now() - interval '140 minutes', NULL)`,
      [thanked],
    );

    await page.reload();
    await openPage(page, 'Inbox');
    const items = page.locator('[data-inbox-item]');
    const inboxLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inbox', exact: true });
    await page.getByText('Loved the dumplings!').waitFor();
    expect(await descriptionOf(inboxLink)).toBe('2 open comments');
    // Newest first, each with the post and the account it is on.
    expect(await items.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-inbox-item')))).toEqual([loved, sundays]);
    await expect.poll(() => items.first().textContent()).toContain('night-market (@night-market), on the post Dumplings tonight');
    expect(await items.first().getByRole('link', { name: 'Dumplings tonight' }).getAttribute('href')).toBe(`/posts/${dumplings}`);
    expect(await items.first().getByRole('img', { name: 'Sandbox' }).count()).toBe(1);
    // Only the post with media has a thumbnail: its first file's.
    expect(await items.first().locator('img').count()).toBe(0);
    expect(await items.last().locator('img').getAttribute('src')).toMatch(/thumbnail/);

    await page.getByLabel('Account').selectOption({ label: 'corner-bakery (@corner-bakery, Sandbox)' });
    await expect.poll(() => items.count()).toBe(1);
    expect(await items.first().getAttribute('data-inbox-item')).toBe(sundays);
    await page.getByLabel('Account').selectOption({ label: 'All accounts' });
    await page.getByLabel('Network').selectOption({ label: 'Sandbox' });
    await expect.poll(() => items.count()).toBe(2);

    await page.getByLabel('Show').selectOption({ label: 'Done' });
    await expect.poll(() => items.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-inbox-item')))).toEqual([thanked]);
    const answers = items.first().getByRole('list', { name: 'Your answers' }).getByRole('listitem');
    expect(await answers.allTextContents()).toEqual(['Published Thank you, Eve! View on Sandbox', 'Failed See you soon The comment was deleted.']);
    expect(await answers.first().getByRole('link', { name: 'View on Sandbox' }).getAttribute('href')).toBe('https://sandbox.example/replies/1');
    expect(await inspectPage(page, 'inbox-done')).toEqual([]);

    await page.getByLabel('Show').selectOption({ label: 'Open' });
    const carla = items.filter({ hasText: 'Do you open on Sundays?' });
    const answer = carla.getByLabel('Reply to Carla');
    // The sandbox's feed counts characters up to 500 (src/providers/sandbox/network.ts), as the API checks an answer.
    await answer.fill('x'.repeat(501));
    expect(await carla.locator('.counter.over').textContent()).toBe('501 characters of 500');
    await carla.getByRole('button', { name: 'Send reply' }).click();
    await carla.locator('.field-error').waitFor();
    expect(await carla.locator('.field-error').textContent()).toMatch(/501.*500/);
    await answer.fill('Yes, 8 to 12!');
    expect(await carla.locator('.counter').textContent()).toBe('13 characters of 500');
    await carla.getByRole('button', { name: 'Send reply' }).click();
    await carla.getByRole('list', { name: 'Your answers' }).getByText('Pending').waitFor();
    expect(await answer.inputValue()).toBe('');
    const stored = (await api('GET', `/inbox?status=open&connectionId=${bakery}`)).body.data;
    expect(stored).toEqual([expect.objectContaining({ id: sundays, replies: [expect.objectContaining({ text: 'Yes, 8 to 12!', status: 'pending' })] })]);
    expect(await inspectPage(page, 'inbox')).toEqual([]);

    await items.filter({ hasText: 'Loved the dumplings!' }).getByRole('button', { name: 'Mark done' }).click();
    await expect.poll(() => items.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-inbox-item')))).toEqual([sundays]);
    await expect.poll(() => descriptionOf(inboxLink)).toBe('1 open comment');
    expect((await api('GET', `/inbox?connectionId=${market}`)).body.data).toEqual([expect.objectContaining({ id: loved, status: 'done' })]);

    // On a small screen the menu's button and its inbox item carry the count the sidebar shows.
    await page.setViewportSize({ width: 375, height: 800 });
    try {
      const menu = page.getByRole('button', { name: 'Menu', exact: true });
      expect(await descriptionOf(menu)).toBe('1 open comment');
      await menu.click();
      expect(await descriptionOf(page.getByRole('menuitem', { name: 'Inbox', exact: true }))).toBe('1 open comment');
      await page.keyboard.press('Escape');
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});
