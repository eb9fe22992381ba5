// AI for the caption, through the graph's suggestCaptions: rewrites (with an optional tone), a translation into a
// chosen language, hashtags. Suggestions are offered, never applied unasked; the credits each call used and those
// left are shown, and the API's refusal (AI not configured, no credits left, ...) as it gives it.
import { useState } from 'react';
import { useMutation } from 'urql';
import type { Provider } from '../../../schema/generated/graphql.ts';
import type { ApiError } from '../api/auth.ts';
import { apiErrorOf } from '../api/client.ts';
import { language, t } from '../i18n.ts';
import { detailFor, ErrorBanner, Field } from '../ui.tsx';
import { AiNotSetUp } from '../ai/AiNotSetUp.tsx';
import { useAiStatus } from '../ai/status.ts';

const SuggestCaptions = `
  mutation SuggestCaptions($action: AiCaptionAction!, $caption: String!, $targetLanguage: String, $tone: String, $provider: Provider) {
    suggestCaptions(action: $action, caption: $caption, targetLanguage: $targetLanguage, tone: $tone, provider: $provider) { suggestions creditsUsed creditsRemaining }
  }`;

type Action = 'REWRITE' | 'TRANSLATE' | 'HASHTAGS';
interface Suggestions {
  action: Action;
  suggestions: string[];
  creditsUsed: number;
  creditsRemaining: number;
}

/** Languages offered for translation, named in the person's language. */
const languages = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'sv', 'da', 'fi', 'cs', 'tr', 'uk', 'ja', 'ko', 'zh', 'ar', 'hi'];
const languageNames = new Intl.DisplayNames([language], { type: 'language' });

interface Props {
  caption: string;
  /** The network the suggestions should fit (the first chosen target's), as the graph's Provider value. */
  provider: Provider | undefined;
  onUseCaption: (caption: string) => void;
}

export function AiTools({ caption, provider, onUseCaption }: Props) {
  const { status, reload: reloadStatus } = useAiStatus();
  const [, suggest] = useMutation(SuggestCaptions);
  const [tone, setTone] = useState('');
  const [targetLanguage, setTargetLanguage] = useState(language === 'en' ? 'de' : 'en');
  const [result, setResult] = useState<Suggestions | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);

  async function ask(action: Action) {
    setBusy(true);
    setResult(null);
    const answer = await suggest({
      action,
      caption,
      provider,
      ...(action === 'REWRITE' && tone ? { tone } : {}),
      ...(action === 'TRANSLATE' ? { targetLanguage } : {}),
    });
    setBusy(false);
    setError(answer.error ? apiErrorOf(answer.error) : null);
    setResult(answer.data ? { action, ...(answer.data as { suggestCaptions: Omit<Suggestions, 'action'> }).suggestCaptions } : null);
    reloadStatus();
  }

  if (status && !status.available) {
    return (
      <section className="ai-tools" aria-labelledby="ai-tools-title">
        <h2 id="ai-tools-title">{t('composer.ai')}</h2>
        <AiNotSetUp />
      </section>
    );
  }
  const credits = status?.credits;
  return (
    <section className="ai-tools" aria-labelledby="ai-tools-title">
      <h2 id="ai-tools-title">{t('composer.ai')}</h2>
      {credits && <p className="muted">{t('composer.aiCredits', { remaining: credits.remaining, monthly: credits.monthly })}</p>}
      <ErrorBanner error={error} />
      {detailFor(error, 'caption') && <p className="field-error">{detailFor(error, 'caption')}</p>}
      <div className="actions">
        <Field label={t('composer.aiTone')} value={tone} onChange={(event) => setTone(event.target.value)} error={detailFor(error, 'tone')} />
        <button type="button" disabled={busy} onClick={() => ask('REWRITE')}>
          {t('composer.aiRewrite')}
        </button>
      </div>
      <div className="actions">
        <div className="field">
          <label htmlFor="ai-language">{t('composer.aiLanguage')}</label>
          <select id="ai-language" value={targetLanguage} onChange={(event) => setTargetLanguage(event.target.value)}>
            {languages.map((code) => (
              <option key={code} value={code}>
                {languageNames.of(code) ?? code}
              </option>
            ))}
          </select>
          {detailFor(error, 'targetLanguage') && <p className="field-error">{detailFor(error, 'targetLanguage')}</p>}
        </div>
        <button type="button" disabled={busy} onClick={() => ask('TRANSLATE')}>
          {t('composer.aiTranslate')}
        </button>
        <button type="button" disabled={busy} onClick={() => ask('HASHTAGS')}>
          {t('composer.aiHashtags')}
        </button>
      </div>
      {result && (
        <div aria-live="polite">
          <p className="muted">{t('composer.aiUsed', { used: result.creditsUsed, remaining: result.creditsRemaining })}</p>
          <ul className="suggestions">
            {result.suggestions.map((suggestion, index) => (
              <li key={suggestion}>
                <span className="caption">{suggestion}</span>
                {result.action === 'HASHTAGS' ? (
                  <button type="button" onClick={() => onUseCaption(`${caption.trimEnd()} ${suggestion}`)}>
                    {t('composer.aiAddHashtag', { tag: suggestion })}
                  </button>
                ) : (
                  <button type="button" onClick={() => onUseCaption(suggestion)}>
                    {t('composer.aiUse', { number: index + 1 })}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
