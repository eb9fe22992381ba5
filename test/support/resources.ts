// One object of every kind an id route of the API names, created in a workspace through the API itself, and the
// lookup from a route's path parameter to the object it names.
import { connectSandbox, type TestWorkspace } from './fixtures.ts';
import { apiFor } from './posts.ts';
import type { TestService } from './service.ts';
import type { Hints } from './openapiOperations.ts';

export interface Resources {
  socialAccount: string;
  post: string;
  media: string;
  webhook: string;
  delivery: string;
  queue: string;
  reviewLink: string;
  feed: string;
  inboxItem: string;
}

/** The collection segment before a path parameter (`/posts/{id}`, `/deliveries/{deliveryId}`) → its kind. */
const kindByCollection: Record<string, keyof Resources> = {
  'social-accounts': 'socialAccount',
  posts: 'post',
  media: 'media',
  uploads: 'media',
  webhooks: 'webhook',
  deliveries: 'delivery',
  queues: 'queue',
  'review-links': 'reviewLink',
  feeds: 'feed',
  inbox: 'inboxItem',
};

/**
 * Creates the objects, with a new sandbox account unless one is given. Webhook deliveries go to 127.0.0.1's discard
 * port (nothing listens): the service must be started with WEBHOOK_ALLOWED_HOSTS=127.0.0.1.
 */
export async function createResources(service: TestService, workspace: TestWorkspace, socialAccount?: string): Promise<Resources> {
  const api = apiFor(service.url, workspace.ownerKey);
  const created = async (method: string, path: string, body?: unknown) => {
    const answer = await api(method, path, body);
    if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body.data as { id: string };
  };
  const account = socialAccount ?? (await connectSandbox(service.services, workspace.workspaceId));
  const post = await created('POST', '/posts', { content: { caption: 'Hello' }, targets: [{ connectionId: account, placement: 'feed' }] });
  const media = await created('POST', '/media/uploads', { filename: 'photo.png', contentType: 'image/png', size: 1024 });
  const webhook = await created('POST', '/webhooks', { url: 'http://127.0.0.1:9/hook' });
  const delivery = await created('POST', `/webhooks/${webhook.id}/test`);
  const queue = await created('POST', '/queues', { name: 'Mornings', timezone: 'Europe/Berlin', slots: [{ day: 'monday', time: '09:00' }] });
  const reviewLink = await created('POST', `/posts/${post.id}/review-links`, {});
  const feed = await created('POST', '/feeds', { url: 'http://127.0.0.1:9/feed.xml', connectionIds: [account], mode: 'draft' });
  // A comment as a network's poll stores it (src/inbox/collect.ts), on the post's target: the sandbox has no inbox to collect one from.
  const { rows } = await service.services.db.pool.query<{ id: string }>(
    `INSERT INTO inbox_item (id, workspace_id, connection_id, target_id, post_id, provider, kind, remote_id, author_name, author_username, text, created_at)
     SELECT gen_random_uuid(), $1, t.connection_id, t.id, t.post_id, 'sandbox', 'comment', gen_random_uuid()::text, 'Bob', 'bob', 'Nice!', now()
     FROM post_target t WHERE t.post_id = $2 RETURNING id`,
    [workspace.workspaceId, post.id],
  );
  return {
    socialAccount: account,
    post: post.id,
    media: media.id,
    webhook: webhook.id,
    delivery: delivery.id,
    queue: queue.id,
    reviewLink: reviewLink.id,
    feed: feed.id,
    inboxItem: rows[0]!.id,
  };
}

/**
 * The id for path parameter `name` of `path` (`/webhooks/{id}/deliveries/{deliveryId}/replay`, `deliveryId`);
 * undefined when the parameter names no object of these kinds (`/oauth/callback/{provider}`).
 */
export function resourceFor(resources: Resources, path: string, name: string): string | undefined {
  const segments = path.split('/');
  const kind = kindByCollection[segments[segments.indexOf(`{${name}}`) - 1] ?? ''];
  return kind && resources[kind];
}

/** Body values that make a request about these objects valid beyond its schema (real ids, a reachable URL). */
export function bodyHints(resources: Resources): Hints {
  return { connectionId: resources.socialAccount, queueId: resources.queue, url: 'http://127.0.0.1:9/hook', contentType: 'image/png' };
}
