// Everything the post's state allows, on its page: edit in the composer, publish now (the primary action; on a scheduled
// post a secondary one, asked again with the accounts it goes to), schedule or reschedule, add to a queue, duplicate
// (a new draft, opened in the composer), delete (asked again in a dialog).
import { useState } from 'react';
import { useClient } from 'urql';
import type { ApiError } from '../api/auth.ts';
import { t } from '../i18n.ts';
import { editPostPath, navigate } from '../router.ts';
import { timeZone as browserTimeZone } from '../time.ts';
import { Link } from '../ui.tsx';
import { Button } from '../ui/Button.tsx';
import { ConfirmButton } from '../ui/ConfirmButton.tsx';
import { PublishActions } from '../composer/PublishActions.tsx';
import { asApiError, carryOut, deletePost, duplicatePost, submissionsAllowed, type PostState, type Submission } from './actions.ts';
import { PostErrorBanner } from './PostErrorBanner.tsx';

/** `accounts`: whom the post goes to, as the page names them (asked about before a scheduled post is published now). */
export function PostToolbar({ post, accounts, onChanged }: { post: PostState; accounts: readonly string[]; onChanged: () => void }) {
  const scheduled = post.status === 'SCHEDULED';
  const client = useClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);

  async function act(action: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(asApiError(caught));
    } finally {
      setBusy(false);
    }
  }

  const submit = (submission: Submission) => act(() => carryOut(client, post.id, submission).then(onChanged));
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of actions, not of form controls (fieldset is for forms)
    <div className="post-toolbar" aria-label={t('postActions.toolbar')} role="group">
      <PostErrorBanner error={error} onReload={onChanged} />
      <PublishActions
        busy={busy}
        error={error}
        onSubmit={submit}
        offered={submissionsAllowed(post.actions).filter((action) => action !== 'save')}
        primary={scheduled ? null : 'publish'}
        publishTo={scheduled ? accounts : undefined}
        saveLabel={t('postActions.save')}
        timeZone={post.timezone ?? browserTimeZone}
        scheduledAt={post.scheduledAt}
      />
      <div className="actions">
        {post.actions.includes('UPDATE') && (
          <Link href={editPostPath(post.id)} className="button button-secondary">
            {t('postActions.edit')}
          </Link>
        )}
        <Button isDisabled={busy} onPress={() => act(async () => navigate(editPostPath((await duplicatePost(client, post.id)).id)))}>
          {t('postActions.duplicate')}
        </Button>
        {post.actions.includes('DELETE') && (
          <ConfirmButton
            label={t('postActions.delete')}
            title={t('postActions.deleteTitle')}
            message={t('postActions.deleteMessage')}
            confirmLabel={t('postActions.deleteConfirm')}
            isDisabled={busy}
            onConfirm={() =>
              act(async () => {
                await deletePost(client, post.id);
                navigate('/calendar');
              })
            }
          />
        )}
      </div>
    </div>
  );
}
