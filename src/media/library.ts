// The media library: list and search, read, alt text, delete. Files and thumbnails are only reachable through
// signed, expiring URLs handed to callers who may read the media.
import { AppError, invalidRequest, notFound, storedError, type ErrorDetail } from '../errors/appError.ts';
import type { Database } from '../db/database.ts';
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import type { UrlSigner } from '../crypto/urlSigner.ts';
import { isUuid } from '../ids.ts';
import { lockOwnedRow } from '../db/locks.ts';
import { decodeCursor, newestFirstAfter, pageSize, toPage, type Page, type PageRequest } from '../pagination.ts';
import { instantDetails } from '../time.ts';
import type { Media, Prisma } from '../db/generated/prisma/client.ts';
import { storageKeys, type MediaStorage } from './storage.ts';
import { longestAltText } from './limits.ts';
import { withTargets, type PostWithTargets } from '../posts/posts.ts';

export const mediaTypes = ['image', 'video', 'gif'] as const;
export const mediaStatuses = ['uploading', 'processing', 'ready', 'failed'] as const;
export const fileUrlTtlSeconds = 3600;
export type MediaVariant = 'original' | 'thumbnail';
/** Besides those, the JPEG rendition (renditions.ts), reached with the original's signature. */
type ServedVariant = MediaVariant | 'jpeg';

export const mediaSubject = (id: string, variant: MediaVariant) => `media:${id}:${variant}`;

function signedUrl(signer: UrlSigner, publicBaseUrl: string, id: string, variant: MediaVariant): string {
  const { expires, signature } = signer.sign(mediaSubject(id, variant), fileUrlTtlSeconds);
  return `${publicBaseUrl}/media-files/${id}/${variant}?expires=${expires}&signature=${signature}`;
}

/** The signed URL of the file (once it is ready) or of its thumbnail (once there is one); else null. */
export function mediaFileUrl(media: Media, variant: MediaVariant, signer: UrlSigner, publicBaseUrl: string): string | null {
  const available = variant === 'original' ? media.status === 'ready' : media.hasThumbnail;
  return available ? signedUrl(signer, publicBaseUrl, media.id, variant) : null;
}

export function presentMedia(media: Media, signer: UrlSigner, publicBaseUrl: string) {
  return {
    id: media.id,
    status: media.status,
    type: media.type,
    filename: media.filename,
    mimeType: media.mimeType,
    format: media.format,
    size: Number(media.size),
    width: media.width,
    height: media.height,
    durationMs: media.durationMs,
    codecs: media.codecs,
    altText: media.altText,
    source: media.source,
    url: mediaFileUrl(media, 'original', signer, publicBaseUrl),
    thumbnailUrl: mediaFileUrl(media, 'thumbnail', signer, publicBaseUrl),
    error: storedError(media),
    createdAt: media.createdAt.toISOString(),
  };
}

export interface MediaFilters {
  q?: string;
  type?: string;
  status?: string;
  from?: Date;
  to?: Date;
}

export const mediaPosition = (media: Media) => ({ at: media.createdAt.toISOString(), id: media.id });

export async function listMedia(db: Database, actor: Actor, filters: MediaFilters, request: PageRequest): Promise<Page<Media>> {
  authorize(actor, 'listMedia');
  const details: ErrorDetail[] = [];
  if (filters.type !== undefined && !(mediaTypes as readonly string[]).includes(filters.type)) {
    details.push({ field: 'type', code: 'enum', messageKey: 'detail.enum', params: { allowed: mediaTypes.join(', ') } });
  }
  if (filters.status !== undefined && !(mediaStatuses as readonly string[]).includes(filters.status)) {
    details.push({ field: 'status', code: 'enum', messageKey: 'detail.enum', params: { allowed: mediaStatuses.join(', ') } });
  }
  details.push(...instantDetails({ from: filters.from, to: filters.to }));
  if (details.length) throw invalidRequest(details);
  const limit = pageSize(request);
  const q = filters.q?.trim();
  const where: Prisma.MediaWhereInput = {
    workspaceId: actor.workspaceId,
    ...(filters.type ? { type: filters.type } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.from || filters.to ? { createdAt: { gte: filters.from, lt: filters.to } } : {}),
    ...(q ? { OR: [{ filename: { contains: q, mode: 'insensitive' } }, { altText: { contains: q, mode: 'insensitive' } }] } : {}),
    AND: [newestFirstAfter<Prisma.MediaWhereInput>('createdAt', decodeCursor(request.cursor, isUuid))],
  };
  const rows = await db.prisma.media.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit + 1 });
  return toPage(rows, limit, mediaPosition);
}

async function findMedia(db: Database, actor: Actor, id: string): Promise<Media> {
  const media = isUuid(id) ? await db.prisma.media.findFirst({ where: { id, workspaceId: actor.workspaceId } }) : null;
  if (!media) throw notFound('mediaFile');
  return media;
}

