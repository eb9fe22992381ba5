// API keys: create one with a preset or chosen scopes (the full key is shown this once), list and revoke; and the
// person's connected apps (MCP clients signed in with OAuth), with their last use, disconnected at once.
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { apiErrorOf } from '../api/client.ts';
import { t } from '../i18n.ts';
import { formatDateTime } from '../time.ts';
import { detailFor, ErrorBanner, Field, ShownOnce, useFormError } from '../ui.tsx';
import { Table, type Column } from '../table.tsx';
import { Button } from '../ui/Button.tsx';
import { ConfirmButton } from '../ui/ConfirmButton.tsx';
import { EmptyState } from '../ui/EmptyState.tsx';
import { StatusBadge } from '../ui/StatusBadge.tsx';

const KeysQuery = `query ApiKeys { apiKeys { id name prefix scopes createdAt expiresAt revokedAt } viewer { scopes } }`;
const CreateKey = `
  mutation CreateApiKey($name: String, $preset: ScopePreset, $scopes: [Scope!]) {
    createApiKey(name: $name, preset: $preset, scopes: $scopes) { apiKey key { id prefix } }
  }`;
const RevokeKey = `mutation RevokeApiKey($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }`;
const AppsQuery = `query ConnectedApps { connectedApps { id clientName redirectHost scopes createdAt lastUsedAt } }`;
const DisconnectApp = `mutation DisconnectApp($id: ID!) { disconnectApp(id: $id) { id } }`;

interface ConnectedApp {
  id: string;
  clientName: string | null;
  redirectHost: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

interface ApiKey {
  id: string;
  name: string | null;
  prefix: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}
const presets = ['PUBLISHING', 'READ_ONLY'] as const;
const scopeName = (scope: string) => scope.toLowerCase().replace('_', ':');

export function ApiKeys() {
  const [{ data }, reload] = useQuery<{ apiKeys: ApiKey[]; viewer: { scopes: string[] } }>({ query: KeysQuery, requestPolicy: 'cache-and-network' });
  const [, createKey] = useMutation(CreateKey);
  const [, revokeKey] = useMutation(RevokeKey);
  const [grant, setGrant] = useState<string>('PUBLISHING');
  const { error, setError, changedInput } = useFormError();
  const [created, setCreated] = useState<string | null>(null);

  const columns: Column<ApiKey>[] = [
    // The key's name, else its prefix, is the description of its Revoke button.
    { header: t('keys.name'), cell: (key) => key.name && <span id={`key-${key.id}`}>{key.name}</span> },
    { header: t('keys.prefix'), cell: (key) => <code id={key.name ? undefined : `key-${key.id}`}>{key.prefix}…</code> },
    { header: t('keys.scopes'), cell: (key) => key.scopes.map(scopeName).join(', ') },
    { header: t('keys.createdAt'), cell: (key) => formatDateTime(key.createdAt) },
    {
      header: t('post.status'),
      cell: (key) =>
        key.revokedAt ? (
          <StatusBadge tone="neutral">{t('keys.revokedAt', { date: formatDateTime(key.revokedAt) })}</StatusBadge>
        ) : (
          <ConfirmButton
            label={t('keys.revoke')}
            describedBy={`key-${key.id}`}
            title={t('keys.revokeTitle', { name: key.name ?? key.prefix })}
            message={t('keys.revokeMessage')}
            confirmLabel={t('keys.revokeConfirm')}
            onConfirm={async () => {
              const result = await revokeKey({ id: key.id });
              setError(result.error ? apiErrorOf(result.error) : null);
              reload({ requestPolicy: 'network-only' });
            }}
          />
        ),
    },
  ];

  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">{t('keys.title')}</h1>
      <form
        onChange={changedInput}
        onSubmit={async (event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const name = String(form.get('name') ?? '') || undefined;
          const variables = grant === 'scopes' ? { name, scopes: form.getAll('scopes').map(String) } : { name, preset: grant };
          const result = await createKey(variables);
          setError(result.error ? apiErrorOf(result.error) : null);
          setCreated(result.error ? null : (result.data as { createApiKey: { apiKey: string } }).createApiKey.apiKey);
          reload({ requestPolicy: 'network-only' });
        }}
      >
        <h2>{t('keys.create')}</h2>
        <ErrorBanner error={error} labelOf={(field) => ({ name: t('keys.name'), scopes: t('keys.grant'), preset: t('keys.grant') })[field]} />
        <Field label={t('keys.name')} name="name" error={detailFor(error, 'name')} />
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
              {data?.viewer.scopes.map((scope) => (
                <label key={scope}>
                  <input type="checkbox" name="scopes" value={scope} />
                  {scopeName(scope)}
                </label>
              ))}
              {detailFor(error, 'scopes') && <p className="field-error">{detailFor(error, 'scopes')}</p>}
            </div>
          )}
        </fieldset>
        <Button type="submit" variant="primary">
          {t('keys.createButton')}
        </Button>
      </form>
      {created && <ShownOnce notice={t('keys.shownOnce')} label={t('keys.newKey')} value={created} testId="new-key" onDone={() => setCreated(null)} />}
      <h2>{t('keys.list')}</h2>
      {data && data.apiKeys.length === 0 ? (
        <EmptyState title={t('keys.none')}>
          <p>{t('keys.noneHint')}</p>
        </EmptyState>
      ) : (
        <Table className="card-table" columns={columns} rows={data?.apiKeys ?? []} keyOf={(key) => key.id} />
      )}
      <ConnectedApps />
    </section>
  );
}

function ConnectedApps() {
  const [{ data }, reload] = useQuery<{ connectedApps: ConnectedApp[] }>({ query: AppsQuery, requestPolicy: 'cache-and-network' });
  const [, disconnect] = useMutation(DisconnectApp);
  const { error, setError } = useFormError();
  const nameOf = (app: ConnectedApp) => app.clientName ?? t('apps.unnamed');
  const columns: Column<ConnectedApp>[] = [
    { header: t('apps.client'), cell: (app) => <span id={`app-${app.id}`}>{nameOf(app)}</span> },
    { header: t('apps.returnsTo'), cell: (app) => app.redirectHost },
    { header: t('keys.scopes'), cell: (app) => app.scopes.map(scopeName).join(', ') },
    { header: t('apps.lastUsed'), cell: (app) => (app.lastUsedAt ? formatDateTime(app.lastUsedAt) : t('apps.never')) },
    {
      header: t('post.status'),
      cell: (app) => (
        <ConfirmButton
          label={t('apps.disconnect')}
          describedBy={`app-${app.id}`}
          title={t('apps.disconnectTitle', { name: nameOf(app) })}
          message={t('apps.disconnectMessage')}
          confirmLabel={t('apps.disconnectConfirm')}
          onConfirm={async () => {
            const result = await disconnect({ id: app.id });
            setError(result.error ? apiErrorOf(result.error) : null);
            reload({ requestPolicy: 'network-only' });
          }}
        />
      ),
    },
  ];
  return (
    <section aria-labelledby="apps-title">
      <h2 id="apps-title">{t('apps.connected')}</h2>
      <p>{t('apps.connectedHint')}</p>
      <ErrorBanner error={error} />
      {data && data.connectedApps.length === 0 ? (
        <EmptyState title={t('apps.none')} />
      ) : (
        <Table className="card-table" columns={columns} rows={data?.connectedApps ?? []} keyOf={(app) => app.id} />
      )}
    </section>
  );
}
