// Limits section: N requests a minute per person and workspace, shared by all their keys and sessions: up to N at
// once, then given back at N per minute (no calendar window that hands out a second N at its edge).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { addPerson, bearer, createWorkspace, keyFor } from '../support/fixtures.ts';
import { RateLimiter } from '../../src/ratelimit/limiter.ts';
import { deleteDrainedBuckets, takeFromBucket } from '../../src/ratelimit/bucket.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../src/errors/appError.ts';

const limit = 6;
let service: TestService;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMIT_PER_MINUTE: String(limit) });
});
afterAll(() => service.stop());

const call = (headers: Record<string, string>) => fetch(`${service.url}/v1/social-accounts`, { headers });

/** The `RateLimit` field's remaining requests and seconds until all are back. */
function rateLimitField(response: Response): { r: number; t: number } {
  const match = /^"default";r=(\d+);t=(\d+)$/.exec(response.headers.get('ratelimit') ?? '');
  expect(match, `RateLimit: ${response.headers.get('ratelimit')}`).not.toBeNull();
  return { r: Number(match![1]), t: Number(match![2]) };
}

describe('rate limit', () => {
  it('is shared by two keys and the session of one person, and not by another person', async () => {
    const password = 'a long enough password';
    const acme = await createWorkspace(service.services, { password });
    const secondKey = await keyFor(service.services, acme.workspaceId, acme.ownerId);
    const colleague = await addPerson(service.services, acme.workspaceId, 'admin');
    const colleagueKey = await keyFor(service.services, acme.workspaceId, colleague.userId);
    const owner = await service.services.db.prisma.user.findUniqueOrThrow({ where: { id: acme.ownerId } });
    const login = await fetch(`${service.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: owner.email, password }),
    });
    const session = { cookie: login.headers.get('set-cookie')!.split(';')[0]!, 'x-workspace-id': acme.workspaceId };

    const remaining: number[] = [];
    for (const headers of [bearer(acme.ownerKey), bearer(secondKey.apiKey), session, bearer(acme.ownerKey), bearer(secondKey.apiKey), session]) {
      const response = await call(headers);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-policy')).toBe(`"default";q=${limit};w=60`);
      remaining.push(rateLimitField(response).r);
    }
    expect(remaining).toEqual([5, 4, 3, 2, 1, 0]);

    for (const headers of [bearer(secondKey.apiKey), session]) {
      const limited = await call({ ...headers, 'accept-language': 'en' });
      expect(limited.status).toBe(429);
      // One request comes back every 60 / limit seconds; all of them within the minute.
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60 / limit);
      const body = await limited.json();
      expect(body.error.code).toBe('RATE_LIMITED');
      expect(body.error.message).toBe(`Too many requests: the limit is ${limit} per minute. Retry in ${retryAfter} seconds.`);
      const field = rateLimitField(limited);
      expect(field.r).toBe(0);
      expect(field.t).toBeGreaterThanOrEqual(retryAfter);
      expect(field.t).toBeLessThanOrEqual(60);
    }

    const other = await call(bearer(colleagueKey.apiKey));
    expect(other.status).toBe(200);
    expect(rateLimitField(other).r).toBe(limit - 1);
  });

  it('counts a person separately in each workspace', async () => {
    const first = await createWorkspace(service.services);
    const second = await createWorkspace(service.services);
    for (let i = 0; i < limit; i++) expect((await call(bearer(first.ownerKey))).status).toBe(200);
    expect((await call(bearer(first.ownerKey))).status).toBe(429);
    expect((await call(bearer(second.ownerKey))).status).toBe(200);
  });

  it.each([16, 64])('passes exactly the limit of %i concurrent requests, and every refusal says none are left', async (concurrency) => {
    const acme = await createWorkspace(service.services);
    const responses = await Promise.all(Array.from({ length: concurrency }, () => call(bearer(acme.ownerKey))));
    const passed = responses.filter((response) => response.status === 200);
    const refused = responses.filter((response) => response.status === 429);
    expect(passed).toHaveLength(limit);
    expect(refused).toHaveLength(concurrency - limit);
    expect(
      passed
        .map((response) => rateLimitField(response).r)
        .sort()
        .reverse(),
    ).toEqual([5, 4, 3, 2, 1, 0]);
    for (const response of refused) {
      expect(rateLimitField(response).r).toBe(0);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  });

  it('gives no second allowance to a burst that straddles a minute boundary, nor before the minute has passed', async () => {
    // The limiter's and the bucket's clock moved across 12:00 instead of waiting for a real minute to turn.
    let now = Date.UTC(2030, 0, 1, 11, 59, 57);
    const requests = new RateLimiter(service.services.db.pool, limit, () => now);
    const subject = `boundary-${randomUUID()}`;
    const burst = async () => {
      const statuses: number[] = [];
      for (let i = 0; i < limit; i++) statuses.push((await requests.take(subject)).exceeded ? 429 : 200);
      return statuses;
    };
    expect(await burst()).toEqual(Array(limit).fill(200));
    // 3.5 s later, past the boundary: calendar-minute windows would pass `limit` more; the bucket gave back 6 × 3.5 / 60.
    now = Date.UTC(2030, 0, 1, 12, 0, 0, 500);
    expect(await burst()).toEqual(Array(limit).fill(429));
    // Ten seconds after the first burst, one request is back (one every 60 / 6 s); a minute after it, all of them.
    now = Date.UTC(2030, 0, 1, 12, 0, 7);
    expect((await burst()).filter((status) => status === 200)).toHaveLength(1);
    now = Date.UTC(2030, 0, 1, 12, 1, 7);
    expect(await burst()).toEqual(Array(limit).fill(200));
  });
});

describe('a lowered limit', () => {
  it('shows no negative remaining and a reset within the minute when a process with a higher limit filled the bucket', async () => {
    // The server before a restart with a lower RATE_LIMIT_PER_MINUTE, on the same database.
    const before = await startTestService({ RATE_LIMIT_PER_MINUTE: String(limit * 4) }, service.databaseUrl);
    try {
      const acme = await createWorkspace(service.services);
      for (let i = 0; i < limit * 3; i++) expect((await fetch(`${before.url}/v1/social-accounts`, { headers: bearer(acme.ownerKey) })).status).toBe(200);
      const refused = await call(bearer(acme.ownerKey));
      expect(refused.status).toBe(429);
      const field = rateLimitField(refused);
      expect(field.r).toBe(0);
      expect(field.t).toBeLessThanOrEqual(60);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60 / limit);
    } finally {
      await before.stop();
    }
  });

  it('gives the new limit its whole allowance one period after a higher limit filled the bucket', async () => {
    const pool = service.services.db.pool;
    const subject = `lowered-${randomUUID()}`;
    const take = (limit: number, periodMs: number, need: number) =>
      takeFromBucket(pool, { limit, periodMs }, { subject, holder: randomUUID(), giveBack: 0, need, want: need });
    expect((await take(100, 60_000, 100)).granted).toBe(100);
    const full = await take(10, 500, 0);
    expect(full.available).toBe(0);
    expect(full.level).toBeLessThanOrEqual(10);
    await sleep(500);
    expect((await take(10, 500, 10)).granted).toBe(10);
  });
});

describe('the limiter', () => {
  const limiter = () => new RateLimiter(service.services.db.pool, 10);

  it('counts a weighted request as that many, and refuses one that does not fit with what is left', async () => {
    const requests = limiter();
    const subject = `weights-${randomUUID()}`;
    expect(await requests.take(subject, 4)).toMatchObject({ exceeded: false, remaining: 6 });
    expect(await requests.take(subject, 4)).toMatchObject({ exceeded: false, remaining: 2 });
    const refused = await requests.take(subject, 3);
    expect(refused).toMatchObject({ exceeded: true, remaining: 2 });
    // One more request comes back every 6 seconds.
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(6);
    expect(await requests.take(subject, 2)).toMatchObject({ exceeded: false, remaining: 0 });
    expect(await requests.take(subject)).toMatchObject({ exceeded: true, remaining: 0 });
  });

  it('counts a weight above the limit as the whole allowance, and refuses weights that are not whole and positive', async () => {
    const requests = limiter();
    const subject = `heavy-${randomUUID()}`;
    expect(await requests.take(subject, 50)).toMatchObject({ exceeded: false, remaining: 0, resetSeconds: 60 });
    expect((await requests.take(subject)).exceeded).toBe(true);
    await expect(requests.take(subject, 0)).rejects.toThrow(RangeError);
    await expect(requests.take(subject, 1.5)).rejects.toThrow(RangeError);
  });

  it('never passes more than the limit between two processes taking at once', async () => {
    const [first, second] = [limiter(), limiter()];
    const subject = `shared-${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? first : second).take(subject)));
    const passed = results.filter((result) => !result.exceeded).length;
    expect(passed).toBeLessThanOrEqual(10);
    expect(passed).toBeGreaterThan(0);
  });

  it('charges a costly request of a caller against the same allowance as its plain requests', async () => {
    const acme = await createWorkspace(service.services);
    const { actor } = await service.services.callers.resolve({ kind: 'apiKey', token: acme.ownerKey });
    expect((await service.services.callers.charge(actor, 3)).remaining).toBe(limit - 4);
    const refused = await service.services.callers.charge(actor, 3).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('RATE_LIMITED');
    expect(Number((refused as AppError).headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(rateLimitField(await call(bearer(acme.ownerKey))).r).toBe(limit - 5);
  });
});

describe('housekeeping', () => {
  it('deletes buckets drained for over an hour and keeps the others', async () => {
    const pool = service.services.db.pool;
    const [old, recent] = [`test-old-${randomUUID()}`, `test-recent-${randomUUID()}`];
    await pool.query(
      `INSERT INTO rate_limit_bucket (subject, level, at) VALUES ($1, 10, now() - interval '61 minutes'), ($2, 10, now() - interval '59 minutes')`,
      [old, recent],
    );
    expect(await deleteDrainedBuckets(pool)).toBeGreaterThanOrEqual(1);
    const { rows } = await pool.query('SELECT subject FROM rate_limit_bucket WHERE subject = ANY($1)', [[old, recent]]);
    expect(rows.map((row) => row.subject)).toEqual([recent]);
  });
});
