// The jobs that publish targets, a batch at a time. A target reaches its network at most once: the attempt is
// committed (status `publishing`, attempts + 1) before the network is called, every attempt gets the checkpoint
// the earlier ones saved (src/providers/kit/steps.ts: what they finished at the network is not done again), and
// where the adapter looks up earlier attempts (`findPublished`) it is asked before posting again. Claiming is one set-based statement per batch; each outcome is recorded the moment the network answers
// (outcomes that finish together share a transaction), so a slow network never holds back the others.
//
// A publish is charged to its network's quotas when claimed (src/providers/kit/quotas.ts); one that would exceed a
// quota waits for the quota's next window (`waitingUntil`, `waitingReason` on the target), as one the network
// rate-limited waits for the reset the network gave, or where it gave none, for a back-off growing with each attempt.
//
// A network that accepts a post and processes it later answers `processing`: the target stays `publishing` with
// the network's handle, no worker waits, and a status-check job asks the network again after the delay it gave.
// A network's rate-limit answer (or any failure that says when to come back) is retried after that time by a new
// job; other transient failures by pg-boss's own retries with backoff. A refused access token is refreshed once
// (TokenKeeper.callWithTokens) and the call made again; tokens the network no longer accepts fail the target with
// ACCOUNT_NEEDS_RECONNECT and are not retried.
//
// The parts, in src/posts/publish/: `claim.ts` (the claim transaction, with the rules and the quotas), `call.ts` (the
// call to the network, with tokens and checkpoints), `outcome.ts` (what becomes of an attempt: the retry policy, no
// I/O) and `record.ts` (the outcomes' rows, events and follow-up jobs). This file wires them into the jobs.
import { setTimeout as sleep } from 'node:timers/promises';
import { queueNames, type PgBoss } from '../jobs/boss.ts';
import type { PublishTargetJob } from './runs.ts';
import { allowedHostsFrom } from '../outbound/guard.ts';
import { BatchedWrites } from './batchedWrites.ts';
import { claimTargets, type CheckTargetJob, type ClaimDeps, type Mode, type PublishJob } from './publish/claim.ts';
import { attemptTarget, type CallDeps } from './publish/call.ts';
import type { Outcome } from './publish/outcome.ts';
import { recordOutcomes, type RecordDeps } from './publish/record.ts';

/** What the parts need; `permalinkHosts` is made here, from NETWORK_ALLOWED_HOSTS and this service's own host. */
type Deps = Omit<ClaimDeps & CallDeps & RecordDeps, 'permalinkHosts'> & {
  /** NETWORK_ALLOWED_HOSTS: hosts a network's permalinks may name over http. */
  networkAllowedHosts: ReadonlySet<string>;
};

/**
 * Outcomes are recorded together when they arrive within 100 ms, or as soon as 50 are waiting. Networks answer one
 * post at a time, a few milliseconds apart: without waiting, every target would cost a transaction of its own.
 * Measured: PostgreSQL's CPU during `bench bluesky` 0.5 → 0.15 core with it; throughput unchanged (docs/architecture.md).
 */
const recordGathering = { waitMs: 100, enough: 50 };

export class TargetPublisher {
  /** The dependencies, with where a permalink may be over http: the allowed hosts, and this service's own (the sandbox's items). */
  readonly #deps: Deps & { permalinkHosts: ReadonlySet<string> };
  readonly #recording: BatchedWrites<Outcome>;

  constructor(deps: Deps) {
    this.#deps = { ...deps, permalinkHosts: new Set([...deps.networkAllowedHosts, ...allowedHostsFrom(new URL(deps.publicBaseUrl).hostname)]) };
    this.#recording = new BatchedWrites((outcomes) => recordOutcomes(this.#deps, outcomes), recordGathering);
  }

  /**
   * Publishes a batch of jobs, each group of jobs taken ahead of its due time once that time comes (nothing is
   * claimed before: the post stays scheduled, and can still be changed, until then). A job answered `failed` is
   * retried by pg-boss later, with backoff.
   */
  async run(jobs: PublishJob[]): Promise<{ id: string; status: 'completed' | 'failed' }[]> {
    const byDueTime = new Map<number, PublishJob[]>();
    for (const job of jobs) {
      const dueAt = job.data.dueAt ? Date.parse(job.data.dueAt) : 0;
      const group = byDueTime.get(dueAt);
      if (group) group.push(job);
      else byDueTime.set(dueAt, [job]);
    }
    const results = await Promise.all(
      [...byDueTime].map(async ([dueAt, group]) => {
        if (dueAt > Date.now()) await sleep(dueAt - Date.now());
        return this.#process('publish', group);
      }),
    );
    return results.flat();
  }

  /** Asks the network where the processing of accepted posts stands, and records what it says. */
  check(jobs: PublishJob<CheckTargetJob>[]): Promise<{ id: string; status: 'completed' | 'failed' }[]> {
    return this.#process('check', jobs);
  }

  async #process(mode: Mode, jobs: PublishJob[]): Promise<{ id: string; status: 'completed' | 'failed' }[]> {
    const { claimed, refused } = await claimTargets(this.#deps, mode, jobs);
    const outcomes = [...refused];
    await Promise.all([
      ...refused.map((outcome) => this.#recording.add(outcome)),
      ...claimed.map(async (target) => {
        const outcome = await attemptTarget(this.#deps, target);
        outcomes.push(outcome);
        await this.#recording.add(outcome);
      }),
    ]);
    const retried = new Set(outcomes.filter((outcome) => outcome.kind === 'failed' && outcome.retry === 'job').map((outcome) => outcome.target.job.id));
    return jobs.map((job) => ({ id: job.id, status: retried.has(job.id) ? 'failed' : 'completed' }));
  }
}

export async function startPublishWorkers(boss: PgBoss, publisher: TargetPublisher, concurrency: number): Promise<void> {
  const fetching = {
    batchSize: 50,
    localConcurrency: concurrency,
    includeMetadata: true,
    perJobResults: true,
    pollingIntervalSeconds: 0.5,
    notifyPollingIntervalSeconds: 0.5,
    burstWhenBatchFull: true,
  } as const;
  await boss.work<PublishTargetJob>(queueNames.publishTarget, fetching, (jobs) =>
    publisher.run(jobs.map((job) => ({ id: job.id, data: job.data, retryCount: job.retryCount, signal: job.signal }))),
  );
  await boss.work<CheckTargetJob>(queueNames.checkTarget, fetching, (jobs) =>
    publisher.check(jobs.map((job) => ({ id: job.id, data: job.data, retryCount: job.retryCount, signal: job.signal }))),
  );
}
