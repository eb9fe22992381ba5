// Picks ready files of the media library (searchable): the composer's library dialog (uploads go through the
// composer's drop zone and its button).
import { useId, useState } from 'react';
import { t } from '../i18n.ts';
import { Button } from '../ui/Button.tsx';
import { MediaPages } from './MediaPages.tsx';
import { Thumbnail } from './Thumbnail.tsx';
import { useDebounced } from './useDebounced.ts';
import type { MediaItem, MediaType } from './types.ts';

export type { MediaItem, MediaType } from './types.ts';

export interface MediaPickerProps {
  /** Ids of the files already chosen: shown as chosen, not offered again. */
  selected: readonly string[];
  /** The person picked a ready file of the library. */
  onPick: (file: MediaItem) => void;
  /** Only these kinds are offered (default: all kinds). */
  types?: readonly MediaType[];
}

export function MediaPicker({ selected, onPick, types }: MediaPickerProps) {
  const id = useId();
  const [query, setQuery] = useState('');
  const q = useDebounced(query.trim());
  // The graph filters by one kind; several kinds are filtered here.
  const type = types?.length === 1 ? types[0] : undefined;
  return (
    <section className="media-picker" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('media.pickerTitle')}</h2>
      <search className="field">
        <label htmlFor={`${id}-q`}>{t('media.search')}</label>
        <input id={`${id}-q`} type="search" value={query} onChange={(event) => setQuery(event.target.value)} />
      </search>
      <MediaPages
        filters={{ q: q || undefined, type, status: 'READY' }}
        show={(item) => !types || (item.type !== null && types.includes(item.type))}
        pageSize={12}
      >
        {(item) => {
          const chosen = selected.includes(item.id);
          return (
            <div className="media-choice">
              <Thumbnail media={item} />
              <Button isDisabled={chosen} onPress={() => onPick(item)}>
                {t(chosen ? 'media.chosen' : 'media.pick', { filename: item.filename })}
              </Button>
            </div>
          );
        }}
      </MediaPages>
    </section>
  );
}
