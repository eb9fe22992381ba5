// A passing database failure is never a 500: a transaction PostgreSQL rolls back for a deadlock is run again, and a
// connection the database ends mid-request answers 503 SERVICE_UNAVAILABLE with Retry-After, in REST, GraphQL and MCP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { serviceWithWorkspace, type ServiceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { bearer, connectSandbox } from '../support/fixtures.ts';
import { call, httpClient, refusalOf } from '../support/mcp.ts';

let ctx: ServiceWithWorkspace;
let admin: pg.Client;
let connectionId: string;

beforeAll(async () => {
  ctx = await serviceWithWorkspace();
  connectionId = await connectSandbox(ctx.service.services, ctx.acme.workspaceId);
  admin = new pg.Client({ connectionString: ctx.service.databaseUrl });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await ctx?.service.stop();
});

async function newPost(): Promise<{ id: string; version: number }> {
  const created = await ctx.api('POST', '/posts', { content: { caption: 'Before' }, targets: [{ connectionId, placement: 'feed' }] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.data.id, version: created.body.data.version };
}

/** The server process of the service's statement that waits for a lock, once there is one. */
async function backendWaitingForLock(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { rows } = await admin.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
    if (rows[0]) return rows[0].pid;
    await sleep(25);
  }
  throw new Error('no statement waited for the lock');
}

/** Runs `request` while another transaction holds the post's row; `meanwhile` gets the backend that waits for it. */
async function whileHeld<T>(postId: string, request: () => Promise<T>, meanwhile: (waiting: number) => Promise<unknown>): Promise<T> {
  const holder = new pg.Client({ connectionString: ctx.service.databaseUrl });
  await holder.connect();
  try {
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM post WHERE id = $1 FOR UPDATE', [postId]);
    const answer = request();
    await meanwhile(await backendWaitingForLock());
    await holder.query('ROLLBACK');
    return await answer;
  } finally {
    await holder.end();
  }
}

/** Runs `request` while another transaction holds the post's row, and ends the database connection that waits for it. */
const withConnectionEnded = <T>(postId: string, request: () => Promise<T>) =>
  whileHeld(postId, request, (pid) => admin.query('SELECT pg_terminate_backend($1)', [pid]));

describe('a connection the database ends during a request', () => {
  it('REST answers 503 SERVICE_UNAVAILABLE with Retry-After, and the same request then succeeds', async () => {
    const post = await newPost();
    const change = { version: post.version, content: { caption: 'After' } };
    const answer = await withConnectionEnded(post.id, () =>
      fetch(`${ctx.service.url}/v1/posts/${post.id}`, {
        method: 'PATCH',
        headers: bearer(ctx.acme.ownerKey, { 'content-type': 'application/json' }),
        body: JSON.stringify(change),
      }),
    );
    const body = await answer.json();
    expect(answer.status, JSON.stringify(body)).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('1 second'), requestId: expect.any(String) });
    const retried = await ctx.api('PATCH', `/posts/${post.id}`, change);
    expect(retried.status).toBe(200);
    expect(retried.body.data.content.caption).toBe('After');
  });

  it('GraphQL answers the error with code SERVICE_UNAVAILABLE', async () => {
    const post = await newPost();
    const answer = await withConnectionEnded(post.id, () =>
      fetch(`${ctx.service.url}/graphql`, {
        method: 'POST',
        headers: bearer(ctx.acme.ownerKey, { 'content-type': 'application/json' }),
        body: JSON.stringify({
          query: 'mutation ($id: ID!, $version: Int!) { updatePost(id: $id, version: $version, content: { caption: "After" }) { id } }',
          variables: { id: post.id, version: post.version },
        }),
      }).then((response) => response.json()),
    );
    expect(
      answer.errors?.map((error: { extensions: { code: string } }) => error.extensions.code),
      JSON.stringify(answer),
    ).toEqual(['SERVICE_UNAVAILABLE']);
  });

  it('an MCP tool call is refused with code SERVICE_UNAVAILABLE', async () => {
    const post = await newPost();
    const client = await httpClient(ctx.service.url, ctx.acme.ownerKey);
    try {
      const result = await withConnectionEnded(post.id, () => call(client, 'update_post', { postId: post.id, version: post.version, caption: 'After' }));
      expect(result.isError).toBe(true);
      expect(refusalOf(result).code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await client.close();
    }
  });
});

describe('a transaction that outlives its timeout waiting for a lock', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After', async () => {
    const post = await newPost();
    // Prisma ends an interactive transaction after 5 s (its default timeout), as on a database too loaded to answer.
    const answer = await whileHeld(
      post.id,
      () => ctx.api('PATCH', `/posts/${post.id}`, { version: post.version, content: { caption: 'After' } }),
      () => sleep(5_500),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(503);
    expect(answer.body.error.code).toBe('SERVICE_UNAVAILABLE');
  });
});

describe('a transaction chosen as a deadlock victim', () => {
  it('is run again and succeeds', async () => {
    const post = await newPost();
    const holder = new pg.Client({ connectionString: ctx.service.databaseUrl });
    await holder.connect();
    try {
      // The holder waits longer than the service before looking for a deadlock, so the service's transaction is the
      // one PostgreSQL ends: it locked the post and waits for the targets, which the holder locked first.
      await holder.query('BEGIN');
      await holder.query(`SET LOCAL deadlock_timeout = '30s'`);
      await holder.query('SELECT 1 FROM post_target WHERE post_id = $1 FOR UPDATE', [post.id]);
      const answer = ctx.api('PATCH', `/posts/${post.id}`, { version: post.version, targets: [{ connectionId, placement: 'feed' }] });
      await backendWaitingForLock();
      await holder.query('SELECT 1 FROM post WHERE id = $1 FOR UPDATE', [post.id]);
      await holder.query('COMMIT');
      const updated = await answer;
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      expect(updated.body.data.version).toBe(post.version + 1);
    } finally {
      await holder.end();
    }
  });
});
