// A media file's alt text: edit and save it (the API's rule shown next to the field), or ask the AI for a suggestion
// to review before saving. Not a <form>, so it can sit inside another one (the composer's).
import { useId, useState } from 'react';
import { useMutation } from 'urql';
import { apiErrorOf } from '../api/client.ts';
import { t } from '../i18n.ts';
import { detailFor, ErrorBanner, useFormError } from '../ui.tsx';
import { Button } from '../ui/Button.tsx';
import { AiNotSetUp } from '../ai/AiNotSetUp.tsx';
import { useAiStatus } from '../ai/status.ts';
import { SetAltText, SuggestAltText } from './documents.ts';
import type { MediaItem } from './types.ts';

export interface AltTextEditorProps {
  media: Pick<MediaItem, 'id' | 'filename' | 'altText'>;
  /** Called with the alt text as saved (null when cleared). */
  onSaved?: (altText: string | null) => void;
}

interface Suggestion {
  suggestAltText: { altText: string; creditsUsed: number; creditsRemaining: number };
}

export function AltTextEditor({ media, onSaved }: AltTextEditorProps) {
  const id = useId();
  const [text, setText] = useState(media.altText ?? '');
  const { error, setError, changed } = useFormError();
  const [notice, setNotice] = useState('');
  const [saving, setAltText] = useMutation<{ setAltText: { altText: string | null } }>(SetAltText);
  const [suggesting, suggestAltText] = useMutation<Suggestion>(SuggestAltText);
  const fieldError = detailFor(error, 'altText');
  const ai = useAiStatus().status;

  const save = async () => {
    setNotice('');
    const result = await setAltText({ id: media.id, altText: text });
    setError(result.error ? apiErrorOf(result.error) : null);
    if (!result.data) return;
    setText(result.data.setAltText.altText ?? '');
    setNotice(t('media.altTextSaved'));
    onSaved?.(result.data.setAltText.altText);
  };
  const suggest = async () => {
    setNotice('');
    const result = await suggestAltText({ mediaId: media.id });
    setError(result.error ? apiErrorOf(result.error) : null);
    if (!result.data) return;
    const { altText, creditsUsed, creditsRemaining } = result.data.suggestAltText;
    setText(altText);
    setNotice(t('media.suggested', { used: creditsUsed, remaining: creditsRemaining }));
  };

  return (
    <div className="alt-text">
      <label htmlFor={id}>{t('media.altTextFor', { filename: media.filename })}</label>
      <textarea
        id={id}
        rows={3}
        value={text}
        onChange={(event) => {
          changed('altText');
          setText(event.target.value);
        }}
        aria-invalid={fieldError ? true : undefined}
        aria-describedby={fieldError ? `${id}-error` : undefined}
      />
      {fieldError && (
        <p id={`${id}-error`} className="field-error">
          {fieldError}
        </p>
      )}
      <ErrorBanner error={error} />
      <div className="actions">
        <Button variant="primary" onPress={save} isDisabled={saving.fetching}>
          {t('media.saveAltText')}
        </Button>
        {ai?.available !== false && (
          <Button onPress={suggest} isDisabled={suggesting.fetching}>
            {suggesting.fetching ? t('media.suggesting') : t('media.suggestAltText')}
          </Button>
        )}
      </div>
      {ai?.available === false && <AiNotSetUp short />}
      <p role="status" className="muted">
        {notice}
      </p>
    </div>
  );
}
