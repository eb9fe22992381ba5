// The request a piece of work belongs to, across awaits (AsyncLocalStorage): set by the HTTP layer for each
// request, carried in the data of jobs that request enqueues, and set again while a worker runs such a job. Log
// lines written meanwhile carry its `requestId` (src/logger.ts).
import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<{ requestId: string }>();

export function inRequestScope<T>(requestId: string | undefined, work: () => T): T {
  return requestId ? scope.run({ requestId }, work) : work();
}

export function currentRequestId(): string | undefined {
  return scope.getStore()?.requestId;
}
