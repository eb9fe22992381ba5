// The consent page of MCP clients signing in with OAuth (/apps/authorize?request=…, where /authorize sends the
// person's browser): which client asks and where the answer goes, the workspace, a preset or scopes, Allow or Deny.
// The decision answers where to send the browser back: the client's redirect URI with a code, or access_denied.
import { useMemo, useRef, useState } from 'react';
import { Provider, useMutation, useQuery } from 'urql';
import type { Session } from '../api/auth.ts';
import { apiErrorOf, graphClient } from '../api/client.ts';
import { t } from '../i18n.ts';
import { ErrorBanner, detailFor, useFormError } from '../ui.tsx';
import { Button } from '../ui/Button.tsx';

const RequestQuery = `query AppAuthorization($id: ID!) { appAuthorization(id: $id) { id clientName redirectHost requestedScopes } viewer { scopes } }`;
const Decide = `mutation DecideAppAuthorization($id: ID!, $allow: Boolean!, $preset: ScopePreset, $scopes: [Scope!]) {
  decideAppAuthorization(id: $id, allow: $allow, preset: $preset, scopes: $scopes) { redirectTo } }`;
const presets = ['PUBLISHING', 'READ_ONLY'] as const;
const scopeName = (scope: string) => scope.toLowerCase().replace('_', ':');

interface Request {
  id: string;
  clientName: string | null;
  redirectHost: string;
  requestedScopes: string[];
}

function Consent({ requestId }: { requestId: string }) {
  const [{ data, error: loadError }] = useQuery<{ appAuthorization: Request; viewer: { scopes: string[] } }>({
    query: RequestQuery,
    variables: { id: requestId },
  });
  const [, decide] = useMutation(Decide);
  const [grant, setGrant] = useState<string>('PUBLISHING');
  const { error, setError, changedInput } = useFormError();
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  if (loadError) return <ErrorBanner error={apiErrorOf(loadError)} />;
  const request = data?.appAuthorization;
  if (!request) return <p className="loading">{t('common.loading')}</p>;
  const answer = async (allow: boolean) => {
    const chosen = new FormData(form.current!);
    const variables = !allow ? {} : grant === 'scopes' ? { scopes: chosen.getAll('scopes').map(String) } : { preset: grant };
    setBusy(true);
    const result = await decide({ id: request.id, allow, ...variables });
    setBusy(false);
    if (result.error) return setError(apiErrorOf(result.error));
    window.location.assign((result.data as { decideAppAuthorization: { redirectTo: string } }).decideAppAuthorization.redirectTo);
  };
  return (
    <form ref={form} onChange={changedInput} onSubmit={(event) => event.preventDefault()}>
      <p>{t('apps.asks', { client: request.clientName ?? t('apps.unnamed'), host: request.redirectHost })}</p>
      <ErrorBanner error={error} labelOf={(field) => ({ scopes: t('keys.grant'), preset: t('keys.grant') })[field]} />
      <fieldset>
        <legend>{t('keys.grant')}</legend>
        {[...presets, 'scopes'].map((option) => (
          <label key={option}>
            <input type="radio" name="grant" value={option} checked={grant === option} onChange={() => setGrant(option)} />
            {t('keys.grantOption', { option })}
          </label>
        ))}
        {grant === 'scopes' && (
          <div className="scopes">
            {data.viewer.scopes.map((scope) => (
              <label key={scope}>
                <input type="checkbox" name="scopes" value={scope} defaultChecked={request.requestedScopes.includes(scope)} />
                {scopeName(scope)}
              </label>
            ))}
            {detailFor(error, 'scopes') && <p className="field-error">{detailFor(error, 'scopes')}</p>}
          </div>
        )}
      </fieldset>
      <div className="actions">
        <Button variant="primary" isDisabled={busy} onPress={() => answer(true)}>
          {t('apps.allow')}
        </Button>
        <Button variant="secondary" isDisabled={busy} onPress={() => answer(false)}>
          {t('apps.deny')}
        </Button>
      </div>
    </form>
  );
}

/** The page, for a signed-in person: the workspace chosen here is the one the app will act in. */
export function AuthorizeApp({ session }: { session: Session }) {
  const requestId = new URLSearchParams(window.location.search).get('request') ?? '';
  const [workspaceId, setWorkspaceId] = useState(session.workspaces[0]?.id ?? '');
  const client = useMemo(() => (workspaceId ? graphClient(workspaceId) : null), [workspaceId]);
  return (
    <main id="main" className="sign-in">
      <p className="brand sign-in-brand">{t('app.title')}</p>
      <h1>{t('apps.title')}</h1>
      <label className="switcher">
        {t('app.workspace')}
        <select value={workspaceId} onChange={(event) => setWorkspaceId(event.target.value)}>
          {session.workspaces.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.name}
            </option>
          ))}
        </select>
      </label>
      {client ? (
        <Provider value={client}>
          <Consent key={workspaceId} requestId={requestId} />
        </Provider>
      ) : (
        <p role="alert">{t('app.noWorkspace')}</p>
      )}
    </main>
  );
}
