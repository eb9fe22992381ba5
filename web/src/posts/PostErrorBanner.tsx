// The API's refusal of a post action, in its localized words; a stale version (someone saved the post meanwhile) also
// offers to read the post again.
import type { ApiError } from '../api/auth.ts';
import { t } from '../i18n.ts';
import { ErrorBanner } from '../ui.tsx';
import { Button } from '../ui/Button.tsx';
import { isVersionConflict } from './actions.ts';

export function PostErrorBanner({
  error,
  onReload,
  labelOf,
}: {
  error: ApiError | null;
  onReload: () => void;
  /** The page's name for a field the API names. */
  labelOf?: (field: string) => string | undefined;
}) {
  if (!isVersionConflict(error)) return <ErrorBanner error={error} labelOf={labelOf} />;
  return (
    <div role="alert" className="error post-conflict">
      <p>{error!.message}</p>
      <Button variant="primary" onPress={onReload}>
        {t('postActions.reload')}
      </Button>
    </div>
  );
}
