// A media file's thumbnail (a still frame for videos), or its kind while there is none yet.
import { t } from '../i18n.ts';
import type { MediaItem } from './types.ts';

export function Thumbnail({ media }: { media: Pick<MediaItem, 'thumbnailUrl' | 'altText' | 'type' | 'status'> }) {
  if (!media.thumbnailUrl) {
    return (
      <div className="thumbnail placeholder" aria-hidden="true">
        {t('media.kind', { type: media.type ?? 'NONE' })}
      </div>
    );
  }
  return <img className="thumbnail" src={media.thumbnailUrl} alt={media.altText ?? ''} loading="lazy" />;
}
