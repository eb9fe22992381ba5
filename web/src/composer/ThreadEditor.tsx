// The parts of a thread under the caption (the caption is its first post): each part's own caption, removed or moved
// up and down by buttons named after the part, and "Add to thread" for one more at the end. A part's media are kept as
// saved; they are not edited here.
import type { ApiError } from '../api/auth.ts';
import { t } from '../i18n.ts';
import { detailFor } from '../ui.tsx';
import { Button } from '../ui/Button.tsx';
import { newThreadPart, type ThreadPartDraft } from './model.ts';

/** `parts` with the part at `from` moved to `to`. */
function moved(parts: readonly ThreadPartDraft[], from: number, to: number): ThreadPartDraft[] {
  const result = [...parts];
  const [part] = result.splice(from, 1);
  result.splice(to, 0, part!);
  return result;
}

export function ThreadEditor({
  parts,
  onChange,
  error,
}: {
  parts: readonly ThreadPartDraft[];
  onChange: (parts: ThreadPartDraft[]) => void;
  error: ApiError | null;
}) {
  return (
    <section className="thread-editor" aria-labelledby="thread-title">
      <h2 id="thread-title" className={parts.length ? undefined : 'visually-hidden'}>
        {t('composer.thread')}
      </h2>
      {parts.length > 0 && (
        <ol className="thread-parts">
          {parts.map((part, index) => {
            // The caption is part 1: the parts after it are numbered from 2, as the person reads the thread.
            const number = index + 2;
            const id = `thread-part-${part.key}`;
            const problem = detailFor(error, `content.thread[${index}].caption`);
            return (
              <li key={part.key} className="field thread-part">
                <div className="thread-part-head">
                  <label htmlFor={id}>{t('composer.threadPart', { number })}</label>
                  <Button
                    variant="quiet"
                    aria-label={t('composer.movePartUp', { number })}
                    isDisabled={index === 0}
                    onPress={() => onChange(moved(parts, index, index - 1))}
                  >
                    ↑
                  </Button>
                  <Button
                    variant="quiet"
                    aria-label={t('composer.movePartDown', { number })}
                    isDisabled={index === parts.length - 1}
                    onPress={() => onChange(moved(parts, index, index + 1))}
                  >
                    ↓
                  </Button>
                  <Button variant="quiet" aria-label={t('composer.removePart', { number })} onPress={() => onChange(parts.filter((other) => other !== part))}>
                    ✕
                  </Button>
                </div>
                <textarea
                  id={id}
                  rows={3}
                  value={part.caption}
                  onChange={(event) => onChange(parts.map((other) => (other === part ? { ...part, caption: event.target.value } : other)))}
                />
                {problem && <p className="field-error">{problem}</p>}
              </li>
            );
          })}
        </ol>
      )}
      <Button onPress={() => onChange([...parts, newThreadPart()])}>{t('composer.addToThread')}</Button>
    </section>
  );
}
