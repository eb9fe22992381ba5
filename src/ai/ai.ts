// The AI features' shared machinery: the configured provider (or none), the checks every AI action starts with
// (scope, configured, plan), and running a provider call under a credit reservation with the timeout.
import type { Actor } from '../access/actor.ts';
import { requirePlan } from '../access/actor.ts';
import { authorize, type Operation } from '../access/operations.ts';
import type { AiSettings } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { Outbox } from '../events/outbox.ts';
import type { Logger } from '../logger.ts';
import type { PgBoss } from '../jobs/boss.ts';
import type { MediaStorage } from '../media/storage.ts';
import { planInForce, plans } from '../workspaces/plans.ts';
import { aiCosts, creditStatus, withCredits, type AiAction } from './credits.ts';
import { aiNotConfigured } from './failures.ts';
import type { AiProvider } from './provider.ts';
import { SandboxProvider } from './sandboxProvider.ts';
import { countedAiCall } from '../metrics/registry.ts';

export async function createAiProvider(settings: AiSettings, logger: Logger): Promise<AiProvider | null> {
  if (settings.provider === 'openai') {
    // The openai client is some 240 modules: loaded only where AI_PROVIDER=openai.
    const { OpenAiProvider } = await import('./openaiProvider.ts');
    return new OpenAiProvider(settings, logger);
  }
  if (settings.provider === 'sandbox') return new SandboxProvider();
  return null;
}

export interface AiDependencies {
  db: Database;
  outbox: Outbox;
  storage: MediaStorage;
  boss: PgBoss;
  logger: Logger;
  settings: AiSettings;
  /** Null when AI_PROVIDER is unset: AI is not configured. */
  provider: AiProvider | null;
}

export class Ai {
  readonly db: Database;
  readonly outbox: Outbox;
  readonly storage: MediaStorage;
  readonly boss: PgBoss;
  readonly logger: Logger;
  readonly settings: AiSettings;
  readonly provider: AiProvider | null;

  constructor(dependencies: AiDependencies) {
    ({
      db: this.db,
      outbox: this.outbox,
      storage: this.storage,
      boss: this.boss,
      logger: this.logger,
      settings: this.settings,
      provider: this.provider,
    } = dependencies);
  }

  /** GET /ai: whether AI can be used by this workspace now, its credits, and what each action costs. */
  async status(actor: Actor) {
    authorize(actor, 'getAi');
    const plan = planInForce(actor.plan);
    return {
      available: this.provider !== null && plan !== null && plans[plan].ai,
      provider: this.provider?.name ?? null,
      credits: await creditStatus(this.db, actor.workspaceId),
      costs: { ...aiCosts },
    };
  }

  /** The checks every AI action starts with: the scopes, then 409 AI_NOT_CONFIGURED, then a plan with AI (402). */
  begin(actor: Actor, operation: Operation): AiProvider {
    authorize(actor, operation);
    if (!this.provider) throw aiNotConfigured();
    requirePlan(actor.plan, 'ai');
    return this.provider;
  }

  /** Calls the provider (which gives up after AI_TIMEOUT_MS) under a reservation of the action's credits and an in-flight place. */
  charged<T>(actor: Actor, provider: AiProvider, action: AiAction, call: (provider: AiProvider) => Promise<T>) {
    return withCredits(this.db, this.outbox, actor.workspaceId, action, this.syncLimits(), () => countedAiCall(action, () => call(provider)));
  }

  /** A request answered while the caller waits holds its place until the provider's timeout has surely passed. */
  syncLimits() {
    return { maxInFlight: this.settings.maxConcurrent, ttlMs: this.settings.timeoutMs + 30_000 };
  }
}
