// The post state machine of the contract. Anything not listed here is 409 INVALID_STATE_TRANSITION.
import { AppError } from '../errors/appError.ts';

export const postStatuses = ['draft', 'scheduled', 'publishing', 'published', 'partially_published', 'failed'] as const;
export type PostStatus = (typeof postStatuses)[number];
export const targetStatuses = ['pending', 'publishing', 'published', 'failed'] as const;

export const postActions = ['update', 'delete', 'schedule', 'queue', 'publish', 'retry'] as const;
export type PostAction = (typeof postActions)[number];

const allowedFrom: Record<PostAction, readonly PostStatus[]> = {
  update: ['draft', 'scheduled', 'failed'],
  delete: ['draft', 'scheduled', 'published', 'partially_published', 'failed'],
  schedule: ['draft', 'scheduled'],
  queue: ['draft', 'scheduled'],
  publish: ['draft', 'scheduled'],
  retry: ['failed', 'partially_published'],
};

export function assertTransition(status: string, action: PostAction): void {
  if (!(allowedFrom[action] as readonly string[]).includes(status)) {
    throw new AppError('INVALID_STATE_TRANSITION', 'invalidTransition', { action, status, allowed: allowedFrom[action].join(', ') });
  }
}

/** What may be done with a post in `status` now: the actions assertTransition lets through. */
export function allowedActions(status: string): PostAction[] {
  return postActions.filter((action) => (allowedFrom[action] as readonly string[]).includes(status));
}

/** The post's state once every target is final: all published, all failed, or a mix. */
export function settledStatus(targets: readonly { status: string }[]): 'published' | 'partially_published' | 'failed' | null {
  if (targets.some((target) => target.status === 'pending' || target.status === 'publishing')) return null;
  const published = targets.filter((target) => target.status === 'published').length;
  if (published === targets.length) return 'published';
  return published === 0 ? 'failed' : 'partially_published';
}
