// Picks a ready file of the media library (searchable), or uploads a new one and picks it once it is ready.
// Used by the media page and the composer.
import { useId, useState } from 'react';
import { t } from '../i18n.ts';
import { Button } from '../ui/Button.tsx';
import { MediaPages } from './MediaPages.tsx';
import { Thumbnail } from './Thumbnail.tsx';
import { UploadControl } from './UploadControl.tsx';
import { useDebounced } from './useDebounced.ts';
import type { MediaItem, MediaType } from './types.ts';

export type { MediaItem, MediaType } from './types.ts';

export interface MediaPickerProps {
  /** Ids of the files already chosen: shown as chosen, not offered again. */
  selected: readonly string[];
  /** The person picked a ready file: one from the library, or one just uploaded here (called once it is ready). */
  onPick: (file: MediaItem) => void;
  /** Only these kinds are offered, and only their MIME types accepted for upload (default: all kinds). */
  types?: readonly MediaType[];
  /** The picker's heading (default: the catalog's "Media library"). */
  label?: string;
}

export function MediaPicker({ selected, onPick, types, label }: MediaPickerProps) {
  const id = useId();
  const [query, setQuery] = useState('');
  const q = useDebounced(query.trim());
  const [refresh, setRefresh] = useState(0);
  // The graph filters by one kind; several kinds are filtered here.
  const type = types?.length === 1 ? types[0] : undefined;
  return (
    <section className="media-picker" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{label ?? t('media.pickerTitle')}</h2>
      <UploadControl
        types={types}
        onUploaded={(media) => {
          setRefresh((count) => count + 1);
          onPick(media);
        }}
      />
      <search className="field">
        <label htmlFor={`${id}-q`}>{t('media.search')}</label>
        <input id={`${id}-q`} type="search" value={query} onChange={(event) => setQuery(event.target.value)} />
      </search>
      <MediaPages
        filters={{ q: q || undefined, type, status: 'READY' }}
        show={(item) => !types || (item.type !== null && types.includes(item.type))}
        refresh={refresh}
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
