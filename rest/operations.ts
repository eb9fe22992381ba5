// One handler per operationId of rest/openapi.yaml: input comes validated, output goes out as JSON.
import type { Readable } from 'node:stream';
import type { Actor } from '../src/access/actor.ts';
import type { Language } from '../src/errors/messages.ts';
import type { Services } from '../src/runtime.ts';
import { getSocialAccount, listSocialAccounts, presentSocialAccount } from '../src/accounts/socialAccounts.ts';
import { readSettingOptions } from '../src/accounts/settingOptions.ts';
import { addSocialAccount, disconnectSocialAccount, startAccountConnection, type AddAccountInput, type StartConnectionInput } from '../src/accounts/connect.ts';
import { mapPage } from '../src/pagination.ts';
import { createPost, deletePost, getPost, listPosts, updatePost, type PostChanges, type PostFilters, type PostInput } from '../src/posts/posts.ts';
import { checkImport, importPosts, presentImportCheck } from '../src/posts/csvImport.ts';
import { exportPosts } from '../src/posts/csvExport.ts';
import { mediaImportDeps } from '../src/media/imports.ts';
import { AppError } from '../src/errors/appError.ts';
import { authorize } from '../src/access/operations.ts';
import { publishPost, retryPost, schedulePost } from '../src/posts/publishing.ts';
import { presentPost } from '../src/posts/present.ts';
import { decideOnPost, submitPost } from '../src/posts/review.ts';
import { addComment, listComments, presentComment } from '../src/posts/comments.ts';
import { getWorkspace, updateWorkspace } from '../src/workspaces/settings.ts';
import { createReviewLink, listReviewLinks, presentReviewLink, revokeReviewLink } from '../src/posts/reviewLinks.ts';
import { presentValidation, validatePost } from '../src/posts/dryRun.ts';
import { getLinkDefaults, setLinkDefaults } from '../src/links/defaults.ts';
import { deleteMedia, getMedia, listMedia, presentMedia, setAltText } from '../src/media/library.ts';
import { completeUpload, startUpload } from '../src/media/uploads.ts';
import type { Media } from '../src/db/generated/prisma/client.ts';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  presentDelivery,
  presentEndpoint,
  replayDelivery,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
} from '../src/webhooks/endpoints.ts';
import { createQueue, deleteQueue, listQueues, presentQueue, queuePost, updateQueue, type QueueInput } from '../src/queues/queues.ts';
import { analytics, analyticsCsv, type AnalyticsQuery } from '../src/analytics/report.ts';
import { listProviders } from '../src/accounts/providers.ts';
import { suggestCaptions, type CaptionInput } from '../src/ai/captions.ts';
import { suggestAltText } from '../src/ai/altText.ts';
import { requestImage } from '../src/ai/images.ts';
import { createFeed, deleteFeed, getFeed, listFeeds, presentFeed, updateFeed, type FeedInput } from '../src/feeds/feeds.ts';
import { listInbox, presentInboxItem, presentInboxReply, replyToInboxItem, updateInboxItem, type InboxStatus } from '../src/inbox/inbox.ts';

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
  /** A streamed body (CSV export); `release` runs once the response is over. */
  stream?: { readable: Readable; release: () => void };
}

export type OperationHandler = (input: OperationInput) => Promise<OperationResult>;

const ok = (body: unknown): OperationResult => ({ status: 200, body });
const links = (services: Services) => ({ signer: services.signer, publicBaseUrl: services.config.publicBaseUrl });
const mediaView = (services: Services) => (media: Media) => presentMedia(media, services.signer, services.config.publicBaseUrl);

/** `a, b,c` → ['a', 'b', 'c'] (the form of list filters such as `status`). */
const commaList = (value: unknown) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    : undefined;
const optionalDate = (value: unknown) => (typeof value === 'string' ? new Date(value) : undefined);

function analyticsQuery(query: Record<string, unknown>): AnalyticsQuery {
  return {
    from: String(query.from),
    to: String(query.to),
    groupBy: query.groupBy as string | undefined,
    status: commaList(query.status),
    connectionId: query.connectionId as string | undefined,
    provider: query.provider as string | undefined,
    campaign: query.campaign as string | undefined,
  };
}

function postFilters(query: Record<string, unknown>): PostFilters {
  return {
    status: commaList(query.status),
    from: optionalDate(query.from),
    to: optionalDate(query.to),
    connectionId: query.connectionId as string | undefined,
    provider: query.provider as string | undefined,
    campaign: query.campaign as string | undefined,
  };
}

