// Calling the network for a claimed target: with the account's tokens (a refused access token is refreshed once by
// TokenKeeper.callWithTokens and the call made again; tokens the network no longer accepts end as
// ACCOUNT_NEEDS_RECONNECT), resuming from the checkpoint the earlier attempts saved, each new checkpoint committed at
// once. Where the adapter looks up earlier attempts (`findPublished`), it is asked before posting again.
import type { Database } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import { jpegUrlOf } from '../../media/renditions.ts';
import type { ProviderAdapters } from '../../providers/registry.ts';
import {
  ProviderError,
  type ProviderAdapter,
  type ProviderTokens,
  type PublishMedia,
  type PublishOutcome,
  type PublishRequest,
} from '../../providers/adapter.ts';
import type { UrlSigner } from '../../crypto/urlSigner.ts';
import { presentMedia } from '../../media/library.ts';
import { storageKeys, type MediaStorage } from '../../media/storage.ts';
import type { Media } from '../../db/generated/prisma/client.ts';
import type { TokenKeeper } from '../../accounts/tokens.ts';
import type { CheckTargetJob, ClaimedTarget } from './claim.ts';
import { afterAnswer, afterFailure, unreachable, type Outcome } from './outcome.ts';

export interface CallDeps {
  db: Database;
  adapters: ProviderAdapters;
  tokens: TokenKeeper;
  logger: Logger;
  signer: UrlSigner;
  storage: MediaStorage;
  publicBaseUrl: string;
  /** STATUS_CHECK_MAX_MS: the longest wait before asking a network again about a post it is processing. */
  statusCheckMaxMs?: number;
  /** Where a permalink may be over http. */
  permalinkHosts: ReadonlySet<string>;
}

/** One attempt at the network (a publish, or a status check), and what became of it. */
export async function attemptTarget(deps: CallDeps, target: ClaimedTarget): Promise<Outcome> {
  const adapter = deps.adapters.get(target.provider)!;
  const account = { id: target.connectionId, encryptedTokens: target.encryptedTokens };
  try {
    return await deps.tokens.callWithTokens(account, adapter.refresh !== undefined, (tokens) => call(deps, adapter, target, request(deps, target, tokens)));
  } catch (error) {
    if (!(error instanceof ProviderError)) deps.logger.error({ err: error, targetId: target.targetId }, 'publish attempt failed');
    const known = error instanceof ProviderError ? error : unreachable();
    return { target, ...afterFailure(known, { attempts: target.attempts, retryCount: target.job.retryCount }, Date.now()) };
  }
}

async function call(deps: CallDeps, adapter: ProviderAdapter, target: ClaimedTarget, request: PublishRequest): Promise<Outcome> {
  let outcome: PublishOutcome;
  if (target.mode === 'check') {
    const { handle } = target.job.data as CheckTargetJob;
    outcome = adapter.checkStatus ? await adapter.checkStatus(request, handle) : await adapter.publish(request);
  } else {
    // Finding the first post says nothing of a thread's parts or a first comment: those resume in `publish`.
    const lookUp = adapter.findPublished && !request.thread.length && request.firstComment === null;
    const earlier = target.attemptedBefore && lookUp ? await adapter.findPublished!(request) : null;
    outcome = earlier ? { status: 'published', item: earlier } : await adapter.publish(request);
  }
  const now = Date.now();
  const since = target.mode === 'check' ? new Date((target.job.data as CheckTargetJob).since) : new Date(now);
  return { target, ...afterAnswer(outcome, { since, now, statusCheckMaxMs: deps.statusCheckMaxMs, permalinkHosts: deps.permalinkHosts }) };
}

function request(deps: CallDeps, target: ClaimedTarget, tokens: ProviderTokens | null): PublishRequest {
  return {
    account: { id: target.connectionId, provider: target.provider, username: target.username, remoteId: target.remoteId, tokens },
    placement: target.placement,
    caption: target.caption,
    media: target.media.map((media) => publishMedia(deps, media)),
    thread: target.thread.map((part) => ({ caption: part.caption, media: part.media.map((media) => publishMedia(deps, media)) })),
    firstComment: typeof target.settings.firstComment === 'string' ? target.settings.firstComment : null,
    settings: target.settings,
    settingsMedia: Object.fromEntries(Object.entries(target.settingsMedia).map(([setting, media]) => [setting, publishMedia(deps, media)])),
    idempotencyKey: target.targetId,
    checkpoint: {
      saved: target.saved.checkpoint ?? undefined,
      // Committed at once, outside any batch: the next call to the network may be the last thing this process does.
      save: async (state) => {
        await deps.db.pool.query('UPDATE post_target SET checkpoint = $2 WHERE id = $1', [target.targetId, JSON.stringify(state)]);
        target.saved.checkpoint = state;
      },
    },
    signal: target.job.signal,
  };
}

function publishMedia(deps: CallDeps, media: Media): PublishMedia {
  const { signer, publicBaseUrl, storage } = deps;
  const view = presentMedia(media, signer, publicBaseUrl);
  return {
    id: media.id,
    kind: (view.type ?? 'image') as PublishMedia['kind'],
    mimeType: view.mimeType ?? 'application/octet-stream',
    size: view.size,
    width: view.width,
    height: view.height,
    durationMs: view.durationMs,
    altText: view.altText,
    // Networks that fetch media themselves get signed URLs of this service.
    url: view.url ?? '',
    jpegUrl: view.url ? jpegUrlOf(view.url) : '',
    open: async (range) => storage.read(storageKeys.original(media.id), range),
  };
}
