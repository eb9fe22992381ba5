import { useState } from 'react';
import { ApiError, signIn } from '../api/auth.ts';
import { t } from '../i18n.ts';
import { detailFor, ErrorBanner, Field, useFormError } from '../ui.tsx';
import { Button } from '../ui/Button.tsx';

export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const { error, setError, changedInput } = useFormError();
  const [busy, setBusy] = useState(false);
  return (
    <main id="main" className="sign-in">
      <p className="brand sign-in-brand">{t('app.title')}</p>
      <h1>{t('signIn.title')}</h1>
      <form
        onChange={changedInput}
        onSubmit={async (event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          setBusy(true);
          try {
            await signIn(String(form.get('email')), String(form.get('password')));
            setError(null);
            onSignedIn();
          } catch (caught) {
            setError(caught instanceof ApiError ? caught : new ApiError('NETWORK', String(caught)));
          } finally {
            setBusy(false);
          }
        }}
      >
        <ErrorBanner error={error} labelOf={(field) => ({ email: t('signIn.email'), password: t('signIn.password') })[field]} />
        <Field label={t('signIn.email')} name="email" type="email" autoComplete="username" error={detailFor(error, 'email')} />
        <Field label={t('signIn.password')} name="password" type="password" autoComplete="current-password" error={detailFor(error, 'password')} />
        <Button type="submit" variant="primary" isDisabled={busy}>
          {t('signIn.submit')}
        </Button>
      </form>
    </main>
  );
}
