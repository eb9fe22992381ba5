// AI captions as a thread (POST /ai/captions, format: "thread"), with the sandbox provider: a long text comes back cut
// into parts that each fit the network as it counts, links and mentions whole, for one credit; the format's
// requirements refused with their field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { createWorkspace } from '../support/fixtures.ts';
import { apiFor, type Api } from '../support/posts.ts';
import { setPlan } from '../../src/workspaces/workspaces.ts';
import { captionLength } from '../../src/posts/captionLength.ts';
import { rulesOf } from '../../src/providers/catalog.ts';

let service: TestService;
let api: Api;

beforeAll(async () => {
  service = await startTestService({ AI_PROVIDER: 'sandbox' });
  const workspace = await createWorkspace(service.services);
  await setPlan(service.services.db, { workspaceId: workspace.workspaceId, plan: 'pro', aiCredits: 50 });
  api = apiFor(service.url, workspace.ownerKey);
});
afterAll(async () => {
  await service?.stop();
});

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe('POST /ai/captions with format "thread"', () => {
  it('cuts a long rewrite into parts that each fit Bluesky, links and mentions whole, for one credit', async () => {
    const link = 'https://moreau.example/blog/how-we-bake-our-sourdough-every-single-morning';
    const caption = [
      'Every morning at five the ovens at Moreau Bakery are already warm, and the first dough of the day has rested all night.',
      `We asked @baker.moreau.bsky.social how it works, and the answer is patience: flour, water, salt and time. Read the whole story at ${link} and tell us what you think.`,
      'The starter is older than the shop itself. It came from a grandmother in Lyon, travelled in a jar, and has been fed twice a day ever since.',
      'Come by on Sunday for a slice, a coffee and a look at the ovens. #sourdough #bakery',
    ].join(' ');
    const before = (await api('GET', '/ai')).body.data.credits.remaining;
    const { status, body } = await api('POST', '/ai/captions', { action: 'rewrite', caption, provider: 'bluesky', format: 'thread', count: 1 });
    expect(status, JSON.stringify(body)).toBe(200);
    const [suggestion] = body.data.suggestions as string[];
    const [parts] = body.data.threads as string[][];
    const placement = rulesOf('bluesky')!.placements[0]!;
    expect(parts!.length).toBeGreaterThan(1);
    for (const part of parts!) expect(captionLength(part, placement.caption)).toBeLessThanOrEqual(placement.caption.maxLength);
    expect(parts!.flatMap(words)).toEqual(words(suggestion!));
    expect(parts!.filter((part) => words(part).includes(link))).toHaveLength(1);
    expect(parts!.filter((part) => words(part).includes('@baker.moreau.bsky.social'))).toHaveLength(1);
    expect(body.data.creditsUsed).toBe(1);
    expect((await api('GET', '/ai')).body.data.credits.remaining).toBe(before - 1);
  });

  it('needs a rewrite and a network, and knows only post and thread', async () => {
    const refused = async (body: Record<string, unknown>) => {
      const answer = await api('POST', '/ai/captions', { caption: 'A long story', ...body });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      return answer.body.error.details.map((detail: { field: string }) => detail.field);
    };
    expect(await refused({ action: 'rewrite', format: 'thread' })).toEqual(['provider']);
    expect(await refused({ action: 'hashtags', format: 'thread', provider: 'x' })).toEqual(['action']);
    expect(await refused({ action: 'rewrite', format: 'book', provider: 'x' })).toEqual(['format']);
  });
});
