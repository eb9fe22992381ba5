// Links in captions (`targets[].settings.links`, with a workspace default): UTM parameters added as published, short
// links that redirect and count a click per target and day, the caption's length checked as the network counts the
// shortened form, and the clicks in analytics (REST, CSV, GraphQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { addPerson, bearer, connectSandbox, keyFor, type TestWorkspace } from '../support/fixtures.ts';
import { waitForPost, type Api } from '../support/posts.ts';
import { findSandboxItem } from '../../src/providers/sandbox/adapter.ts';
import { connectSocialAccount } from '../../src/accounts/socialAccounts.ts';
import { setUserRole } from '../../src/workspaces/workspaces.ts';

let service: TestService;
let acme: TestWorkspace;
let api: Api;
let sandbox: string;

beforeAll(async () => {
  // A public origin as a real installation has (X counts a link to `localhost` or a reserved name such as `.example` as text, not as a link).
  ({ service, acme, api } = await serviceWithWorkspace({ PUBLIC_BASE_URL: 'https://links.example.com' }));
  sandbox = await connectSandbox(service.services, acme.workspaceId);
});
afterAll(() => service.stop());

/** Publishes the caption to the sandbox account; answers the target and the caption the network received. */
async function publish(caption: string, settings?: Record<string, unknown>) {
  const created = await api('POST', '/posts', { content: { caption }, targets: [{ connectionId: sandbox, placement: 'feed', settings }] });
  expect(created.status).toBe(201);
  await api('POST', `/posts/${created.body.data.id}/publish`);
  const post = await waitForPost(api, created.body.data.id, ['published', 'failed']);
  expect(post.status).toBe('published');
  const target = post.targets[0];
  const item = await findSandboxItem(service.services.db, target.remoteId);
  return { post, target, published: item!.caption };
}

const codesIn = (caption: string) => [...caption.matchAll(/\/l\/([A-Za-z0-9_-]{10})/g)].map((match) => match[1]!);
const visit = (code: string) => fetch(`${service.url}/l/${code}`, { redirect: 'manual' });
const today = () => new Date().toISOString().slice(0, 10);

