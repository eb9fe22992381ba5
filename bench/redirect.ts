// Section `redirect`: GET /l/<code>, a short link of a published caption, through the whole service (the link looked
// up, once, then cached; each click counted in PostgreSQL, in batches), against a bare node:http 302.
import { connectSocialAccount } from '../src/accounts/socialAccounts.ts';
import { publishedCaption } from '../src/links/shortLinks.ts';
import { codeOf } from '../src/links/shortForm.ts';
import { benchRuntime, benchWorkspace, figuresLine, loadShape, measure, startChildServer } from './support.ts';
import type { Bench } from './support.ts';

const destination = 'https://example.com/spring?utm_source=bench';

/** A sandbox target with one short link; answers its code and target. */
async function seed(bench: Bench): Promise<{ code: string; targetId: string }> {
  const runtime = await benchRuntime(bench.serviceEnv);
  try {
    const { db, secrets, adapters, outbox } = runtime.services;
    const { workspaceId } = await benchWorkspace(runtime.services, 'redirect', 'pro');
    const { connectionId } = await connectSocialAccount(db, secrets, adapters, outbox, { workspaceId, provider: 'sandbox', username: 'bench-links' });
    const owner = await db.prisma.membership.findFirstOrThrow({ where: { workspaceId } });
    const post = await db.prisma.post.create({
      data: { workspaceId, createdById: owner.userId, caption: destination, targets: { create: { connectionId, placement: 'feed', position: 0 } } },
      include: { targets: true },
    });
    const target = { targetId: post.targets[0]!.id, postId: post.id, workspaceId, connectionId, provider: 'sandbox' };
    await publishedCaption(db.pool, target, destination, { links: { shorten: true, utm: {} } });
    return { code: codeOf(target.targetId, destination), targetId: target.targetId };
  } finally {
    await runtime.stop();
  }
}

async function load(script: string, env: Record<string, string>, code: string) {
  const server = await startChildServer(script, env);
  try {
    const first = await fetch(`${server.url}/l/${code}`, { redirect: 'manual' });
    if (first.status !== 302 || first.headers.get('location') !== destination)
      throw new Error(`${script} answered ${first.status} to ${first.headers.get('location')}`);
    return await measure(`${server.url}/l/${code}`, {});
  } finally {
    await server.stop();
  }
}

export async function redirect(bench: Bench): Promise<void> {
  const { code, targetId } = await seed(bench);
  console.log(
    `one short link, ${loadShape.connections} connections, ${loadShape.warmupSeconds} s warm-up, ${loadShape.seconds} s measured (every answer a 302)`,
  );
  const service = await load('bin/server.ts', bench.serviceEnv, code);
  console.log(figuresLine('GET /l/<code> (cached link, click counted in batches)', service));
  const bare = await load('bench/bareRedirect.ts', { LOCATION: destination }, code);
  console.log(figuresLine('bare node:http 302 (no lookup, no counting)', bare));
  console.log(`ratio service/bare = ${(service.rps / bare.rps).toFixed(2)}`);

  const runtime = await benchRuntime(bench.serviceEnv);
  try {
    const { rows } = await runtime.services.db.pool.query<{ clicks: number }>(
      'SELECT coalesce(sum(clicks), 0)::int AS clicks FROM link_click_day WHERE target_id = $1',
      [targetId],
    );
    console.log(`clicks counted: ${rows[0]!.clicks} (the check, the warm-up and the ${service.non2xx} measured redirects; errors: ${service.errors})`);
  } finally {
    await runtime.stop();
  }
}
