// The post's media, in order: picked from the library or uploaded with the media picker, each with its alt text (saved
// on the file, which AI can suggest) and a way to take it off the post again.
import type { ApiError } from '../api/auth.ts';
import { t } from '../i18n.ts';
import { AltTextEditor } from '../media/AltTextEditor.tsx';
import { MediaPicker, type MediaItem } from '../media/MediaPicker.tsx';
import { Thumbnail } from '../media/Thumbnail.tsx';
import { detailFor } from '../ui.tsx';

interface Props {
  attachments: readonly MediaItem[];
  onChange: (attachments: MediaItem[]) => void;
  /** The API's last refusal of the post: its details about `content.mediaIds[n]` are shown by the file. */
  error: ApiError | null;
}

export function Attachments({ attachments, onChange, error }: Props) {
  const replace = (file: MediaItem, changed: MediaItem | null) =>
    onChange(attachments.flatMap((other) => (other === file ? (changed ? [changed] : []) : [other])));
  return (
    <section className="attachments" aria-labelledby="attachments-title">
      <h2 id="attachments-title">{t('composer.media')}</h2>
      {detailFor(error, 'content.mediaIds') && <p className="field-error">{detailFor(error, 'content.mediaIds')}</p>}
      <ol>
        {attachments.map((file, index) => (
          <li key={file.id} className="attachment">
            <Thumbnail media={file} />
            <div>
              <p>{file.filename}</p>
              {detailFor(error, `content.mediaIds[${index}]`) && <p className="field-error">{detailFor(error, `content.mediaIds[${index}]`)}</p>}
              <AltTextEditor media={file} onSaved={(altText) => replace(file, { ...file, altText })} />
              <button type="button" onClick={() => replace(file, null)}>
                {t('composer.removeMedia', { file: file.filename })}
              </button>
            </div>
          </li>
        ))}
      </ol>
      <MediaPicker selected={attachments.map((file) => file.id)} onPick={(file) => onChange([...attachments, file])} label={t('composer.addMedia')} />
    </section>
  );
}
