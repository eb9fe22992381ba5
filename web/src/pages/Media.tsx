// The media library: search and filter the files, upload with progress, alt text (with an AI suggestion), delete.
import { useState } from 'react';
import { useMutation } from 'urql';
import type { ApiError } from '../api/auth.ts';
import { apiErrorOf } from '../api/client.ts';
import { language, t } from '../i18n.ts';
import { ErrorBanner } from '../ui.tsx';
import { ConfirmButton } from '../ui/ConfirmButton.tsx';
import { StatusBadge, type Tone } from '../ui/StatusBadge.tsx';
import { AltTextEditor } from '../media/AltTextEditor.tsx';
import { DeleteMedia } from '../media/documents.ts';
import { MediaPages } from '../media/MediaPages.tsx';
import { Thumbnail } from '../media/Thumbnail.tsx';
import { UploadControl } from '../media/UploadControl.tsx';
import { useDebounced } from '../media/useDebounced.ts';
import type { MediaItem, MediaStatus, MediaType } from '../media/types.ts';

const types: MediaType[] = ['IMAGE', 'GIF', 'VIDEO'];
const statuses: MediaStatus[] = ['READY', 'PROCESSING', 'UPLOADING', 'FAILED'];
const statusTones: Record<MediaStatus, Tone> = { READY: 'success', PROCESSING: 'info', UPLOADING: 'info', FAILED: 'danger' };

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
  ];
  return (
    <article className="media-card" aria-labelledby={titleId}>
      <Thumbnail media={media} />
      <h2 id={titleId}>{media.filename}</h2>
      <p className="muted">{facts.filter(Boolean).join(' · ')}</p>
      <p>
        <StatusBadge tone={statusTones[media.status]}>{t('media.state', { status: media.status })}</StatusBadge>
      </p>
      {media.error && <p className="field-error">{media.error.message}</p>}
      {media.status === 'READY' && <AltTextEditor media={media} />}
      <DeleteControl media={media} />
    </article>
  );
}

/** Delete asks once more in a dialog; the API's refusal (a file a post still uses: CONFLICT) is shown as it gives it. */
function DeleteControl({ media }: { media: MediaItem }) {
  const [error, setError] = useState<ApiError | null>(null);
  const [, deleteMedia] = useMutation(DeleteMedia);
  return (
    <div className="actions">
      <ConfirmButton
        label={t('media.delete', { filename: media.filename })}
        title={t('media.confirmDelete', { filename: media.filename })}
        message={t('media.deleteMessage')}
        confirmLabel={t('media.deleteForGood')}
        onConfirm={async () => {
          const result = await deleteMedia({ id: media.id }, { additionalTypenames: ['MediaFile'] });
          setError(result.error ? apiErrorOf(result.error) : null);
        }}
      />
      <ErrorBanner error={error} />
    </div>
  );
}
