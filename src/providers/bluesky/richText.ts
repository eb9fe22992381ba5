// Facets (links, mentions, hashtags) with UTF-8 byte offsets, as @atproto/api's RichText finds them. Mentions
// are resolved to DIDs by the account's own PDS (com.atproto.identity.resolveHandle), which needs no AppView;
// a handle that does not resolve stays plain text, as in Bluesky's app.
import type { Agent, AppBskyRichtextFacet } from '@atproto/api';
import { atproto } from './sdk.ts';

export interface PostText {
  text: string;
  facets: AppBskyRichtextFacet.Main[];
  /** The first link in the text, for a link card. */
  firstLink: string | null;
}

export async function richTextOf(caption: string, agent: Agent): Promise<PostText> {
  const sdk = await atproto();
  const rich = new sdk.RichText({ text: caption });
  await rich.detectFacets(agent);
  const facets = (rich.facets ?? [])
    .map((facet) => ({ ...facet, features: facet.features.filter((feature) => !(sdk.AppBskyRichtextFacet.isMention(feature) && !feature.did)) }))
    .filter((facet) => facet.features.length > 0);
  const firstLink = facets.flatMap((facet) => facet.features).find(sdk.AppBskyRichtextFacet.isLink)?.uri ?? null;
  return { text: rich.text, facets, firstLink };
}
