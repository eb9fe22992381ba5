// Threads of posts: `content.thread` (the parts after the post's own caption and media, each posted as a reply to
// the one before) and a target's `override.thread`, which replaces it for that target ([] drops it).
import type { Prisma } from '../db/generated/prisma/client.ts';
import type { Media } from '../db/generated/prisma/client.ts';
import { factsOf } from '../media/facts.ts';
import type { ThreadContent } from './validation.ts';

export interface ThreadPart {
  caption: string;
  mediaIds: string[];
}

/** A part as clients send it: either field may be left out. */
export interface ThreadPartInput {
  caption?: string;
  mediaIds?: string[];
}

export function threadParts(input: readonly ThreadPartInput[] | null | undefined): ThreadPart[] {
  return (input ?? []).map((part) => ({ caption: part.caption ?? '', mediaIds: part.mediaIds ?? [] }));
}

/** A thread as stored (post.thread, post_target.override_thread: JSON written by `storedThread`). */
export function threadOfJson(json: Prisma.JsonValue | null): ThreadPart[] | null {
  return json === null ? null : (json as unknown as ThreadPart[]);
}

export function storedThread(thread: readonly ThreadPart[]): Prisma.InputJsonArray {
  return thread.map((part) => ({ caption: part.caption, mediaIds: part.mediaIds }));
}

/** The thread a target publishes: its override, else the post's. */
export function threadOf(post: { thread: Prisma.JsonValue }, target: { overrideThread: Prisma.JsonValue | null }): ThreadPart[] {
  return threadOfJson(target.overrideThread) ?? threadOfJson(post.thread) ?? [];
}

export function threadMediaIds(threads: readonly (readonly ThreadPart[])[]): string[] {
  return [...new Set(threads.flatMap((thread) => thread.flatMap((part) => part.mediaIds)))];
}

/** A thread with its ready files, for the rules' check; `overridden` says which field of the post names it. */
export function threadContent(thread: readonly ThreadPart[], overridden: boolean, media: ReadonlyMap<string, Media>): ThreadContent {
  return {
    field: overridden ? 'override.thread' : 'content.thread',
    parts: thread.map((part) => ({
      caption: part.caption,
      media: part.mediaIds.flatMap((id) => {
        const file = media.get(id);
        return file?.status === 'ready' ? [factsOf(file)] : [];
      }),
    })),
  };
}

/** A thread's part at its network, as recorded on the target (post_target.parts). */
export interface PostedPart {
  remoteId: string;
  remoteUrl: string | null;
}

/** A first comment as recorded on the target (post_target.first_comment): posted, or refused with the network's reason. */
export interface PostedFirstComment {
  remoteId: string | null;
  remoteUrl: string | null;
  error: { code: string; message: string } | null;
}

/** Every posted part, the first included; [] for a target without a thread. */
export function postedParts(json: Prisma.JsonValue | null): PostedPart[] {
  return (json ?? []) as unknown as PostedPart[];
}

export function postedFirstComment(json: Prisma.JsonValue | null): PostedFirstComment | null {
  return json as unknown as PostedFirstComment | null;
}
