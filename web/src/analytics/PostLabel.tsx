// A post in the analytics tables: its first file's thumbnail, its networks and its caption's start, linked to the
// post's page; a post deleted since it was measured is named so.
import { t } from '../i18n.ts';
import { Link } from '../ui.tsx';
import { captionStart } from '../calendar/captions.ts';
import { Networks, Thumbnail } from '../calendar/PostParts.tsx';
import type { PostRow } from './model.ts';

export function PostLabel({ post }: { post: PostRow['post'] }) {
  if (!post) return <span className="muted">{t('analytics.deletedPost')}</span>;
  return (
    <span className="post-label">
      <Thumbnail url={post.thumbnailUrl} size={32} />
      <Networks providers={post.providers} />
      <Link href={`/posts/${post.id}`}>{captionStart(post.content.caption || t('calendar.noCaption'), 60)}</Link>
    </span>
  );
}