export async function getMedia(db: Database, actor: Actor, id: string): Promise<Media> {
  authorize(actor, 'getMedia');
  return findMedia(db, actor, id);
}

/** Saves (or, with null or blank, clears) the alt text; longer than any network takes is refused. */
export async function setAltText(db: Database, actor: Actor, id: string, altText: string | null): Promise<Media> {
  authorize(actor, 'setAltText');
  const text = altText?.trim() ? altText.trim() : null;
  const limit = longestAltText();
  if (text && [...text].length > limit) {
    throw invalidRequest([{ field: 'altText', code: 'maxLength', messageKey: 'detail.maxLength', params: { limit } }]);
  }
  const media = await findMedia(db, actor, id);
  const { count } = await db.prisma.media.updateMany({ where: { id: media.id, workspaceId: actor.workspaceId }, data: { altText: text } });
  if (!count) throw notFound('mediaFile');
  return { ...media, altText: text };
}

/** The posts whose content names each of these files (newest first), for many files in one query. */
export async function postsUsingMedia(db: Database, actor: Actor, mediaIds: readonly string[]): Promise<Map<string, PostWithTargets[]>> {
  authorize(actor, 'listPosts');
  const posts = await db.prisma.post.findMany({
    where: { workspaceId: actor.workspaceId, mediaIds: { hasSome: mediaIds.filter(isUuid) } },
    include: withTargets,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  return new Map(mediaIds.map((id) => [id, posts.filter((post) => post.mediaIds.includes(id))]));
}

/** Deletes the file, unless a post that is not yet published uses it (409 CONFLICT). */
export async function deleteMedia(db: Database, storage: MediaStorage, actor: Actor, id: string): Promise<void> {
  authorize(actor, 'deleteMedia');
  await db.prisma.$transaction(async (tx) => {
    if (!(await lockOwnedRow(tx, 'media', actor.workspaceId, id))) throw notFound('mediaFile');
    const users = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM post WHERE workspace_id = ${actor.workspaceId}::uuid AND ${id}::uuid = ANY(media_ids) AND status <> 'published' LIMIT 5`;
    if (users.length) throw new AppError('CONFLICT', 'mediaInUse', { posts: users.map((post) => post.id).join(', ') });
    // Published posts let their files go: the networks keep their copies, and the posts' content stops naming
    // a file that is gone (a change to the post, so its version moves on).
    await tx.$executeRaw`
      UPDATE post SET media_ids = array_remove(media_ids, ${id}::uuid), version = version + 1, updated_at = now()
      WHERE workspace_id = ${actor.workspaceId}::uuid AND ${id}::uuid = ANY(media_ids)`;
    await tx.media.delete({ where: { id } });
  });
  await storage.remove(storageKeys.original(id));
  await storage.remove(storageKeys.thumbnail(id));
  await storage.remove(storageKeys.jpegRendition(id));
}

/** Types a browser shows as a picture or a video, running nothing: only these open in it, any other file downloads. */
const shownInBrowser = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'video/mp4', 'video/webm', 'video/quicktime']);

function contentDispositionOf(contentType: string, filename: string): string {
  // RFC 8187 allows none of ' ( ) *, which encodeURIComponent leaves as they are.
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${shownInBrowser.has(contentType) ? 'inline' : 'attachment'}; filename*=UTF-8''${encoded}`;
}

/** Where a variant of the file is kept and its type; null when the file has no such variant. */
function servedFile(media: Media, variant: ServedVariant): { key: string; contentType: string; filename: string } | null {
  if (variant === 'thumbnail') return media.hasThumbnail ? { key: storageKeys.thumbnail(media.id), contentType: 'image/webp', filename: media.filename } : null;
  if (media.status !== 'ready') return null;
  const original = { key: storageKeys.original(media.id), contentType: media.mimeType ?? 'application/octet-stream', filename: media.filename };
  if (variant === 'original' || (media.type === 'image' && media.format === 'jpeg')) return original;
  if (!media.hasJpegRendition) return null;
  return { key: storageKeys.jpegRendition(media.id), contentType: 'image/jpeg', filename: media.filename.replace(/(\.[^.]*)?$/, '.jpg') };
}

/** The file behind a signed URL, or null when the signature is wrong or expired. */
export async function signedFile(db: Database, signer: UrlSigner, id: string, variant: string, expires: unknown, signature: unknown) {
  if (!isUuid(id) || (variant !== 'original' && variant !== 'thumbnail' && variant !== 'jpeg')) return null;
  if (!signer.verify(mediaSubject(id, variant === 'jpeg' ? 'original' : variant), expires, signature)) return null;
  const media = await db.prisma.media.findUnique({ where: { id } });
  const file = media && servedFile(media, variant);
  if (!file) return null;
  return { key: file.key, contentType: file.contentType, contentDisposition: contentDispositionOf(file.contentType, file.filename) };
}
