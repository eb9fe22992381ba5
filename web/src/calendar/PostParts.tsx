// What lists of posts show of each post beside its caption (the calendar, analytics): its networks' icons and its
// first file's thumbnail, both as the graph sums them up (Post.providers, Post.thumbnailUrl).
import { NetworkIcon } from '../ui/NetworkIcon.tsx';
import type { CalendarPost } from './model.ts';
import './postParts.css';

/** The post's networks, each its icon named by the network. */
export function Networks({ providers }: { providers: CalendarPost['providers'] }) {
  return (
    <span className="post-networks">
      {providers.map((provider) => (
        <NetworkIcon key={provider} provider={provider} size={14} />
      ))}
    </span>
  );
}

/** The thumbnail of the post's first file; the caption beside it names the post, so it has no text of its own. */
export function Thumbnail({ url, size }: { url: string | null; size: number }) {
  return url ? <img className="post-thumbnail" src={url} alt="" width={size} height={size} loading="lazy" decoding="async" /> : null;
}
