// What lists of posts show of each one (the calendar, analytics by post): the networks it goes to, and posts
// looked up by id many at once, so a list names all its posts with one query.
import type { Database } from '../db/database.ts';
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import { isUuid } from '../ids.ts';
import { withTargets, type PostWithTargets } from './posts.ts';

/** The networks the post goes to, each once, in its targets' order. */
export function networksOf(post: PostWithTargets): string[] {
  return [...new Set(post.targets.map((target) => target.account.provider))];
}

/** The workspace's posts of these ids (an id of no post of the workspace is left out). */
export async function postsByIds(db: Database, actor: Actor, ids: readonly string[]): Promise<Map<string, PostWithTargets>> {
  authorize(actor, 'listPosts');
  const posts = await db.prisma.post.findMany({ where: { workspaceId: actor.workspaceId, id: { in: ids.filter(isUuid) } }, include: withTargets });
  return new Map(posts.map((post) => [post.id, post]));
}
