// Review links over HTTP: created by owners and admins (the URL shown once, only its hash stored, expiring), the page
// a client opens without signing in (the post as each network shows it, in their language, under its own CSP),
// approving and asking for changes by name, and the 404 of an expired, revoked or unknown link, which shows nothing
// of the post; the page and its actions are rate limited by link and address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { addPerson, connectSandbox, createWorkspace, keyFor, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, type Api } from '../support/posts.ts';
import { setUserRole } from '../../src/workspaces/workspaces.ts';
import { perLink } from '../../src/ratelimit/reviewLinkGuard.ts';

let service: TestService;
let acme: TestWorkspace;
let owner: Api;
let editor: Api;
let account: string;

beforeAll(async () => {
  ({ service, acme, api: owner } = await serviceWithWorkspace());
  account = await connectSandbox(service.services, acme.workspaceId);
  await owner('PATCH', '/workspace', { approvalRequired: true });
  const person = await addPerson(service.services, acme.workspaceId, 'admin');
  const { apiKey } = await keyFor(service.services, acme.workspaceId, person.userId);
  await setUserRole(service.services.db, { workspaceId: acme.workspaceId, userId: person.userId, role: 'editor' });
  editor = apiFor(service.url, apiKey);
});
afterAll(() => service.stop());

const caption = 'Spring sale starts Monday #spring https://example.com/sale';

/** An editor's post, submitted: what a client is asked to review. */
async function postInReview() {
  const created = await editor('POST', '/posts', { content: { caption }, targets: [{ connectionId: account, placement: 'feed' }] });
  await editor('POST', `/posts/${created.body.data.id}/submit`);
  return created.body.data.id as string;
}

async function linkTo(postId: string, body: unknown = {}) {
  const created = await owner('POST', `/posts/${postId}/review-links`, body);
  expect(created.status).toBe(201);
  return { ...created.body.data, local: created.body.data.url.replace(service.services.config.publicBaseUrl, service.url) } as {
    id: string;
    url: string;
    expiresAt: string;
    local: string;
  };
}

const open = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });
const decide = (url: string, form: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });

describe('POST /posts/{id}/review-links', () => {
  it('answers the URL once, a long random token stored only as its hash, expiring in 72 hours by default', async () => {
    const postId = await postInReview();
    const before = Date.now();
    const link = await linkTo(postId);
    expect(link.url).toMatch(new RegExp(`^${service.services.config.publicBaseUrl}/review/rvw_[\\w-]{43}$`));
    expect(new Date(link.expiresAt).getTime() - before).toBeGreaterThanOrEqual(72 * 3_600_000 - 1000);
    expect(new Date(link.expiresAt).getTime() - before).toBeLessThanOrEqual(72 * 3_600_000 + 5000);
    const token = link.url.split('/').at(-1)!;
    const stored = await service.services.db.prisma.reviewLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(token);

    const listed = await owner('GET', `/posts/${postId}/review-links`);
    expect(listed.body.data).toEqual([{ id: link.id, expiresAt: link.expiresAt, revokedAt: null, createdAt: expect.any(String) }]);
    const longest = await linkTo(postId, { expiresInHours: 720 });
    expect(new Date(longest.expiresAt).getTime() - Date.now()).toBeGreaterThan(719 * 3_600_000);
  });

  it('refuses more than 720 hours, an editor, and another workspace’s post', async () => {
    const postId = await postInReview();
    const tooLong = await owner('POST', `/posts/${postId}/review-links`, { expiresInHours: 721 });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.details).toEqual([expect.objectContaining({ field: 'expiresInHours', code: 'maximum' })]);
    const byEditor = await editor('POST', `/posts/${postId}/review-links`, {});
    expect(byEditor.status).toBe(403);
    expect(byEditor.body.error.code).toBe('FORBIDDEN');
    const stranger = apiFor(service.url, (await createWorkspace(service.services)).ownerKey);
    expect((await stranger('POST', `/posts/${postId}/review-links`, {})).status).toBe(404);
    expect((await stranger('GET', `/posts/${postId}/review-links`)).status).toBe(404);
  });
});

