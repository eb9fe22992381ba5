// Meta's container publishing, shared by Instagram and Threads: create a container per item (Meta fetches the
// media from the signed URL), wait until each is FINISHED, then publish the one container of the post, once.
//   IG Container  https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-container
//     (`status_code`: IN_PROGRESS, FINISHED, ERROR with the reason in `status`, EXPIRED after 24 h, PUBLISHED)
//   Content publishing  https://developers.facebook.com/docs/instagram-platform/content-publishing
//     (publishing a container before FINISHED is refused: error 9007 / 2207027)
//   Threads posts  https://developers.facebook.com/docs/threads/posts (the same three steps at graph.threads.net)
// Every call is a checkpoint step: a container an earlier attempt created is polled, not created again, and the
// publish step is sent at most once per container (an interrupted one is looked up). Where a container is still
// IN_PROGRESS the publish answers `processing`; the worker's status check calls `publish` again, which resumes here.
import { ProviderError } from '../adapter.ts';
import type { Steps } from '../kit/steps.ts';
import { recentItemWith, type Graph } from './graph.ts';

/** How long Meta usually takes to process a container before its status is asked again. */
export const containerCheckAfterMs = 5_000;

export type ContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';

export interface ContainerFlow {
  network: string;
  /** Where a container stands, and Meta's reason when it failed. */
  statusOf: (containerId: string) => Promise<{ status: ContainerStatus; reason?: string }>;
}

/** Where a network's containers stand: Instagram names the status `status_code` (its reason `status`), Threads `status` (`error_message`). */
export function containerFlow(
  network: string,
  { graph, token, signal }: { graph: Graph; token: string; signal: AbortSignal },
  fields: { status: string; reason: string },
): ContainerFlow {
  return {
    network,
    statusOf: async (id) => {
      const body = await graph.get<Record<string, string | undefined>>(`/${id}`, token, { fields: `${fields.status},${fields.reason}` }, signal);
      return { status: (body[fields.status] as ContainerStatus | undefined) ?? 'IN_PROGRESS', reason: body[fields.reason] };
    },
  };
}

/**
 * The container of step `name`, created once by `create`: its id once Meta has FINISHED processing it, null while it
 * is IN_PROGRESS. ERROR and EXPIRED are Meta's refusal (its reason, permanent).
 */
export async function finishedContainer(steps: Steps, flow: ContainerFlow, name: string, create: () => Promise<string>): Promise<string | null> {
  const id = await steps.once(name, create);
  if (steps.result(`${name}:finished`)) return id;
  const { status, reason } = await flow.statusOf(id);
  if (status === 'IN_PROGRESS') return null;
  if (status === 'FINISHED' || status === 'PUBLISHED') {
    await steps.record(`${name}:finished`, true);
    return id;
  }
  throw new ProviderError('PROVIDER_REJECTED', `${flow.network} could not process the media (${status}${reason ? `: ${reason}` : ''}).`, false);
}

/** Every container of `items` finished (null while any is in progress), all created before any is polled. */
export async function finishedContainers(
  steps: Steps,
  flow: ContainerFlow,
  items: { name: string; create: () => Promise<string> }[],
): Promise<string[] | null> {
  for (const item of items) await steps.once(item.name, item.create);
  const ids: (string | null)[] = [];
  for (const item of items) ids.push(await finishedContainer(steps, flow, item.name, item.create));
  return ids.every((id) => id !== null) ? (ids as string[]) : null;
}

/** Where a network of Meta's publishes a finished container for an account, and how it finds what a publish made. */
export interface ContainerPublishing {
  graph: Graph;
  /** The account (IG user, Threads user) and its token. */
  user: string;
  token: string;
  signal: AbortSignal;
  /** The account's edge that publishes a container (`media_publish`, `threads_publish`) and the one listing its posts (`media`, `threads`). */
  publishEdge: string;
  postsEdge: string;
  /** The post's text as Meta lists it (`caption`, `text`): an interrupted publish's post is the newest with it. */
  textField: string;
  text: string;
  /** Put before its step names ('part:0:') where one attempt publishes several containers (a thread's parts); default none. */
  stepPrefix?: string;
}

/**
 * Publishes the finished `container` once across attempts: a publish step an earlier attempt started without seeing
 * its answer is looked up (the container PUBLISHED, then the post itself) before it is sent again; then its permalink.
 */
export async function publishedContainer(
  steps: Steps,
  flow: ContainerFlow,
  container: string,
  { graph, user, token, signal, publishEdge, postsEdge, textField, text, stepPrefix = '' }: ContainerPublishing,
): Promise<{ remoteId: string; remoteUrl: string }> {
  const publish = async () => (await graph.post<{ id: string }>(`/${user}/${publishEdge}`, token, { creation_id: container }, signal)).id;
  const remoteId = await steps.once(`${stepPrefix}publish`, publish, {
    ifInterrupted: async () => {
      // Not PUBLISHED: the earlier publish did not happen, and publishing again is safe.
      if ((await flow.statusOf(container)).status !== 'PUBLISHED') return null;
      const found = await recentItemWith(graph, `/${user}/${postsEdge}`, token, textField, text, signal);
      if (!found)
        throw new ProviderError('PROVIDER_REJECTED', `${flow.network} published the post but it is not among the latest posts of the account.`, false);
      return found;
    },
  });
  const remoteUrl = await steps.once(
    `${stepPrefix}permalink`,
    async () => (await graph.get<{ permalink?: string }>(`/${remoteId}`, token, { fields: 'permalink' }, signal)).permalink ?? '',
  );
  return { remoteId, remoteUrl };
}
