// Threads and first comments as checkpointed steps: each part of a thread is posted once as a reply to the part
// before it ('part:<i>'), and a first comment once on the published item ('firstComment'), so a retried or crashed
// attempt resumes after the last part the network confirmed and never posts one twice.
import { ProviderError, type PublishedItem, type PublishPart } from '../adapter.ts';
import type { CheckpointState, Steps } from './steps.ts';

/** A first comment posted (`item`), or refused by the network for good (`error`: the post itself stays published). */
export interface FirstCommentResult {
  item: PublishedItem | null;
  error: { code: string; message: string } | null;
}

/**
 * Posts `text` once (kit step 'firstComment'); a permanent ProviderError, of the comment or of the look-up, is
 * returned as `error` (the post stays published); transient errors and rate limits are thrown, so the worker retries
 * and the step resumes.
 */
export async function postFirstComment(
  steps: Steps,
  text: string | null,
  comment: (text: string) => Promise<PublishedItem>,
  /** A network without idempotency keys: the comment an interrupted attempt posted, looked up (kit/steps.ts). */
  ifInterrupted?: (text: string) => Promise<PublishedItem | null>,
): Promise<FirstCommentResult | undefined> {
  if (text === null) return undefined;
  const lookUp =
    ifInterrupted &&
    (() =>
      refusalAsResult(async () => {
        const item = await ifInterrupted(text);
        return item && { item, error: null };
      }));
  return steps.once('firstComment', () => refusalAsResult(async () => ({ item: await comment(text), error: null })), lookUp ? { ifInterrupted: lookUp } : {});
}

async function refusalAsResult<Result>(call: () => Promise<Result>): Promise<Result | FirstCommentResult> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ProviderError) || error.transient || error.retryAfterMs !== undefined || error.tokenRejected) throw error;
    return { item: null, error: { code: error.code, message: error.message } };
  }
}

/** The checkpoint steps that hold a thread's posted parts: the first post, then 'part:0', 'part:1', ... */
export const firstPartStep = 'part:first';
export const partStep = (index: number) => `part:${index}`;

/** Posts each part once as a reply to the one before (kit steps 'part:<i>'), resuming after the last recorded part. */
export async function publishThread(
  steps: Steps,
  parts: PublishPart[],
  first: PublishedItem,
  reply: (part: PublishPart, parent: PublishedItem, root: PublishedItem, index: number) => Promise<PublishedItem>,
  /** A network without idempotency keys: the part an interrupted attempt posted, looked up (kit/steps.ts). */
  ifInterrupted?: (part: PublishPart, parent: PublishedItem, index: number) => Promise<PublishedItem | null>,
): Promise<PublishedItem[]> {
  if (!parts.length) return [first];
  // The first post recorded with the parts, so that a thread failing midway still lists every part it posted.
  const posted: PublishedItem[] = [await steps.once(firstPartStep, async () => first)];
  for (const [index, part] of parts.entries()) {
    const parent = posted[posted.length - 1]!;
    const lookUp = ifInterrupted && (() => ifInterrupted(part, parent, index));
    posted.push(await steps.once(partStep(index), () => reply(part, parent, first, index), lookUp ? { ifInterrupted: lookUp } : {}));
  }
  return posted;
}

/** The parts a thread's attempts posted (its steps in a saved checkpoint), the first included, in order. */
export function postedParts(state: CheckpointState | null | undefined): PublishedItem[] {
  const first = state?.done[firstPartStep] as PublishedItem | undefined;
  if (!first) return [];
  const parts = [first];
  for (let index = 0; state?.done[partStep(index)] !== undefined; index++) parts.push(state.done[partStep(index)] as PublishedItem);
  return parts;
}
