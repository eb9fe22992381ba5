// Media as posts see it: the workspace's files behind a post's mediaIds, in the post's order.
import type { Transaction } from '../db/database.ts';
import type { Media } from '../db/generated/prisma/client.ts';
import type { MediaKind } from '../providers/rules.ts';
import type { MediaFacts } from '../posts/validation.ts';

export async function mediaOf(client: Pick<Transaction, 'media'>, workspaceId: string, ids: readonly string[]): Promise<Media[]> {
  if (!ids.length) return [];
  const found = await client.media.findMany({ where: { workspaceId, id: { in: [...ids] } } });
  const byId = new Map(found.map((media) => [media.id, media]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export function factsOf(media: Media): MediaFacts {
  return {
    id: media.id,
    kind: (media.type ?? 'image') as MediaKind,
    format: media.format ?? '',
    size: Number(media.size),
    width: media.width ?? 0,
    height: media.height ?? 1,
    durationMs: media.durationMs,
    altText: media.altText,
  };
}
