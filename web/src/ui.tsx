// Small building blocks shared by the pages: labelled fields with the API's details next to them, error banners,
// secrets shown once.
import { useCallback, useEffect, useId, useState, type AnchorHTMLAttributes, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { ApiError } from './api/auth.ts';
import { t } from './i18n.ts';
import { navigate } from './router.ts';
import { Button } from './ui/Button.tsx';

/** The API's detail for a field (its `field` names the input, e.g. `password` or `targets[0].placement`). */
export function detailFor(error: ApiError | null, field: string): string | undefined {
  return error?.details.find((detail) => detail.field === field)?.message;
}

export function Field({ label, error, ...input }: { label: string; error?: string | undefined } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} {...input} />
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The API's refusal. Without details, its localized message. With details, what to fix: each field by the form's
 * name for it (`labelOf`, else its message alone) and what is wrong, in place of the API's "n fields are wrong, see
 * details" (the messages also show at their fields).
 */
export function ErrorBanner({ error, labelOf }: { error: ApiError | null; labelOf?: (field: string) => string | undefined }) {
  if (!error) return null;
  if (!error.details.length) {
    return (
      <p role="alert" className="error">
        {error.message}
      </p>
    );
  }
  return (
    <div role="alert" className="error">
      <p>{t('errors.fix', { count: error.details.length })}</p>
      <ul className="error-fields">
        {error.details.map((detail) => {
          const label = labelOf?.(detail.field);
          return (
            <li key={`${detail.field} ${detail.code ?? ''}`}>{label ? t('errors.fieldMessage', { field: label, message: detail.message }) : detail.message}</li>
          );
        })}
      </ul>
    </div>
  );
}

/** The refusal once `field` (and what is under it: `targets` holds `targets[0].placement`) changed: its details on it gone, and the refusal with them when no detail is left. A refusal without details stays. */
function withoutField(error: ApiError | null, field: string): ApiError | null {
  if (!error?.details.length) return error;
  const left = error.details.filter((detail) => detail.field !== field && !detail.field.startsWith(`${field}.`) && !detail.field.startsWith(`${field}[`));
  if (left.length === error.details.length) return error;
  return left.length ? new ApiError(error.code, error.message, left) : null;
}

/**
 * A form's refusal (its own, or `given` by the page that sent it), and `changed(field)` for its inputs to call: a
 * field's messages go once the person changes it. `changedInput` does it for a whole form's inputs by their names
 * (the API's field names): `<form onChange={changedInput}>`.
 */
export function useFormError(given: ApiError | null = null) {
  const [error, setError] = useState<ApiError | null>(given);
  useEffect(() => setError(given), [given]);
  const changed = useCallback((field: string) => setError((current) => withoutField(current, field)), []);
  const changedInput = useCallback((event: FormEvent<HTMLFormElement>) => changed((event.target as HTMLInputElement).name), [changed]);
  return { error, setError, changed, changedInput };
}

export function Link({ href, children, ...rest }: { href: string; children: ReactNode } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  return (
    <a
      href={href}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate(href);
      }}
      {...rest}
    >
      {children}
    </a>
  );
}

/** A secret the API shows this once (a new key, a signing secret): the notice, the value to copy, and done. */
export function ShownOnce({ notice, label, value, testId, onDone }: { notice: string; label: string; value: string; testId: string; onDone: () => void }) {
  return (
    <div role="status" className="once">
      <p>{notice}</p>
      <label>
        {label}
        <input readOnly value={value} onFocus={(event) => event.target.select()} data-testid={testId} />
      </label>
      <Button variant="primary" onPress={onDone}>
        {t('keys.done')}
      </Button>
    </div>
  );
}
