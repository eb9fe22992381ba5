// The post state machine of the contract. Anything not listed here is 409 INVALID_STATE_TRANSITION; what review
// adds on top (who may submit, decide, or publish without an approval) is src/posts/review.ts.
import { AppError } from '../errors/appError.ts';

export const postStatuses = ['draft', 'in_review', 'changes_requested', 'scheduled', 'publishing', 'published', 'partially_published', 'failed'] as const;
export type PostStatus = (typeof postStatuses)[number];
export const targetStatuses = ['pending', 'publishing', 'published', 'failed'] as const;

export const postActions = ['update', 'delete', 'schedule', 'queue', 'publish', 'retry', 'submit', 'approve', 'request_changes'] as const;
export type PostAction = (typeof postActions)[number];

const allowedFrom: Record<PostAction, readonly PostStatus[]> = {
  update: ['draft', 'in_review', 'changes_requested', 'scheduled', 'failed'],
  delete: ['draft', 'in_review', 'changes_requested', 'scheduled', 'published', 'partially_published', 'failed'],
  schedule: ['draft', 'scheduled'],
  queue: ['draft', 'scheduled'],
  publish: ['draft', 'scheduled'],
  retry: ['failed', 'partially_published'],
  submit: ['draft', 'changes_requested'],
  approve: ['in_review'],
  request_changes: ['in_review'],
};

export function statusAllows(status: string, action: PostAction): boolean {
  return (allowedFrom[action] as readonly string[]).includes(status);
}

export function assertTransition(status: string, action: PostAction): void {
  if (!statusAllows(status, action)) {
    throw new AppError('INVALID_STATE_TRANSITION', 'invalidTransition', { action, status, allowed: allowedFrom[action].join(', ') });
  }
}

/** The post's state once every target is final: all published, all failed, or a mix. */
export function settledStatus(targets: readonly { status: string }[]): 'published' | 'partially_published' | 'failed' | null {
  if (targets.some((target) => target.status === 'pending' || target.status === 'publishing')) return null;
  const published = targets.filter((target) => target.status === 'published').length;
  if (published === targets.length) return 'published';
  return published === 0 ? 'failed' : 'partially_published';
}
