// Each Mastodon instance sets its own limits and publishes them in GET /api/v2/instance
// (https://docs.joinmastodon.org/methods/instance/#v2, `configuration.statuses` and `configuration.media_attachments`).
// Posts for an account are checked against its instance's limits, read once per instance and kept for a while.
import { ProviderError } from '../adapter.ts';
import type { NetworkHttp } from '../http.ts';
import type { FileRules, ProviderRules } from '../rules.ts';
import type { Instance } from './api.ts';
import { mastodonRules } from './network.ts';

/** Our media format names (as the media library records them) for the MIME types an instance lists. */
const formatByMimeType: Record<string, string> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heif',
  'image/heif': 'heif',
  'image/avif': 'heif',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
};

const formatsOfKind = { image: ['jpeg', 'png', 'webp', 'heif'], gif: ['gif'], video: ['mp4', 'mov', 'webm'] } as const;

/** The catalog's Mastodon rules with this instance's limits in place of the defaults. */
export function rulesFromInstance(instance: Instance): ProviderRules {
  const statuses = instance.configuration?.statuses ?? {};
  const media = instance.configuration?.media_attachments ?? {};
  const supported = media.supported_mime_types?.map((type) => formatByMimeType[type]);
  const files = <T extends FileRules>(rules: T, kind: keyof typeof formatsOfKind, maxBytes: number | undefined, maxPixels: number | undefined): T => ({
    ...rules,
    formats: supported ? formatsOfKind[kind].filter((format) => supported.includes(format)) : rules.formats,
    maxBytes: maxBytes ?? rules.maxBytes,
    maxPixels: maxPixels ?? rules.maxPixels,
  });
  const { image, gif, video } = mastodonRules;
  return {
    ...mastodonRules,
    placements: mastodonRules.placements.map((placement) => ({
      ...placement,
      caption: {
        ...placement.caption,
        maxLength: statuses.max_characters ?? placement.caption.maxLength,
        charactersPerUrl: statuses.characters_reserved_per_url ?? placement.caption.charactersPerUrl,
      },
      media: { ...placement.media, max: statuses.max_media_attachments ?? placement.media.max },
    })),
    image: files(image, 'image', media.image_size_limit, media.image_matrix_limit),
    // Mastodon takes GIFs as images (same size limit) and turns them into short videos.
    gif: gif && (!supported || supported.includes('gif')) ? files(gif, 'gif', media.image_size_limit, media.image_matrix_limit) : null,
    video: video && files(video, 'video', media.video_size_limit, media.video_matrix_limit),
    altText: { maxLength: media.description_limit ?? mastodonRules.altText?.maxLength ?? 1500 },
    notes: [
      `This instance allows ${statuses.max_characters ?? 500} characters; each link counts as ${statuses.characters_reserved_per_url ?? 23}.`,
      ...mastodonRules.notes,
    ],
  };
}

interface Entry {
  rules: Promise<ProviderRules>;
  expiresAt: number;
}

export class InstanceRules {
  readonly #http: NetworkHttp;
  readonly #ttlMs: number;
  readonly #entries = new Map<string, Entry>();

  constructor(http: NetworkHttp, ttlMs: number) {
    this.#http = http;
    this.#ttlMs = ttlMs;
  }

  /**
   * The instance's rules, read at most once per TTL (callers at the same time share one request). An instance that
   * cannot be read leaves the last rules read in place, or the defaults, and is asked again on the next call.
   */
  async of(instance: string): Promise<ProviderRules> {
    const entry = this.#entries.get(instance);
    if (entry && entry.expiresAt > Date.now()) return entry.rules;
    const previous = entry?.rules ?? Promise.resolve(mastodonRules);
    const rules = this.#http.send<Instance>({ method: 'GET', url: new URL('/api/v2/instance', instance) }).then(
      ({ body }) => rulesFromInstance(body),
      (error: unknown) => {
        if (!(error instanceof ProviderError)) throw error;
        // Asked again on the next call, with these rules standing in until then.
        this.#entries.set(instance, { rules: previous, expiresAt: 0 });
        return previous;
      },
    );
    this.#entries.set(instance, { rules, expiresAt: Date.now() + this.#ttlMs });
    return rules;
  }
}
