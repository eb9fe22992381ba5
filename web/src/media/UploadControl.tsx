// A file input that uploads the chosen file to the media library, with a labelled <progress> and the API's refusal.
import { useEffect, useId, useRef, useState } from 'react';
import { useClient } from 'urql';
import { ApiError } from '../api/auth.ts';
import { t } from '../i18n.ts';
import { ErrorBanner } from '../ui.tsx';
import { uploadMedia, type UploadProgress } from './upload.ts';
import type { MediaItem, MediaType } from './types.ts';
import './media.css';

/** The file input's hint: images (GIFs are images too) and videos; the service decides by the bytes. */
function acceptFor(types: readonly MediaType[] | undefined): string {
  const families = new Set((types ?? ['IMAGE', 'GIF', 'VIDEO']).map((type) => (type === 'VIDEO' ? 'video/*' : 'image/*')));
  return [...families].join(',');
}

export interface UploadControlProps {
  /** Called with the media file once it is ready. */
  onUploaded: (media: MediaItem) => void;
  /** Kinds offered by the file chooser (default: all). */
  types?: readonly MediaType[] | undefined;
}

export function UploadControl({ onUploaded, types }: UploadControlProps) {
  const client = useClient();
  const id = useId();
  const [upload, setUpload] = useState<{ filename: string; progress: UploadProgress } | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const running = useRef<AbortController | null>(null);
  useEffect(() => () => running.current?.abort(), []);

  const start = async (file: File) => {
    const controller = new AbortController();
    running.current = controller;
    setError(null);
    try {
      const media = await uploadMedia(client, file, (progress) => setUpload({ filename: file.name, progress }), controller.signal);
      onUploaded(media);
    } catch (reason) {
      if (controller.signal.aborted) return;
      setUpload(null);
      setError(reason instanceof ApiError ? reason : new ApiError('INTERNAL', String(reason)));
    } finally {
      if (running.current === controller) running.current = null;
    }
  };

  const busy = upload !== null && upload.progress.phase !== 'ready';
  const { phase, sentBytes, totalBytes } = upload?.progress ?? { phase: 'ready', sentBytes: 0, totalBytes: 0 };
  return (
    <div className="upload">
      <label htmlFor={`${id}-file`}>{t('media.upload')}</label>
      <input
        id={`${id}-file`}
        type="file"
        accept={acceptFor(types)}
        disabled={busy}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          event.currentTarget.value = '';
          if (file) void start(file);
        }}
      />
      <div className="upload-status" aria-live="polite">
        {upload && (
          <div className="upload-progress">
            <label htmlFor={`${id}-progress`}>{t('media.progress', { phase, filename: upload.filename })}</label>
            {/* No value while the service processes the file: an indeterminate bar. */}
            <progress id={`${id}-progress`} max={totalBytes} value={phase === 'processing' ? undefined : phase === 'ready' ? totalBytes : sentBytes} />
          </div>
        )}
      </div>
      <div id={`${id}-error`}>
        <ErrorBanner error={error} />
        {error?.details.map((detail) => (
          <p key={detail.field} className="field-error">
            {detail.message}
          </p>
        ))}
      </div>
    </div>
  );
}
