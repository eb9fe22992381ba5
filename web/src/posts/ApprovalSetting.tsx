// The workspace's "review before publishing" (approvalRequired): a switch for owners and admins, on the People page
// where the team's roles are set. The API refuses anyone else, and the refusal shows here.
import { useId, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import type { ApiError } from '../api/auth.ts';
import { apiErrorOf } from '../api/client.ts';
import { t } from '../i18n.ts';
import { ErrorBanner } from '../ui.tsx';

const WorkspaceQuery = `query WorkspaceSettings { workspace { id approvalRequired } }`;
const UpdateWorkspace = `mutation UpdateWorkspace($approvalRequired: Boolean) { updateWorkspace(approvalRequired: $approvalRequired) { id approvalRequired } }`;

export function ApprovalSetting() {
  const [{ data }] = useQuery<{ workspace: { id: string; approvalRequired: boolean } }>({ query: WorkspaceQuery });
  const [{ fetching }, update] = useMutation(UpdateWorkspace);
  const [error, setError] = useState<ApiError | null>(null);
  /** The setting as last changed here (the query's answer is not read again). */
  const [changed, setChanged] = useState<boolean | null>(null);
  const id = useId();
  if (!data) return null;
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('settings.approvalRequired')}</h2>
      <ErrorBanner error={error} />
      <div className="field">
        <label htmlFor={id}>
          <input
            id={id}
            type="checkbox"
            checked={changed ?? data.workspace.approvalRequired}
            disabled={fetching}
            aria-describedby={`${id}-hint`}
            onChange={async (event) => {
              // Shown at once, as a switch moves; the answer then stands (a refusal puts it back and says why).
              const before = changed ?? data.workspace.approvalRequired;
              setChanged(event.target.checked);
              const result = await update({ approvalRequired: event.target.checked });
              setError(result.error ? apiErrorOf(result.error) : null);
              setChanged(result.data ? result.data.updateWorkspace.approvalRequired : before);
            }}
          />{' '}
          {t('settings.approvalRequired')}
        </label>
        <p id={`${id}-hint`} className="muted">
          {t('settings.approvalRequiredHint')}
        </p>
      </div>
    </section>
  );
}
