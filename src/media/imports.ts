// Media added in one call, for agents and scripts that hold a file's URL or its bytes rather than an upload client:
// the same upload (start, receive, complete) a client would make, with the bytes fetched or decoded here.
// A URL is fetched under the webhook SSRF guard (https, public addresses unless the operator allows the host; the
// connection goes to the checked address; redirects are each checked) and streamed into the media store.
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { errors, request } from 'undici';
import type { Actor } from '../access/actor.ts';
import type { Database } from '../db/database.ts';
import type { Media } from '../db/generated/prisma/client.ts';
import type { UrlSigner } from '../crypto/urlSigner.ts';
import { AppError, invalidRequest, type ErrorDetail } from '../errors/appError.ts';
import type { PgBoss } from '../jobs/boss.ts';
import type { Services } from '../runtime.ts';
import { checkDestination, pinnedAgent, RefusedDestination } from '../outbound/guard.ts';
import { getMedia } from './library.ts';
import type { MediaStorage } from './storage.ts';
import { completeUpload, createUpload, receiveUpload, uploadToken, type UploadSettings } from './uploads.ts';

/** Decoded bytes accepted in one call; larger files go through an upload (or a URL). */
export const maxInlineBytes = 20 * 1024 * 1024;
const fetchTimeoutMs = 30_000;
const maxRedirects = 3;
const processingPollMs = 100;

export interface ImportDeps {
  db: Database;
  boss: PgBoss;
  storage: MediaStorage;
  signer: UrlSigner;
  settings: UploadSettings & { allowedHosts: ReadonlySet<string> };
}

/** The import's dependencies from the running services: URLs are checked against the webhooks' allow-list. */
export function mediaImportDeps(services: Pick<Services, 'db' | 'boss' | 'storage' | 'signer' | 'config' | 'webhooks'>): ImportDeps {
  const { db, boss, storage, signer, config, webhooks } = services;
  return {
    db,
    boss,
    storage,
    signer,
    settings: { publicBaseUrl: config.publicBaseUrl, maxUploadBytes: config.maxUploadBytes, allowedHosts: webhooks.allowedHosts },
  };
}

type FileSource = { body: Readable; filename: string; contentType: string; size: number };

const refused = (detail: ErrorDetail) => invalidRequest([detail]);

/** Stores the file as an upload of the caller's workspace and queues its processing (status `processing`). */
async function importFile(deps: ImportDeps, actor: Actor, source: FileSource): Promise<Media> {
  const { db, boss, storage, signer, settings } = deps;
  const upload = await createUpload(db, settings, actor, { filename: source.filename, contentType: source.contentType, size: source.size });
  const [expires, signature] = uploadToken(signer, upload.id).split('.');
  await receiveUpload(db, storage, signer, { id: upload.id, expires, signature, contentType: source.contentType, body: source.body });
  return completeUpload(db, boss, storage, actor, upload.id);
}

export async function importFromBase64(deps: ImportDeps, actor: Actor, input: { base64: string; filename: string; contentType: string }): Promise<Media> {
  const compact = input.base64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) {
    throw refused({ field: 'base64', code: 'format', messageKey: 'detail.format', params: { format: 'base64' } });
  }
  if ((compact.length / 4) * 3 > maxInlineBytes + 2) {
    throw refused({ field: 'base64', code: 'maximum', messageKey: 'detail.inlineTooLarge', params: { limit: maxInlineBytes } });
  }
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length > maxInlineBytes)
    throw refused({ field: 'base64', code: 'maximum', messageKey: 'detail.inlineTooLarge', params: { limit: maxInlineBytes } });
  return importFile(deps, actor, { body: Readable.from([bytes]), filename: input.filename, contentType: input.contentType, size: bytes.length });
}

export async function importFromUrl(deps: ImportDeps, actor: Actor, input: { url: string; filename?: string }): Promise<Media> {
  const signal = AbortSignal.timeout(fetchTimeoutMs);
  let url = input.url;
  for (let hop = 0; hop <= maxRedirects; hop++) {
    const destination = await checkedDestination(url, deps.settings.allowedHosts);
    const unreachable = () => refused({ field: 'url', code: 'unreachable', messageKey: 'detail.mediaUrl.unreachable', params: { host: destination.url.host } });
    const agent = pinnedAgent(destination);
    try {
      const response = await request(destination.url, {
        method: 'GET',
        headers: { 'user-agent': 'social-publishing-service (media import)' },
        dispatcher: agent,
        signal,
      }).catch(() => {
        throw unreachable();
      });
      const location = response.headers.location;
      if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
        await response.body.dump();
        url = new URL(location, destination.url).toString();
        continue;
      }
      const size = Number(response.headers['content-length']);
      const problem = answerProblem(response.statusCode, size, deps.settings.maxUploadBytes);
      if (problem) throw refused(problem);
      const contentType = String(response.headers['content-type'] ?? 'application/octet-stream');
      const filename = input.filename ?? (decodeURIComponent(basename(destination.url.pathname)) || 'download');
      return await importFile(deps, actor, { body: response.body, filename, contentType, size }).catch((error: unknown) => {
        throw brokenOff(error, signal) ? unreachable() : error;
      });
    } finally {
      // Ends whatever of the answer is still unread (a refused one, or one a refused upload left). Not
      // `body.destroy()`: that raises an 'error' event nobody listens to once reading stopped, which ends the
      // process; undici destroys the body with a listener of its own.
      await agent.destroy();
    }
  }
  throw refused({ field: 'url', code: 'tooManyRedirects', messageKey: 'detail.mediaUrl.tooManyRedirects', params: { limit: maxRedirects } });
}

/** The answer's body failed while it streamed into the store: the host dropped it, or it took past the timeout. */
const brokenOff = (error: unknown, signal: AbortSignal) => error instanceof errors.UndiciError || (signal.aborted && error === signal.reason);

async function checkedDestination(url: string, allowedHosts: ReadonlySet<string>) {
  try {
    return await checkDestination(url, allowedHosts);
  } catch (error) {
    if (!(error instanceof RefusedDestination)) throw error;
    throw refused({ field: 'url', code: error.code, messageKey: `detail.mediaUrl.${error.code}`, params: error.params });
  }
}

/** Whether the guard lets the import fetch `url` (without fetching it): the refusal's detail (field `url`), or null. */
export async function checkMediaUrl(url: string, allowedHosts: ReadonlySet<string>): Promise<ErrorDetail | null> {
  try {
    await checkedDestination(url, allowedHosts);
    return null;
  } catch (error) {
    if (error instanceof AppError && error.details?.[0]) return error.details[0];
    throw error;
  }
}

function answerProblem(status: number, size: number, maxBytes: number): ErrorDetail | null {
  if (status !== 200) return { field: 'url', code: 'unreachable', messageKey: 'detail.mediaUrl.status', params: { status } };
  if (!Number.isSafeInteger(size) || size < 1) return { field: 'url', code: 'lengthRequired', messageKey: 'detail.mediaUrl.lengthRequired' };
  if (size > maxBytes) return { field: 'url', code: 'maximum', messageKey: 'detail.maximum', params: { limit: maxBytes } };
  return null;
}

/** The file once processing has ended (`ready` or `failed`), or as it is after `waitMs` (still `processing`). */
export async function awaitProcessed(db: Database, actor: Actor, id: string, waitMs: number): Promise<Media> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const media = await getMedia(db, actor, id);
    if (media.status !== 'processing' || Date.now() >= deadline) return media;
    await sleep(Math.min(processingPollMs, Math.max(0, deadline - Date.now())));
  }
}
