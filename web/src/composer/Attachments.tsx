// The post's media, in order: picked from the library (in a dialog, so the library does not fill the composer), or
// chosen with the drop zone's own button or dropped onto the composer (uploaded with their progress shown here), each
// with its alt text (saved on the file, which AI can suggest) and a way to take it off the post again.
import type { ReactNode } from 'react';
import { DropZone, FileTrigger, isFileDropItem, type DropItem } from 'react-aria-components';
import type { ApiError } from '../api/auth.ts';
import { t } from '../i18n.ts';
import { AltTextEditor } from '../media/AltTextEditor.tsx';
import { MediaPicker, type MediaItem } from '../media/MediaPicker.tsx';
import { Thumbnail } from '../media/Thumbnail.tsx';
import { detailFor, ErrorBanner } from '../ui.tsx';
import { Button } from '../ui/Button.tsx';
import { ModalDialog } from '../ui/ModalDialog.tsx';
import type { Upload } from './useUploads.ts';

/** What can be dropped: the kinds of file the media library takes (the service decides by the bytes). */
const droppable = (type: string) => type.startsWith('image/') || type.startsWith('video/');
const acceptedTypes = ['image/*', 'video/*'];

/** The composer as a place to drop files onto: dropped images and videos are handed to `onFiles`. */
export function MediaDropZone({ onFiles, children }: { onFiles: (files: File[]) => void; children: ReactNode }) {
  const drop = async (items: readonly DropItem[]) => {
    const files = items.filter(isFileDropItem).filter((item) => droppable(item.type));
    onFiles(await Promise.all(files.map((item) => item.getFile())));
  };
  return (
    <DropZone
      className="media-drop"
      aria-label={t('composer.dropMedia')}
      getDropOperation={(types) => (types.has('image/*') || types.has('video/*') ? 'copy' : 'cancel')}
      onDrop={(event) => void drop(event.items)}
    >
      {children}
    </DropZone>
  );
}

function UploadRow({ upload, onDismiss }: { upload: Upload; onDismiss: () => void }) {
  const { phase, sentBytes, totalBytes } = upload.progress;
  const id = `upload-${upload.key}`;
  return (
    <li className="attachment upload-row">
      <div>
        <label htmlFor={id}>{t('media.progress', { phase, filename: upload.filename })}</label>
        {/* No value while the service processes the file: an indeterminate bar. */}
        <progress id={id} max={totalBytes} value={phase === 'processing' ? undefined : phase === 'ready' ? totalBytes : sentBytes} />
        {upload.error && (
          <>
            <ErrorBanner error={upload.error} />
            <Button variant="quiet" onPress={onDismiss}>
              {t('composer.dismissUpload', { file: upload.filename })}
            </Button>
          </>
        )}
      </div>
    </li>
  );
}

interface Props {
  attachments: readonly MediaItem[];
  onChange: (attachments: MediaItem[]) => void;
  /** Files dropped onto the composer, still uploading (or refused). */
  uploads: readonly Upload[];
  onDismissUpload: (key: number) => void;
  /** Files chosen with the button, uploaded as dropped ones are. */
  onFiles: (files: File[]) => void;
  /** The API's last refusal of the post: its details about `content.mediaIds[n]` are shown by the file. */
  error: ApiError | null;
}

/** The library in a dialog: search, pick one file after another, Done. */
function LibraryDialog({ selected, onPick }: { selected: readonly string[]; onPick: (file: MediaItem) => void }) {
  return (
    <ModalDialog className="media-dialog" label={t('media.pickerTitle')} trigger={<Button>{t('composer.fromLibrary')}</Button>}>
      {(close) => (
        <>
          <MediaPicker selected={selected} onPick={onPick} />
          <div className="dialog-actions">
            <Button variant="primary" onPress={close}>
              {t('composer.libraryDone')}
            </Button>
          </div>
        </>
      )}
    </ModalDialog>
  );
}

export function Attachments({ attachments, onChange, uploads, onDismissUpload, onFiles, error }: Props) {
  const replace = (file: MediaItem, changed: MediaItem | null) =>
    onChange(attachments.flatMap((other) => (other === file ? (changed ? [changed] : []) : [other])));
  return (
    <section className="attachments" aria-labelledby="attachments-title">
      <h2 id="attachments-title">{t('composer.media')}</h2>
      <p className="hint">{t('composer.dropHint')}</p>
      {detailFor(error, 'content.mediaIds') && <p className="field-error">{detailFor(error, 'content.mediaIds')}</p>}
      <ol aria-live="polite">
        {attachments.map((file, index) => (
          <li key={file.id} className="attachment">
            <Thumbnail media={file} />
            <div>
              <p>{file.filename}</p>
              {detailFor(error, `content.mediaIds[${index}]`) && <p className="field-error">{detailFor(error, `content.mediaIds[${index}]`)}</p>}
              <AltTextEditor media={file} onSaved={(altText) => replace(file, { ...file, altText })} />
              <Button variant="quiet" onPress={() => replace(file, null)}>
                {t('composer.removeMedia', { file: file.filename })}
              </Button>
            </div>
          </li>
        ))}
        {uploads.map((upload) => (
          <UploadRow key={upload.key} upload={upload} onDismiss={() => onDismissUpload(upload.key)} />
        ))}
      </ol>
      <div className="actions attachment-actions">
        <FileTrigger acceptedFileTypes={acceptedTypes} allowsMultiple onSelect={(files) => files && onFiles([...files])}>
          <Button>{t('composer.chooseFiles')}</Button>
        </FileTrigger>
        <LibraryDialog selected={attachments.map((file) => file.id)} onPick={(file) => onChange([...attachments, file])} />
      </div>
    </section>
  );
}
