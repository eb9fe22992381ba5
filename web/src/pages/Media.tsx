// The media library: search and filter the files, upload with progress, alt text (with an AI suggestion), delete.
import { useId, useRef, useState } from 'react';
import { useMutation } from 'urql';
import type { ApiError } from '../api/auth.ts';
import { apiErrorOf } from '../api/client.ts';
import { language, t } from '../i18n.ts';
import { ErrorBanner } from '../ui.tsx';
import { AltTextEditor } from '../media/AltTextEditor.tsx';
import { DeleteMedia } from '../media/documents.ts';
import { MediaPages } from '../media/MediaPages.tsx';
import { Thumbnail } from '../media/Thumbnail.tsx';
import { UploadControl } from '../media/UploadControl.tsx';
import { useDebounced } from '../media/useDebounced.ts';
import type { MediaItem, MediaStatus, MediaType } from '../media/types.ts';

const types: MediaType[] = ['IMAGE', 'GIF', 'VIDEO'];
const statuses: MediaStatus[] = ['READY', 'PROCESSING', 'UPLOADING', 'FAILED'];

function formatSize(bytes: number): string {
  const [value, unit] = bytes < 1_000_000 ? [bytes / 1000, 'kilobyte'] : [bytes / 1_000_000, 'megabyte'];
  return new Intl.NumberFormat(language, { style: 'unit', unit, maximumFractionDigits: 1 }).format(value);
}

export default function Media() {
  const [query, setQuery] = useState('');
  const q = useDebounced(query.trim());
  const [type, setType] = useState<MediaType | ''>('');
  const [status, setStatus] = useState<MediaStatus | ''>('');
  const [refresh, setRefresh] = useState(0);

  return (
    <section aria-labelledby="media-title">
      <h1 id="media-title">{t('media.title')}</h1>
      <UploadControl onUploaded={() => setRefresh((count) => count + 1)} />
      <search className="media-filters" aria-label={t('media.filters')}>
        <div className="field">
          <label htmlFor="media-q">{t('media.search')}</label>
          <input id="media-q" type="search" value={query} onChange={(event) => setQuery(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="media-type">{t('media.type')}</label>
          <select id="media-type" value={type} onChange={(event) => setType(event.target.value as MediaType | '')}>
            <option value="">{t('media.all')}</option>
            {types.map((option) => (
              <option key={option} value={option}>
                {t('media.kind', { type: option })}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="media-status">{t('media.status')}</label>
          <select id="media-status" value={status} onChange={(event) => setStatus(event.target.value as MediaStatus | '')}>
            <option value="">{t('media.all')}</option>
            {statuses.map((option) => (
              <option key={option} value={option}>
                {t('media.state', { status: option })}
              </option>
            ))}
          </select>
        </div>
      </search>
      <MediaPages filters={{ q: q || undefined, type: type || undefined, status: status || undefined }} refresh={refresh}>
        {(item) => <MediaCard media={item} />}
      </MediaPages>
    </section>
  );
}

function MediaCard({ media }: { media: MediaItem }) {
  const titleId = `media-${media.id}`;
  const facts = [
    t('media.kind', { type: media.type ?? 'NONE' }),
    media.width && media.height ? t('media.dimensions', { width: media.width, height: media.height }) : null,
    formatSize(media.size),
    t('media.state', { status: media.status }),
  ];
  return (
    <article className="media-card" aria-labelledby={titleId}>
      <Thumbnail media={media} />
      <h2 id={titleId}>{media.filename}</h2>
      <p className="muted">{facts.filter(Boolean).join(' · ')}</p>
      {media.error && <p className="field-error">{media.error.message}</p>}
      {media.status === 'READY' && <AltTextEditor media={media} />}
      <DeleteControl media={media} />
    </article>
  );
}

/** Delete asks once more; the API's refusal (a file a post still uses: CONFLICT) is shown as it gives it. */
function DeleteControl({ media }: { media: MediaItem }) {
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [deleting, deleteMedia] = useMutation(DeleteMedia);
  const deleteButton = useRef<HTMLButtonElement>(null);
  if (!confirming) {
    return (
      <div className="actions">
        <button type="button" className="danger" ref={deleteButton} onClick={() => setConfirming(true)}>
          {t('media.delete', { filename: media.filename })}
        </button>
      </div>
    );
  }
  return (
    <fieldset className="confirm" aria-labelledby={`${id}-question`}>
      <p id={`${id}-question`}>{t('media.confirmDelete', { filename: media.filename })}</p>
      <ErrorBanner error={error} />
      <div className="actions">
        <button
          type="button"
          className="danger"
          disabled={deleting.fetching}
          onClick={async () => {
            const result = await deleteMedia({ id: media.id }, { additionalTypenames: ['MediaFile'] });
            setError(result.error ? apiErrorOf(result.error) : null);
          }}
        >
          {t('media.deleteForGood')}
        </button>
        {/* The less harmful choice has the focus; cancelling gives it back to the delete button. */}
        <button
          type="button"
          // biome-ignore lint/a11y/noAutofocus: this group replaces the delete button the person just pressed, whose focus would otherwise fall back to the page's start
          autoFocus
          onClick={() => {
            setConfirming(false);
            setError(null);
            requestAnimationFrame(() => deleteButton.current?.focus());
          }}
        >
          {t('media.cancel')}
        </button>
      </div>
    </fieldset>
  );
}
