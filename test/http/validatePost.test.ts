// POST /v1/posts/validate and GraphQL `validatePost`: the dry run of creating a post. The same checks as create,
// reported per target as findings (what create's 422 would list), nothing written; a body create would refuse with
// 400 is refused the same way.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { bearer, connectSandbox, createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import type { Api } from '../support/posts.ts';

let service: TestService;
let acme: TestWorkspace;
let api: Api;
let feed: string;
let second: string;

beforeAll(async () => {
  ({ service, acme, api } = await serviceWithWorkspace());
  feed = await connectSandbox(service.services, acme.workspaceId);
  second = await connectSandbox(service.services, acme.workspaceId);
});
afterAll(() => service.stop());

/** Every row a create could write: posts, their targets, and the outbox. */
async function rowsWritten(): Promise<number[]> {
  const { prisma } = service.services.db;
  return Promise.all([prisma.post.count(), prisma.postTarget.count(), prisma.outboxEvent.count()]);
}

describe('POST /posts/validate', () => {
  it('answers valid for a post create would accept, and writes nothing', async () => {
    const before = await rowsWritten();
    const { status, body } = await api('POST', '/posts/validate', {
      content: { caption: 'Ready to go' },
      targets: [
        { connectionId: feed, placement: 'feed' },
        { connectionId: second, placement: 'feed', override: { caption: 'Also fine' } },
      ],
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      data: {
        valid: true,
        targets: [
          { index: 0, connectionId: feed, placement: 'feed', findings: [] },
          { index: 1, connectionId: second, placement: 'feed', findings: [] },
        ],
      },
    });
    expect(await rowsWritten()).toEqual(before);
  });

  it('reports each broken network rule under its target, exactly as create’s 422 details', async () => {
    const input = {
      content: { caption: 'x'.repeat(501) },
      targets: [
        { connectionId: feed, placement: 'feed', override: { caption: 'short is fine' } },
        { connectionId: second, placement: 'feed' },
        { connectionId: feed, placement: 'reel' },
      ],
    };
    const before = await rowsWritten();
    const { status, body } = await api('POST', '/posts/validate', input);
    expect(status).toBe(200);
    expect(body.data.valid).toBe(false);
    expect(body.data.targets[0].findings).toEqual([]);
    expect(body.data.targets[1].findings).toEqual([
      { field: 'targets[1].caption', code: 'caption.maxLength', message: 'The caption is 501 characters long; the limit is 500.' },
    ]);
    expect(body.data.targets[2].findings.map((finding: { code: string }) => finding.code)).toEqual(['caption.maxLength', 'media.min']);
    expect(await rowsWritten()).toEqual(before);

    const created = await api('POST', '/posts', input);
    expect(created.status).toBe(422);
    expect(created.body.error.details).toEqual(body.data.targets.flatMap((target: { findings: unknown[] }) => target.findings));
  });

  it('reports unknown and foreign accounts, duplicate targets and unknown or unready media as findings', async () => {
    const other = await createWorkspace(service.services);
    const theirs = await connectSandbox(service.services, other.workspaceId);
    const upload = await api('POST', '/media/uploads', { filename: 'photo.png', contentType: 'image/png', size: 1000 });
    expect(upload.status).toBe(201);
    const pending = upload.body.data.id as string;
    const missing = randomUUID();
    const { status, body } = await api('POST', '/posts/validate', {
      content: { caption: 'Look', mediaIds: [missing, pending] },
      targets: [
        { connectionId: theirs, placement: 'feed' },
        { connectionId: feed, placement: 'feed' },
        { connectionId: feed, placement: 'feed' },
      ],
    });
    expect(status).toBe(200);
    expect(body.data.valid).toBe(false);
    const codes = body.data.targets.map((target: { findings: { field: string; code: string }[] }) =>
      target.findings.map((finding) => `${finding.field} ${finding.code}`),
    );
    const mediaFindings = ['content.mediaIds[0] unknownMedia', 'content.mediaIds[1] mediaNotReady'];
    expect(codes).toEqual([['targets[0].connectionId unknownAccount', ...mediaFindings], [...mediaFindings], ['targets[2] duplicateTarget', ...mediaFindings]]);
    expect(body.data.targets[0].findings[0].message).toBe('No connected social account with this id in this workspace.');
  });

  it('speaks the caller’s language', async () => {
    const { body } = await api(
      'POST',
      '/posts/validate',
      { content: { caption: '' }, targets: [{ connectionId: feed, placement: 'feed' }] },
      { 'accept-language': 'de' },
    );
    expect(body.data.targets[0].findings).toEqual([{ field: 'targets[0].caption', code: 'content.empty', message: expect.stringMatching(/Beitrag|leer/) }]);
  });

  it('refuses a body create would refuse with 400, with details', async () => {
    const missingTargets = await api('POST', '/posts/validate', { content: { caption: 'No targets' } });
    expect(missingTargets.status).toBe(400);
    expect(missingTargets.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: [expect.objectContaining({ field: 'targets' })] });
    const tooLong = await api('POST', '/posts/validate', { content: { caption: 'x'.repeat(70_001) }, targets: [{ connectionId: feed, placement: 'feed' }] });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.details).toEqual([expect.objectContaining({ field: 'content.caption', code: 'maxLength' })]);
  });
});

describe('GraphQL validatePost', () => {
  it('answers as REST does, for the same input', async () => {
    const input = {
      content: { caption: 'x'.repeat(501) },
      targets: [
        { connectionId: feed, placement: 'feed' },
        { connectionId: randomUUID(), placement: 'feed' },
      ],
    };
    const rest = await api('POST', '/posts/validate', input);
    const before = await rowsWritten();
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: bearer(acme.ownerKey, { 'content-type': 'application/json' }),
      body: JSON.stringify({
        query: `query Check($content: PostContentInput!, $targets: [TargetInput!]!) {
          validatePost(content: $content, targets: $targets) { valid targets { index connectionId placement findings { field code message } } }
        }`,
        variables: { ...input, targets: input.targets.map((target) => ({ ...target, placement: 'FEED' })) },
      }),
    });
    const graph = await response.json();
    expect(graph.errors).toBeUndefined();
    const inGraphTerms = { ...rest.body.data, targets: rest.body.data.targets.map((target: object) => ({ ...target, placement: 'FEED' })) };
    expect(graph.data.validatePost).toEqual(inGraphTerms);
    expect(await rowsWritten()).toEqual(before);
  });
});
