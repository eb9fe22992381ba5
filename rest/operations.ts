// One handler per operationId of rest/openapi.yaml: input comes validated, output goes out as JSON.
import type { Actor } from '../src/access/actor.ts';
import type { Language } from '../src/errors/messages.ts';
import type { Services } from '../src/runtime.ts';
import { getSocialAccount, listSocialAccounts, presentSocialAccount } from '../src/accounts/socialAccounts.ts';
import { mapPage } from '../src/pagination.ts';
import { createPost, deletePost, getPost, listPosts, updatePost, type PostChanges, type PostInput } from '../src/posts/posts.ts';
import { publishPost, retryPost, schedulePost } from '../src/posts/publishing.ts';
import { presentPost } from '../src/posts/present.ts';
import { listProviders } from '../src/providers/catalog.ts';

export interface OperationInput {
  services: Services;
  actor: Actor;
  query: Record<string, unknown>;
  params: Record<string, string>;
  body: unknown;
  language: Language;
}

export interface OperationResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type OperationHandler = (input: OperationInput) => Promise<OperationResult>;

const ok = (body: unknown): OperationResult => ({ status: 200, body });

const optionalDate = (value: unknown) => (typeof value === 'string' ? new Date(value) : undefined);

function page(query: Record<string, unknown>) {
  return { limit: query.limit as number | undefined, cursor: query.cursor as string | undefined };
}

export const operationHandlers: Record<string, OperationHandler> = {
  listSocialAccounts: async ({ services, actor, query }) => ok(mapPage(await listSocialAccounts(services.db, actor, page(query)), presentSocialAccount)),
  getSocialAccount: async ({ services, actor, params }) =>
    ok({ data: presentSocialAccount(await getSocialAccount(services.db, actor, params.id ?? '')) }),
  listProviders: async ({ actor }) => ok(listProviders(actor)),

  listPosts: async ({ services, actor, query, language }) => {
    const filters = {
      status: typeof query.status === 'string' ? query.status.split(',').map((status) => status.trim()).filter(Boolean) : undefined,
      from: optionalDate(query.from),
      to: optionalDate(query.to),
      connectionId: query.connectionId as string | undefined,
      provider: query.provider as string | undefined,
      campaign: query.campaign as string | undefined,
    };
    return ok(mapPage(await listPosts(services.db, actor, filters, page(query)), (post) => presentPost(post, language)));
  },
  createPost: async ({ services, actor, body, language }) => ({
    status: 201,
    body: { data: presentPost(await createPost(services.db, actor, body as PostInput), language, true) },
  }),
  getPost: async ({ services, actor, params, language }) => ok({ data: presentPost(await getPost(services.db, actor, params.id!), language, true) }),
  updatePost: async ({ services, actor, params, body, language }) =>
    ok({ data: presentPost(await updatePost(services.db, actor, params.id!, body as PostChanges), language, true) }),
  deletePost: async ({ services, actor, params }) => {
    await deletePost(services.db, actor, params.id!);
    return { status: 204 };
  },
  publishPost: async ({ services, actor, params, language }) => ({
    status: 202,
    body: { data: presentPost(await publishPost(services.db, services.boss, actor, params.id!), language, true) },
  }),
  schedulePost: async ({ services, actor, params, body, language }) => {
    const input = body as { scheduledAt: string; timezone: string };
    const post = await schedulePost(services.db, services.boss, actor, params.id!, { scheduledAt: new Date(input.scheduledAt), timezone: input.timezone });
    return ok({ data: presentPost(post, language, true) });
  },
  retryPost: async ({ services, actor, params, body, language }) => ({
    status: 202,
    body: { data: presentPost(await retryPost(services.db, services.boss, actor, params.id!, (body as { targetId?: string } | undefined)?.targetId), language, true) },
  }),
};
