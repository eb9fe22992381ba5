// The AI errors of the spec's code table, built in one place for every provider and operation.
import { AppError } from '../errors/appError.ts';

export const aiNotConfigured = () => new AppError('AI_NOT_CONFIGURED', 'aiNotConfigured');

/** The provider's own 429 (or our in-flight cap, see credits.ts): retry after `seconds`. */
export const aiBusy = (seconds: number) => new AppError('AI_BUSY', 'aiProviderBusy', { seconds }, { headers: { 'Retry-After': String(seconds) } });

/** 429 AI_BUSY: the workspace has `limit` actions under way (AI_MAX_CONCURRENT), counted across processes. */
export const aiAtInFlightCap = (limit: number) => new AppError('AI_BUSY', 'aiBusy', { limit, seconds: 1 }, { headers: { 'Retry-After': '1' } });

/** 402 AI_LIMIT_REACHED: fewer credits are left this month than the action costs. */
export const aiLimitReached = (cost: number, remaining: number, resetsAt: Date) =>
  new AppError('AI_LIMIT_REACHED', 'aiLimitReached', { cost, remaining, resetsAt: resetsAt.toISOString().slice(0, 10) });

export const aiRefused = (reason: string) => new AppError('AI_REFUSED', 'aiRefused', { reason: reason.slice(0, 200) });

export const aiUnavailable = (reason: string) => new AppError('AI_UNAVAILABLE', 'aiUnavailable', { reason });
