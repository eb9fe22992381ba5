// Connecting YouTube: Google's OAuth 2.0 for web server apps (kit/googleOAuth.ts), one channel per authorization;
//   people may untick scopes on the consent screen, so the granted `scope` is read.
//   channels.list  https://developers.google.com/youtube/v3/docs/channels/list
//     (GET /youtube/v3/channels?part=snippet&mine=true: `id` UC…, `snippet.title`, `snippet.customUrl` the @handle;
//     no items for a Google account without a channel)
//   commentThreads.insert  https://developers.google.com/youtube/v3/docs/commentThreads/insert (youtube.force-ssl)
import { ProviderError, type RemoteIdentity } from '../adapter.ts';
import { googleOAuthServer, googleScope as scope } from '../kit/googleOAuth.ts';
import type { OAuthProfile } from '../kit/oauthLink.ts';
import type { YouTubeApi } from './api.ts';

/** Uploading videos and setting their thumbnails; reading the channel and its videos (upload alone cannot). */
export const youtubeScopes = [scope('youtube.upload'), scope('youtube.readonly')];
/**
 * Posting comments (commentThreads.insert takes no other scope): asked for, not required, so that a channel whose
 * owner unticks it still publishes, and its first comments fail with a reason instead.
 */
export const youtubeCommentScope = scope('youtube.force-ssl');

interface Channels {
  items?: { id?: string; snippet?: { title?: string; customUrl?: string; thumbnails?: { default?: { url?: string } } } }[];
}

export function youtubeProfile(api: YouTubeApi): OAuthProfile {
  return {
    network: 'YouTube',
    server: (app) => googleOAuthServer(app, [...youtubeScopes, youtubeCommentScope]),
    requiredScopes: { scopes: youtubeScopes, advice: 'connect again and allow uploading videos and seeing the channel' },
    identities: async (tokens) => {
      const { body } = await api.send<Channels>({ method: 'GET', path: '/youtube/v3/channels?part=snippet&mine=true', accessToken: tokens.accessToken });
      return [{ identity: channelOf(body), tokens }];
    },
    refresh: 'standard',
  };
}

function channelOf(body: Channels): RemoteIdentity {
  const channel = body.items?.[0];
  if (!channel?.id)
    throw new ProviderError('PROVIDER_REJECTED', 'YouTube: this Google account has no YouTube channel. Create one at YouTube, then connect again.', false);
  const title = channel.snippet?.title || channel.id;
  return {
    remoteId: channel.id,
    username: channel.snippet?.customUrl || channel.id,
    displayName: title,
    avatarUrl: channel.snippet?.thumbnails?.default?.url ?? null,
  };
}
