// GET /posts/export: the posts GET /posts selects, as the CSV POST /posts/import reads (same columns), newest first.
// Streamed: the posts are read a page at a time as the client takes the file, never all at once.
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import type { UrlSigner } from '../crypto/urlSigner.ts';
import type { Database } from '../db/database.ts';
import type { Media, Prisma } from '../db/generated/prisma/client.ts';
import { mediaOf } from '../media/facts.ts';
import { mediaFileUrl } from '../media/library.ts';
import { newestFirstAfter, type Position } from '../pagination.ts';
import { csvColumns, listSeparator, type CsvColumn } from './csvColumns.ts';
import { postPosition, postsWhere, withTargets, type PostFilters, type PostWithTargets } from './posts.ts';

const pageRows = 200;

/**
 * A post as rows: one per placement its targets use (a row has one placement), each naming its accounts as
 * `provider:username`, its files by their signed URLs, and its first comment (the first target's that has one).
 */
function rowsOf(post: PostWithTargets, media: readonly Media[], links: { signer: UrlSigner; publicBaseUrl: string }): Record<CsvColumn, string>[] {
  const placements = [...new Set(post.targets.map((target) => target.placement))];
  const mediaUrls = media.flatMap((media) => mediaFileUrl(media, 'original', links.signer, links.publicBaseUrl) ?? []);
  return placements.map((placement) => {
    const targets = post.targets.filter((target) => target.placement === placement);
    const comment = targets.map((target) => (target.settings as { firstComment?: unknown }).firstComment).find((value) => typeof value === 'string');
    return {
      caption: post.caption,
      accounts: targets.map((target) => `${target.account.provider}:${target.account.username}`).join(listSeparator),
      placement,
      scheduledAt: post.scheduledAt?.toISOString() ?? '',
      timezone: post.timezone ?? '',
      queueId: post.queueId ?? '',
      mediaUrls: mediaUrls.join(listSeparator),
      firstComment: (comment as string | undefined) ?? '',
    };
  });
}

/** The CSV of the posts the filters select (400 for a filter GET /posts would refuse, before anything is sent). */
export function exportPosts(
  db: Database,
  actor: Actor,
  filters: PostFilters,
  links: { signer: UrlSigner; publicBaseUrl: string },
): { filename: string; csv: Readable } {
  authorize(actor, 'exportPosts');
  const where = postsWhere(actor, filters);
  async function* rows() {
    let after: Position | null = null;
    for (;;) {
      const page = await db.prisma.post.findMany({
        where: { ...where, AND: [newestFirstAfter<Prisma.PostWhereInput>('createdAt', after)] },
        include: withTargets,
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: pageRows,
      });
      // The files of the whole page in one query.
      const ids = [...new Set(page.flatMap((post) => post.mediaIds))];
      const files = new Map((await mediaOf(db.prisma, actor.workspaceId, ids)).map((media) => [media.id, media]));
      for (const post of page)
        yield* rowsOf(
          post,
          post.mediaIds.flatMap((id) => files.get(id) ?? []),
          links,
        );
      if (page.length < pageRows) return;
      after = postPosition(page.at(-1)!);
    }
  }
  const csv = stringify({ header: true, columns: [...csvColumns] });
  const source = Readable.from(rows());
  source.on('error', (error) => csv.destroy(error));
  source.pipe(csv);
  return { filename: `posts-${new Date().toISOString().slice(0, 10)}.csv`, csv };
}
