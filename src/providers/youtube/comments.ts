// YouTube's comments as the adapter's first comment and the inbox both use them: the resources
// (https://developers.google.com/youtube/v3/docs/comments#resource, .../commentThreads#resource), the link to one,
// and the permission every comment method takes, youtube.force-ssl
// (https://developers.google.com/youtube/v3/docs/comments/insert#auth, .../commentThreads/list#auth).
import type { ProviderTokens, PublishedItem } from '../adapter.ts';
import { ProviderError } from '../adapter.ts';
import { grantedScopes } from '../kit/oauthLink.ts';
import { youtubeCommentScope } from './channel.ts';

/** https://developers.google.com/youtube/v3/docs/comments#resource (the fields read here). */
export interface YouTubeComment {
  id?: string;
  snippet?: {
    textOriginal?: string;
    textDisplay?: string;
    authorDisplayName?: string;
    authorProfileImageUrl?: string;
    authorChannelUrl?: string;
    authorChannelId?: { value?: string };
    parentId?: string;
    publishedAt?: string;
  };
}

/** https://developers.google.com/youtube/v3/docs/commentThreads#resource */
export interface YouTubeCommentThread {
  id?: string;
  snippet?: { videoId?: string; topLevelComment?: YouTubeComment; totalReplyCount?: number; canReply?: boolean };
  replies?: { comments?: YouTubeComment[] };
}

/** A list answer (commentThreads.list, comments.list): a page of items and the token of the next. */
export interface YouTubeListPage<T> {
  items?: T[];
  nextPageToken?: string;
}

/** The watch page opened at the comment (`lc`), which is how YouTube links one. */
export const commentItem = (videoId: string, commentId: string): PublishedItem => ({
  remoteId: commentId,
  remoteUrl: `https://www.youtube.com/watch?v=${videoId}&lc=${commentId}`,
});

/**
 * The tokens, once they may post comments. Granted scopes are known from the authorization: a channel connected
 * before youtube.force-ssl was asked for, or whose owner unticked it, would only get Google's bare 403.
 */
export function requireCommentScope(tokens: ProviderTokens): ProviderTokens {
  const granted = grantedScopes(tokens);
  if (granted && !granted.has(youtubeCommentScope))
    throw new ProviderError(
      'PROVIDER_REJECTED',
      'YouTube: the permission to manage comments (youtube.force-ssl) was not granted: reconnect the channel and allow it to manage comments.',
      false,
    );
  return tokens;
}
