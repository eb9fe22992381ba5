// Small building blocks shared by the pages: labelled fields with the API's details next to them, error banners,
// secrets shown once.
import { useId, type AnchorHTMLAttributes, type InputHTMLAttributes, type ReactNode } from 'react';
import type { ApiError } from './api/auth.ts';
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

/** The API's localized message; its details are shown by the fields they name. */
export function ErrorBanner({ error }: { error: ApiError | null }) {
  if (!error) return null;
  return (
    <p role="alert" className="error">
      {error.message}
    </p>
  );
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
