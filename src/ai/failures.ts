// The AI errors of the spec's code table, built in one place for every provider and operation.
import { AppError } from '../errors/appError.ts';

export const aiNotConfigured = () => new AppError('AI_NOT_CONFIGURED', 'aiNotConfigured');

/** The provider's own 429 (or our in-flight cap, see credits.ts): retry after `seconds`. */
export const aiBusy = (seconds: number) =>
  new AppError('AI_BUSY', 'aiProviderBusy', { seconds }, { headers: { 'Retry-After': String(seconds) } });

export const aiRefused = (reason: string) => new AppError('AI_REFUSED', 'aiRefused', { reason: reason.slice(0, 200) });

export const aiUnavailable = (reason: string) => new AppError('AI_UNAVAILABLE', 'aiUnavailable', { reason });
