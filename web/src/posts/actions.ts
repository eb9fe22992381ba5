// What the dashboard does to a post, through the graph: save (create or update at its version), publish now, schedule,
// add to a queue, duplicate, delete. A refusal is thrown as the API's ApiError (localized message, details, code).
import type { Client } from 'urql';
import { ApiError } from '../api/auth.ts';
import { apiErrorOf } from '../api/client.ts';
import type { PostAction } from '../../../schema/generated/graphql.ts';
import { CreatePost, DeletePost, DuplicatePost, PublishPost, QueuePost, SchedulePost, UpdatePost } from './documents.ts';

/** A post's state as every action answers it. */
export interface PostState {
  id: string;
  status: string;
  version: number;
  scheduledAt: string | null;
  timezone: string | null;
  /** What the post's state allows now (the graph's answer, not a rule of the dashboard's own). */
  actions: PostAction[];
}

/** What the person asked for: `at` is an instant (ISO), read as wall-clock time in `timeZone`. */
export type Submission =
  | { action: 'save' }
  | { action: 'publish' }
  | { action: 'schedule'; at: string; timeZone: string }
  | { action: 'queue'; queueId: string };
export type SubmissionAction = Submission['action'];

/** The submissions a post in this state may take (a new post: all of them). */
export function submissionsAllowed(actions: readonly PostAction[] | null): SubmissionAction[] {
  if (!actions) return ['save', 'publish', 'schedule', 'queue'];
  const byAction: [PostAction, SubmissionAction][] = [
    ['UPDATE', 'save'],
    ['PUBLISH', 'publish'],
    ['SCHEDULE', 'schedule'],
    ['QUEUE', 'queue'],
  ];
  return byAction.filter(([action]) => actions.includes(action)).map(([, submission]) => submission);
}

export function isVersionConflict(error: ApiError | null): boolean {
  return error?.code === 'CONCURRENT_MODIFICATION';
}

/** Any failure as an ApiError, so a page shows one kind of error. */
export function asApiError(caught: unknown): ApiError {
  return caught instanceof ApiError ? caught : new ApiError('NETWORK', String(caught));
}

async function mutate<Data>(client: Client, document: string, variables: Record<string, unknown>): Promise<Data> {
  const result = await client.mutation<Data>(document, variables).toPromise();
  if (result.error) throw apiErrorOf(result.error);
  return result.data as Data;
}

export function publishPost(client: Client, id: string): Promise<PostState> {
  return mutate<{ publishPost: PostState }>(client, PublishPost, { id }).then((data) => data.publishPost);
}

export function schedulePost(client: Client, id: string, at: string, timeZone: string): Promise<PostState> {
  return mutate<{ schedulePost: PostState }>(client, SchedulePost, { id, scheduledAt: at, timezone: timeZone }).then((data) => data.schedulePost);
}

export function queuePost(client: Client, id: string, queueId: string): Promise<PostState> {
  return mutate<{ queuePost: PostState }>(client, QueuePost, { id, queueId }).then((data) => data.queuePost);
}

/** A new draft with the post's content, targets and campaign. */
export function duplicatePost(client: Client, id: string): Promise<PostState> {
  return mutate<{ duplicatePost: PostState }>(client, DuplicatePost, { id }).then((data) => data.duplicatePost);
}

export async function deletePost(client: Client, id: string): Promise<void> {
  await mutate(client, DeletePost, { id });
}

/** Carries out a submission other than saving on a saved post. */
export async function carryOut(client: Client, id: string, submission: Submission): Promise<PostState | null> {
  switch (submission.action) {
    case 'publish':
      return publishPost(client, id);
    case 'schedule':
      return schedulePost(client, id, submission.at, submission.timeZone);
    case 'queue':
      return queuePost(client, id, submission.queueId);
    case 'save':
      return null;
  }
}

export type ComposedPost = {
  content: { caption: string; mediaIds: string[]; thread: { caption: string; mediaIds: string[] }[] };
  targets: unknown[];
};

/**
 * Saves what the composer holds (a new post, or `edited` at the version it was read at: a stale version is refused with
 * CONCURRENT_MODIFICATION), tells `onSaved` (a later refusal leaves the post saved at its new version), then carries out
 * the submission. Answers the post's id.
 */
export async function submitComposed(
  client: Client,
  edited: { id: string; version: number } | null,
  post: ComposedPost,
  submission: Submission,
  onSaved: (saved: PostState) => void,
): Promise<string> {
  const saved = edited
    ? (await mutate<{ updatePost: PostState }>(client, UpdatePost, { id: edited.id, version: edited.version, ...post })).updatePost
    : (await mutate<{ createPost: PostState }>(client, CreatePost, post)).createPost;
  onSaved(saved);
  await carryOut(client, saved.id, submission);
  return saved.id;
}