describe('the review page', () => {
  it('opens without a cookie, sets none, and shows the post as the network shows it under its own CSP', async () => {
    const link = await linkTo(await postInReview());
    const answer = await open(link.local);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.headers.get('set-cookie')).toBeNull();
    expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const csp = answer.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/style-src 'sha256-[\w+/=]+'/);
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toContain('script-src');
    const html = await answer.text();
    expect(html).not.toMatch(/<script|\/assets\//);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('Sandbox');
    expect(html).toContain('Spring sale starts Monday <span class="tag">#spring</span> <span class="link">https://example.com/sale</span>');
    expect(html).toContain('name="decision" value="approve"');
  });

  it('speaks the visitor’s language (Accept-Language), in all four', async () => {
    const link = await linkTo(await postInReview());
    const titles = { en: 'Review a post', de: 'Beitrag prüfen', fr: 'Relire une publication', es: 'Revisar una publicación' };
    for (const [language, title] of Object.entries(titles)) {
      const html = await (await open(link.local, { 'accept-language': `${language};q=1, en;q=0.5` })).text();
      expect(html).toContain(`<html lang="${language}">`);
      expect(html).toContain(`<h1>${title}</h1>`);
    }
  });

  it('approves by the visitor’s name: the post is an approved draft and the decision is among its comments', async () => {
    const postId = await postInReview();
    const link = await linkTo(postId);
    const answer = await decide(link.local, { decision: 'approve', name: '  Clara Client ', comment: 'Lovely' });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('you approved the post');
    const post = (await owner('GET', `/posts/${postId}`)).body.data;
    expect(post).toMatchObject({ status: 'draft', review: { state: 'approved', decidedBy: { userId: null, name: 'Clara Client' } } });
    const comments = (await owner('GET', `/posts/${postId}/comments`)).body.data;
    expect(comments[0]).toMatchObject({ kind: 'approved', text: 'Lovely', author: { userId: null, email: null, name: 'Clara Client' } });
    // No longer in review: the page still shows the post, without the form, and a second decision is refused.
    const again = await decide(link.local, { decision: 'request_changes', name: 'Clara', comment: 'Wait' });
    expect(again.status).toBe(409);
    expect(await again.text()).not.toContain('name="decision"');
    expect((await owner('GET', `/posts/${postId}`)).body.data.status).toBe('draft');
  });

  it('asks for changes only with a comment and a name, showing the form again with what is missing', async () => {
    const postId = await postInReview();
    const link = await linkTo(postId);
    const missing = await decide(link.local, { decision: 'request_changes', name: '', comment: '' });
    expect(missing.status).toBe(400);
    const page = await missing.text();
    expect(page).toContain('role="alert"');
    expect(page).toMatch(/name: .*comment: /);
    expect((await owner('GET', `/posts/${postId}`)).body.data.status).toBe('in_review');

    const sent = await decide(link.local, { decision: 'request_changes', name: 'Clara Client', comment: 'Say "from Monday"' });
    expect(sent.status).toBe(200);
    expect((await owner('GET', `/posts/${postId}`)).body.data).toMatchObject({ status: 'changes_requested', review: { state: 'changes_requested' } });
    const comments = (await owner('GET', `/posts/${postId}/comments`)).body.data;
    expect(comments[0]).toMatchObject({ kind: 'changes_requested', text: 'Say "from Monday"', author: { name: 'Clara Client' } });
  });
});

describe('a link not in force', () => {
  async function expectGone(url: string) {
    for (const answer of [await open(url), await decide(url, { decision: 'approve', name: 'Mallory' })]) {
      expect(answer.status).toBe(404);
      const html = await answer.text();
      expect(html).toContain('This review link is not valid');
      expect(html).not.toContain('Spring sale');
      expect(html).not.toContain('Sandbox');
    }
  }

  it('answers 404 with nothing of the post once expired', async () => {
    const postId = await postInReview();
    const link = await linkTo(postId, { expiresInHours: 1 });
    // The link's hour has passed: its expiry is set an hour back, as the clock would have moved it.
    await service.services.db.prisma.reviewLink.update({ where: { id: link.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expectGone(link.local);
    expect((await owner('GET', `/posts/${postId}`)).body.data.status).toBe('in_review');
  });

  it('answers 404 once revoked, and lists it revoked', async () => {
    const postId = await postInReview();
    const link = await linkTo(postId);
    expect((await open(link.local)).status).toBe(200);
    expect((await editor('DELETE', `/posts/${postId}/review-links/${link.id}`)).status).toBe(403);
    expect((await owner('DELETE', `/posts/${postId}/review-links/${link.id}`)).status).toBe(204);
    await expectGone(link.local);
    const listed = (await owner('GET', `/posts/${postId}/review-links`)).body.data;
    expect(listed[0]).toMatchObject({ id: link.id, revokedAt: expect.any(String) });
    expect((await owner('DELETE', `/posts/${postId}/review-links/${link.id}`)).status).toBe(204);
    expect((await owner('DELETE', `/posts/${postId}/review-links/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });

  it('answers an unknown token the same 404', async () => {
    await expectGone(`${service.url}/review/rvw_${'x'.repeat(43)}`);
    await expectGone(`${service.url}/review/nothing-like-a-token`);
  });
});

describe('the rate limit', () => {
  it('throttles one link past its limit with 429 and Retry-After, other links going on', async () => {
    const link = await linkTo(await postInReview());
    // The bucket drains as it counts (20 a minute, one every 3 s): on a slow machine a request or two more get through.
    let passed = 0;
    let answer = await open(link.local);
    while (answer.status === 200 && passed < perLink.limit + 5) {
      passed++;
      answer = await open(link.local);
    }
    expect(answer.status).toBe(429);
    expect(passed).toBeGreaterThanOrEqual(perLink.limit);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await answer.text()).not.toContain('Spring sale');
    const other = await linkTo(await postInReview());
    expect((await open(other.local)).status).toBe(200);
  });
});