describe('UTM parameters', () => {
  it('are added to each link as published, keeping the parameters a link already has', async () => {
    const { published } = await publish('Read https://example.com/a?utm_source=keep&x=1 and https://example.org/b. Thanks!', {
      links: { utm: { source: 'sps', medium: 'social', campaign: 'spring sale' } },
    });
    expect(published).toBe(
      'Read https://example.com/a?utm_source=keep&x=1&utm_medium=social&utm_campaign=spring+sale and https://example.org/b?utm_source=sps&utm_medium=social&utm_campaign=spring+sale. Thanks!',
    );
  });

  it('leave a caption as written without a setting, and the stored post keeps the caption as written', async () => {
    const { post, published } = await publish('Plain https://example.com/a?b=1');
    expect(published).toBe('Plain https://example.com/a?b=1');
    expect(post.content.caption).toBe('Plain https://example.com/a?b=1');
    expect(post.targets[0].settings).toEqual({});
  });

  it('come from the workspace default where a target names none; owners change it, a target’s own wins', async () => {
    expect((await api('GET', '/workspace/links')).body.data).toEqual({ shorten: false, utm: {} });
    const changed = await api('PUT', '/workspace/links', { utm: { source: 'default' } });
    expect(changed).toEqual({ status: 200, body: { data: { shorten: false, utm: { source: 'default' } } } });
    try {
      expect((await publish('From the default https://example.com/d')).published).toBe('From the default https://example.com/d?utm_source=default');
      expect((await publish('Own https://example.com/o', { links: { utm: { medium: 'own' } } })).published).toBe('Own https://example.com/o?utm_medium=own');
    } finally {
      await api('PUT', '/workspace/links', {});
    }
  });

  it('refuses a default that is no link setting (400 with details), and an editor may not change it', async () => {
    const refused = await api('PUT', '/workspace/links', { shorten: 'yes', utm: { source: '', term: 'x' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.map((detail: { field: string }) => detail.field).sort()).toEqual(['shorten', 'utm.source', 'utm.term']);
    // A key made while its creator was an admin acts with the creator's role now: an editor's.
    const editor = await addPerson(service.services, acme.workspaceId, 'admin');
    const { apiKey } = await keyFor(service.services, acme.workspaceId, editor.userId);
    await setUserRole(service.services.db, { workspaceId: acme.workspaceId, userId: editor.userId, role: 'editor' });
    const answer = await fetch(`${service.url}/v1/workspace/links`, {
      method: 'PUT',
      headers: bearer(apiKey, { 'content-type': 'application/json' }),
      body: JSON.stringify({ shorten: true }),
    });
    expect(answer.status).toBe(403);
    expect((await api('GET', '/workspace/links')).body.data).toEqual({ shorten: false, utm: {} });
  });

  it('refuses a target setting that is no link setting (400 or 422 naming the field)', async () => {
    const answer = await api('POST', '/posts', {
      content: { caption: 'x https://example.com' },
      targets: [{ connectionId: sandbox, placement: 'feed', settings: { links: { shorten: 1 } } }],
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error.details).toEqual([expect.objectContaining({ field: 'targets[0].settings.links.shorten' })]);
  });
});

describe('short links', () => {
  it('replace each link with <PUBLIC_BASE_URL>/l/<code>, a 302 to the link with its UTM parameters, no cookie', async () => {
    const { published } = await publish('Go https://example.com/shop?ref=1 now', { links: { shorten: true, utm: { source: 'sps' } } });
    expect(published).toMatch(new RegExp(`^Go ${service.services.config.publicBaseUrl}/l/[A-Za-z0-9_-]{10} now$`));
    const [code] = codesIn(published);
    const answer = await visit(code!);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('https://example.com/shop?ref=1&utm_source=sps');
    expect(answer.headers.get('set-cookie')).toBeNull();
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('count a click per target and UTC day, in analytics as `clicks` by post, day, REST, CSV and GraphQL', async () => {
    const { post, target, published } = await publish('Twice https://example.com/one and https://example.com/two', { links: { shorten: true } });
    const codes = codesIn(published);
    expect(codes).toHaveLength(2);
    for (const code of [codes[0]!, codes[0]!, codes[1]!]) expect((await visit(code)).status).toBe(302);
    const tomorrow = new Date(Date.now() + 86_400_000);
    expect(await service.services.shortLinks.follow(codes[1]!, tomorrow)).toBe('https://example.com/two');

    const { rows } = await service.services.db.pool.query(`SELECT day::text, clicks FROM link_click_day WHERE target_id = $1 ORDER BY day`, [target.id]);
    expect(rows).toEqual([
      { day: today(), clicks: 3 },
      { day: tomorrow.toISOString().slice(0, 10), clicks: 1 },
    ]);

    const period = `from=${today()}&to=${tomorrow.toISOString().slice(0, 10)}`;
    const byPost = (await api('GET', `/analytics?${period}&groupBy=post`)).body.data;
    expect(byPost.rows.find((row: { key: string }) => row.key === post.id).metrics.clicks).toBe(4);
    const byDay = (await api('GET', `/analytics?${period}&groupBy=day&campaign=none-such`)).body.data;
    expect(byDay.totals.clicks).toBe(0);

    const csv = await (await fetch(`${service.url}/v1/analytics/export?${period}&groupBy=post`, { headers: bearer(acme.ownerKey) })).text();
    const [header, ...lines] = csv.trim().split('\n');
    const clicksColumn = header!.split(',').indexOf('clicks');
    expect(lines.find((line) => line.startsWith(post.id))!.split(',')[clicksColumn]).toBe('4');

    const graph = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: bearer(acme.ownerKey, { 'content-type': 'application/json' }),
      body: JSON.stringify({
        query: 'query ($from: String!, $to: String!) { analytics(from: $from, to: $to, groupBy: POST) { rows { key metrics { clicks } } } }',
        variables: { from: today(), to: tomorrow.toISOString().slice(0, 10) },
      }),
    });
    const rowsOfGraph = (await graph.json()).data.analytics.rows;
    expect(rowsOfGraph.find((row: { key: string }) => row.key === post.id).metrics.clicks).toBe(4);
  });

  it('are the same codes when a target publishes again: a code is the target’s link', async () => {
    const first = await publish('Same https://example.com/same', { links: { shorten: true } });
    const second = await publish('Same https://example.com/same', { links: { shorten: true } });
    expect(codesIn(first.published)).not.toEqual(codesIn(second.published));
    const { rows } = await service.services.db.pool.query(`SELECT count(*)::int AS n FROM short_link WHERE target_id = $1`, [first.target.id]);
    expect(rows[0].n).toBe(1);
  });

  it('answer 404 for an unknown code, and for anything that is no code', async () => {
    for (const code of ['AAAAAAAAAA', 'short', '..%2F..%2Fv1']) {
      const answer = await visit(code);
      expect(answer.status).toBe(404);
      expect((await answer.json()).error.code).toBe('NOT_FOUND');
    }
  });
});

describe('the caption’s length as published', () => {
  const link = `https://example.com/${'p'.repeat(400)}`;

  it('counts the short link where the network counts links as written (the sandbox: 500 characters)', async () => {
    const caption = `${'a'.repeat(100)} ${link}`;
    const check = (links: Record<string, unknown>) =>
      api('POST', '/posts/validate', { content: { caption }, targets: [{ connectionId: sandbox, placement: 'feed', settings: { links } }] });
    const asWritten = (await check({ shorten: false })).body.data.targets[0].findings;
    expect(asWritten).toEqual([expect.objectContaining({ field: 'targets[0].caption', code: 'caption.maxLength' })]);
    expect((await check({ shorten: true })).body.data).toMatchObject({ valid: true });
  });

  it('counts the UTM parameters added where links are not shortened', async () => {
    const caption = `${'a'.repeat(440)} https://example.com/x`;
    const answer = await api('POST', '/posts', {
      content: { caption },
      targets: [{ connectionId: sandbox, placement: 'feed', settings: { links: { utm: { campaign: 'c'.repeat(60) } } } }],
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error.details).toEqual([expect.objectContaining({ field: 'targets[0].caption', code: 'caption.maxLength' })]);
    expect(answer.body.error.details[0].message).toContain(String(caption.length + '?utm_campaign='.length + 60));
  });

  it('counts every link as X does (23), so shortening neither helps nor hurts there', async () => {
    const { connectionId: x } = await connectSocialAccount(service.services.db, service.services.secrets, service.services.adapters, service.services.outbox, {
      workspaceId: acme.workspaceId,
      provider: 'x',
      username: 'links_x',
      tokens: { accessToken: 'unused' },
    });
    const check = (caption: string, links: Record<string, unknown>) =>
      api('POST', '/posts/validate', { content: { caption }, targets: [{ connectionId: x, placement: 'feed', settings: { links } }] });
    const fits = `${'y'.repeat(250)} ${link}`;
    const tooLong = `${'y'.repeat(260)} ${link}`;
    for (const links of [{ shorten: false, utm: { campaign: 'c'.repeat(100) } }, { shorten: true }]) {
      expect((await check(fits, links)).body.data.targets[0].findings).toEqual([]);
      expect((await check(tooLong, links)).body.data.targets[0].findings).toEqual([expect.objectContaining({ code: 'caption.maxLength' })]);
    }
  });
});