function page(query: Record<string, unknown>) {
  return { limit: query.limit as number | undefined, cursor: query.cursor as string | undefined };
}

export const operationHandlers: Record<string, OperationHandler> = {
  listSocialAccounts: async ({ services, actor, query }) => ok(mapPage(await listSocialAccounts(services.db, actor, page(query)), presentSocialAccount)),
  getSocialAccount: async ({ services, actor, params }) => ok({ data: presentSocialAccount(await getSocialAccount(services.db, actor, params.id ?? '')) }),
  getSettingOptions: async ({ services, actor, params, query }) =>
    ok({ data: await readSettingOptions(services, actor, params.id ?? '', typeof query.subreddit === 'string' ? { subreddit: query.subreddit } : {}) }),
  listProviders: async ({ services, actor }) => ok(listProviders(actor, services.connections.links, services.config)),
  startAccountConnection: async ({ services, actor, body }) => ({
    status: 201,
    body: { data: await startAccountConnection(services.db, services.connections, actor, body as StartConnectionInput) },
  }),
  addSocialAccount: async ({ services, actor, body }) => ({
    status: 201,
    body: { data: presentSocialAccount(await addSocialAccount(services.db, services.outbox, services.connections, actor, body as AddAccountInput)) },
  }),
  disconnectSocialAccount: async ({ services, actor, params }) =>
    ok({ data: presentSocialAccount(await disconnectSocialAccount(services.db, services.outbox, services.connections, actor, params.id!)) }),

  listInbox: async ({ services, actor, query }) => {
    const filters = {
      status: query.status as string | undefined,
      connectionId: query.connectionId as string | undefined,
      provider: query.provider as string | undefined,
      postId: query.postId as string | undefined,
    };
    return ok(mapPage(await listInbox(services.db, actor, filters, page(query)), presentInboxItem));
  },
  updateInboxItem: async ({ services, actor, params, body }) =>
    ok({ data: presentInboxItem(await updateInboxItem(services.db, actor, params.id!, body as { status: InboxStatus })) }),
  replyToInboxItem: async ({ services, actor, params, body }) => ({
    status: 202,
    body: { data: presentInboxReply(await replyToInboxItem(services.db, services.boss, actor, params.id!, body as { text: string })) },
  }),

  listPosts: async ({ services, actor, query, language }) =>
    ok(mapPage(await listPosts(services.db, actor, postFilters(query), page(query)), (post) => presentPost(post, language, links(services)))),
  createPost: async ({ services, actor, body, language }) => ({
    status: 201,
    body: { data: presentPost(await createPost(services.db, actor, body as PostInput), language, links(services)) },
  }),
  validatePost: async ({ services, actor, body, language }) =>
    ok({ data: presentValidation(await validatePost(services.db, actor, body as PostInput), language) }),
  importPosts: async ({ services, actor, query, body, language }) => {
    // The caller's rights first: a key that may not import learns that, whatever it sent.
    authorize(actor, 'importPosts');
    if (!Buffer.isBuffer(body)) throw new AppError('INVALID_REQUEST', 'unsupportedCsvType', {}, { status: 415 });
    const deps = { ...mediaImportDeps(services), outbox: services.outbox };
    if (query.dryRun === true) return ok({ data: presentImportCheck(await checkImport(deps, actor, body), language) });
    const posts = await importPosts(deps, actor, body);
    return { status: 201, body: { data: posts.map((post) => presentPost(post, language, links(services))) } };
  },
  exportPosts: async ({ services, actor, query }) => {
    const { filename, csv } = exportPosts(services.db, actor, postFilters(query), links(services));
    return {
      status: 200,
      headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${filename}"` },
      stream: { readable: csv, release: () => csv.destroy() },
    };
  },
  getLinkDefaults: async ({ services, actor }) => ok({ data: await getLinkDefaults(services.db, actor) }),
  setLinkDefaults: async ({ services, actor, body }) => ok({ data: await setLinkDefaults(services.db, actor, body) }),
  getPost: async ({ services, actor, params, language }) => ok({ data: presentPost(await getPost(services.db, actor, params.id!), language, links(services)) }),
  updatePost: async ({ services, actor, params, body, language }) =>
    ok({ data: presentPost(await updatePost(services.db, services.boss, actor, params.id!, body as PostChanges), language, links(services)) }),
  deletePost: async ({ services, actor, params }) => {
    await deletePost(services.db, services.outbox, actor, params.id!);
    return { status: 204 };
  },
  publishPost: async ({ services, actor, params, language }) => ({
    status: 202,
    body: { data: presentPost(await publishPost(services.db, services.boss, actor, params.id!), language, links(services)) },
  }),
  schedulePost: async ({ services, actor, params, body, language }) => {
    const input = body as { scheduledAt: string; timezone: string };
    const post = await schedulePost(services.db, services.boss, services.outbox, actor, params.id!, {
      scheduledAt: new Date(input.scheduledAt),
      timezone: input.timezone,
    });
    return ok({ data: presentPost(post, language, links(services)) });
  },
  submitPost: async ({ services, actor, params, language }) =>
    ok({ data: presentPost(await submitPost(services.db, actor, params.id!), language, links(services)) }),
  approvePost: async ({ services, actor, params, body, language }) => {
    const comment = (body as { comment?: string } | undefined)?.comment;
    return ok({ data: presentPost(await decideOnPost(services.db, actor, params.id!, { kind: 'approved', comment }), language, links(services)) });
  },
  requestPostChanges: async ({ services, actor, params, body, language }) => {
    const { comment } = body as { comment: string };
    return ok({ data: presentPost(await decideOnPost(services.db, actor, params.id!, { kind: 'changes_requested', comment }), language, links(services)) });
  },
  listPostComments: async ({ services, actor, params, query }) => ok(mapPage(await listComments(services.db, actor, params.id!, page(query)), presentComment)),
  addPostComment: async ({ services, actor, params, body }) => ({
    status: 201,
    body: { data: presentComment(await addComment(services.db, actor, params.id!, (body as { text: string }).text)) },
  }),
  createReviewLink: async ({ services, actor, params, body }) => ({
    status: 201,
    body: {
      data: await createReviewLink(services.db, actor, params.id!, (body ?? {}) as { expiresInHours?: number }, services.config.publicBaseUrl),
    },
  }),
  listReviewLinks: async ({ services, actor, params, query }) =>
    ok(mapPage(await listReviewLinks(services.db, actor, params.id!, page(query)), presentReviewLink)),
  revokeReviewLink: async ({ services, actor, params }) => {
    await revokeReviewLink(services.db, actor, params.id!, params.linkId!);
    return { status: 204 };
  },
  getWorkspace: async ({ services, actor }) => ok({ data: await getWorkspace(services.db, actor) }),
  updateWorkspace: async ({ services, actor, body }) => ok({ data: await updateWorkspace(services.db, actor, body as { approvalRequired?: boolean }) }),
  listMedia: async ({ services, actor, query }) => {
    const filters = {
      q: query.q as string | undefined,
      type: query.type as string | undefined,
      status: query.status as string | undefined,
      from: optionalDate(query.from),
      to: optionalDate(query.to),
    };
    return ok(mapPage(await listMedia(services.db, actor, filters, page(query)), mediaView(services)));
  },
  startUpload: async ({ services, actor, body }) => ({
    status: 201,
    body: {
      data: await startUpload(
        services.db,
        services.storage,
        services.signer,
        { publicBaseUrl: services.config.publicBaseUrl, maxUploadBytes: services.config.maxUploadBytes },
        actor,
        body as { filename: string; contentType: string; size: number },
      ),
    },
  }),
  completeUpload: async ({ services, actor, params }) => ({
    status: 202,
    body: { data: mediaView(services)(await completeUpload(services.db, services.boss, services.storage, actor, params.id!)) },
  }),
  getMedia: async ({ services, actor, params }) => ok({ data: mediaView(services)(await getMedia(services.db, actor, params.id!)) }),
  deleteMedia: async ({ services, actor, params }) => {
    await deleteMedia(services.db, services.storage, actor, params.id!);
    return { status: 204 };
  },
  setAltText: async ({ services, actor, params, body }) =>
    ok({ data: mediaView(services)(await setAltText(services.db, actor, params.id!, (body as { altText: string | null }).altText)) }),
  createWebhook: async ({ services, actor, body }) => ({
    status: 201,
    body: { data: await createWebhook(services.db, services.webhooks, actor, body as { url: string; events?: string[]; description?: string | null }) },
  }),
  listWebhooks: async ({ services, actor, query }) => ok(mapPage(await listWebhooks(services.db, actor, page(query)), presentEndpoint)),
  getWebhook: async ({ services, actor, params }) => ok({ data: presentEndpoint(await getWebhook(services.db, actor, params.id!)) }),
  updateWebhook: async ({ services, actor, params, body }) =>
    ok({
      data: presentEndpoint(
        await updateWebhook(services.db, services.webhooks, services.outbox, actor, params.id!, body as Parameters<typeof updateWebhook>[5]),
      ),
    }),
  deleteWebhook: async ({ services, actor, params }) => {
    await deleteWebhook(services.db, actor, params.id!);
    return { status: 204 };
  },
  rotateWebhookSecret: async ({ services, actor, params }) => ok({ data: await rotateWebhookSecret(services.db, services.webhooks, actor, params.id!) }),
  testWebhook: async ({ services, actor, params }) => {
    const delivery = await testWebhook(services.db, services.outbox, actor, params.id!);
    return { status: 202, body: { data: { id: delivery.id, eventId: delivery.eventId, status: delivery.status } } };
  },
  listWebhookDeliveries: async ({ services, actor, params, query }) =>
    ok(mapPage(await listDeliveries(services.db, actor, params.id!, page(query)), presentDelivery)),
  replayWebhookDelivery: async ({ services, actor, params }) => ({
    status: 202,
    body: { data: presentDelivery(await replayDelivery(services.db, services.outbox, actor, params.id!, params.deliveryId!)) },
  }),
  listQueues: async ({ services, actor, query }) => ok(mapPage(await listQueues(services.db, actor, page(query)), presentQueue)),
  createQueue: async ({ services, actor, body }) => ({ status: 201, body: { data: presentQueue(await createQueue(services.db, actor, body as QueueInput)) } }),
  updateQueue: async ({ services, actor, params, body }) => {
    const { queue, keptScheduledPosts } = await updateQueue(services.db, actor, params.id!, body as Partial<QueueInput>);
    return ok({ data: presentQueue(queue), keptScheduledPosts });
  },
  deleteQueue: async ({ services, actor, params }) => ok({ data: { id: params.id, deleted: true, ...(await deleteQueue(services.db, actor, params.id!)) } }),
  queuePost: async ({ services, actor, params, body, language }) =>
    ok({
      data: presentPost(
        await queuePost(services.db, services.boss, services.outbox, actor, params.id!, (body as { queueId: string }).queueId),
        language,
        links(services),
      ),
    }),
  listFeeds: async ({ services, actor, query }) => ok(mapPage(await listFeeds(services.db, actor, page(query)), presentFeed)),
  createFeed: async ({ services, actor, body }) => ({
    status: 201,
    body: { data: presentFeed(await createFeed(services.db, services.feeds.settings, actor, body as FeedInput)) },
  }),
  getFeed: async ({ services, actor, params }) => ok({ data: presentFeed(await getFeed(services.db, actor, params.id!)) }),
  updateFeed: async ({ services, actor, params, body }) =>
    ok({ data: presentFeed(await updateFeed(services.db, services.feeds.settings, actor, params.id!, body as Partial<FeedInput>)) }),
  deleteFeed: async ({ services, actor, params }) => {
    await deleteFeed(services.db, actor, params.id!);
    return { status: 204 };
  },
  getAnalytics: async ({ services, actor, query }) => ok({ data: await analytics(services.db, actor, analyticsQuery(query)) }),
  exportAnalytics: async ({ services, actor, query }) => {
    const { filename, csv, release } = await analyticsCsv(services.db, actor, analyticsQuery(query));
    return {
      status: 200,
      headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${filename}"` },
      stream: { readable: csv, release },
    };
  },
  getAi: async ({ services, actor }) => ok({ data: await services.ai.status(actor) }),
  suggestCaptions: async ({ services, actor, body }) => ok({ data: await suggestCaptions(services.ai, actor, body as CaptionInput) }),
  suggestAltText: async ({ services, actor, params, body, language }) =>
    ok({ data: await suggestAltText(services.ai, actor, params.id!, (body ?? {}) as { language?: string }, language) }),
  generateImage: async ({ services, actor, body }) => ({
    status: 202,
    body: { data: await requestImage(services.ai, actor, body as { prompt: string; size?: string }) },
  }),
  retryPost: async ({ services, actor, params, body, language }) => ({
    status: 202,
    body: {
      data: presentPost(
        await retryPost(services.db, services.boss, actor, params.id!, (body as { targetId?: string } | undefined)?.targetId),
        language,
        links(services),
      ),
    },
  }),
};
