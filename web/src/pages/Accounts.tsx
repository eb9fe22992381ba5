// Connected accounts, each with its picture, network and status: reconnect one the network no longer accepts,
// disconnect one (after a confirmation). Connect one of the networks set up here, grouped by how: an OAuth network
// (the person is sent to the network and comes back through /oauth/callback to this page, which says how it went,
// as the service tells it: the address names the outcome, never its text), a credential network (Bluesky's app
// password, Telegram's bot) by a form made from the fields GET /providers names for it, the sandbox.
// Networks the operator has not set up are listed too, with what to set (owners and admins) and their docs page.
import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { ApiError } from '../api/auth.ts';
import { apiErrorOf } from '../api/client.ts';
import { known, t } from '../i18n.ts';
import { formatDateTime } from '../time.ts';
import { Table, type Column } from '../table.tsx';
import { detailFor, ErrorBanner, Field } from '../ui.tsx';
import { Avatar } from '../ui/Avatar.tsx';
import { Button } from '../ui/Button.tsx';
import { ConfirmButton } from '../ui/ConfirmButton.tsx';
import { EmptyState } from '../ui/EmptyState.tsx';
import { NetworkIcon } from '../ui/NetworkIcon.tsx';
import { StatusBadge, type Tone } from '../ui/StatusBadge.tsx';
import { webAddress } from '../webAddress.ts';
import type { Provider } from '../../../schema/generated/graphql.ts';

const AccountsQuery = `
  query Accounts {
    socialAccounts(first: 100) { edges { node { id provider displayName username avatarUrl status needsReconnect connectionMethod connectedAt } } }
    providers { provider displayName configured connection { method fields { name label secret format help } } connectionMethods requiredSettings }
    viewer { role }
  }`;
const OutcomeQuery = `query ConnectionOutcome($id: ID!) { connectionOutcome(id: $id) { connectionIds message } }`;
const AddAccount = `
  mutation AddAccount($provider: Provider!, $username: String, $credentials: JSON) {
    addSocialAccount(provider: $provider, username: $username, credentials: $credentials) { id }
  }`;
// Without a redirectUri the network's callback brings the person back to this page at the service's public address.
const StartConnection = `
  mutation StartConnection($provider: Provider!, $instanceUrl: String, $method: String) {
    startAccountConnection(provider: $provider, instanceUrl: $instanceUrl, method: $method) { authorizationUrl }
  }`;
const Disconnect = `mutation Disconnect($id: ID!) { disconnectSocialAccount(id: $id) { id status } }`;

interface Account {
  id: string;
  provider: Provider;
  displayName: string;
  username: string;
  avatarUrl: string | null;
  status: string;
  needsReconnect: boolean;
  /** Instagram's way of connecting it (facebook_login, instagram_login): reconnecting takes the same. */
  connectionMethod: string | null;
  connectedAt: string;
}
/** One thing a person types to connect a credential network's account (GET /providers `connection.fields`). */
interface CredentialField {
  name: string;
  label: string;
  secret: boolean;
  format: string;
  help: string;
}
interface ProviderInfo {
  provider: Provider;
  displayName: string;
  configured: boolean;
  connection: { method: string; fields: CredentialField[] } | null;
  /** Where a network is connected in several ways set up here (Instagram's Facebook Login and Instagram Login). */
  connectionMethods: string[];
  requiredSettings: string[];
}

/** A field's name in the dashboard's language where its catalog has one (`accounts.<field>`), else as the network names it. */
const labelOf = (field: CredentialField) => {
  const key = `accounts.${field.name}`;
  return known(key) ? t(key) : field.label;
};

const statusTones: Record<string, Tone> = { ACTIVE: 'success', NEEDS_RECONNECT: 'warning', REVOKED: 'neutral' };

/** OAuth networks where the person names their own server (Mastodon's instance), sent as `instanceUrl`. */
const ownServerNetworks = new Set<Provider>(['MASTODON']);

/** The outcome the callback named as it sent the person back here (`outcome`); what it was, the service says. */
const callbackOutcomeId = () => new URLSearchParams(window.location.search).get('outcome');

/** How the connection the person just made ended: the accounts it connected, or why none (localized by the service). */
function ConnectionOutcome({ id }: { id: string }) {
  const [{ data }] = useQuery<{ connectionOutcome: { connectionIds: string[]; message: string | null } | null }>({
    query: OutcomeQuery,
    variables: { id },
  });
  const outcome = data?.connectionOutcome;
  if (!outcome) return null;
  if (outcome.message) {
    return (
      <p role="alert" className="error">
        {outcome.message}
      </p>
    );
  }
  return <p role="status">{t('accounts.connected', { count: outcome.connectionIds.length })}</p>;
}

/** The docs page of a network (docs/networks/<network>.md), which the service serves itself. */
const setupGuide = (provider: Provider) => `/docs/networks/${provider.toLowerCase()}.md`;

/** Networks the operator has not set up: what to set (owners and admins), else whom to ask; each one's docs page. */
function Unconfigured({ providers, manager }: { providers: ProviderInfo[]; manager: boolean }) {
  if (!providers.length) return null;
  return (
    <section className="card" aria-labelledby="connect-unconfigured">
      <h3 id="connect-unconfigured">{t('accounts.unconfiguredGroup')}</h3>
      <ul className="unconfigured">
        {providers.map((provider) => (
          <li key={provider.provider}>
            <span className="with-icon">
              <NetworkIcon provider={provider.provider} title="" />
              <strong>{provider.displayName}</strong>
            </span>{' '}
            {!manager
              ? t('accounts.unconfiguredAsk')
              : provider.requiredSettings.length
                ? t('accounts.unconfiguredSettings', { settings: provider.requiredSettings.join(', ') })
                : t('accounts.unconfiguredNotOffered')}{' '}
            <a href={setupGuide(provider.provider)}>{t('accounts.setupGuide', { network: provider.displayName })}</a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The API's details that name no field of the form they came from (an OAuth button has none). */
function Details({ error }: { error: ApiError | null }) {
  if (!error?.details.length) return null;
  return (
    <ul className="field-error">
      {error.details.map((detail) => (
        <li key={detail.field}>{detail.message}</li>
      ))}
    </ul>
  );
}

export function Accounts() {
  const [{ data }, reload] = useQuery<{ socialAccounts: { edges: { node: Account }[] }; providers: ProviderInfo[]; viewer: { role: string } }>({
    query: AccountsQuery,
    requestPolicy: 'cache-and-network',
  });
  const [, addAccount] = useMutation(AddAccount);
  const [, startConnection] = useMutation(StartConnection);
  const [, disconnect] = useMutation(Disconnect);
  const [outcomeId] = useState(callbackOutcomeId);
  // Read once: a reload does not say it again.
  useEffect(() => {
    if (outcomeId) window.history.replaceState(window.history.state, '', window.location.pathname);
  }, [outcomeId]);
  // Where an error shows: a network's form (or its button), or the list.
  const [error, setError] = useState<{ form: Provider | 'list'; error: ApiError } | null>(null);
  // Only networks set up here are offered (the operator's app at the network); the others say what they need.
  const providers = data?.providers.filter((provider) => provider.configured) ?? [];
  const unconfigured = data?.providers.filter((provider) => !provider.configured) ?? [];
  const manager = data?.viewer.role === 'OWNER' || data?.viewer.role === 'ADMIN';
  const networkOf = (account: Account) => data?.providers.find((candidate) => candidate.provider === account.provider)?.displayName ?? account.provider;
  const errorOf = (form: Provider | 'list') => (error?.form === form ? error.error : null);

  async function connect(form: Provider, variables: Record<string, unknown>) {
    const result = await addAccount(variables);
    setError(result.error ? { form, error: apiErrorOf(result.error) } : null);
    if (!result.error) reload({ requestPolicy: 'network-only' });
    return !result.error;
  }

  async function startOAuth(provider: Provider, options: { instanceUrl?: string; method?: string } = {}) {
    const result = await startConnection({
      provider,
      ...(options.instanceUrl ? { instanceUrl: options.instanceUrl } : {}),
      ...(options.method ? { method: options.method } : {}),
    });
    if (result.error) return setError({ form: provider, error: apiErrorOf(result.error) });
    const authorizationPage = webAddress((result.data as { startAccountConnection: { authorizationUrl: string } }).startAccountConnection.authorizationUrl);
    if (!authorizationPage) return setError({ form: provider, error: new ApiError('NOT_A_WEB_ADDRESS', t('accounts.notWebAddress')) });
    window.location.assign(authorizationPage);
  }

  /** The form's non-empty fields, as the mutation's variables (`wrap`: under one name, as `credentials`). */
  const submit = (provider: Provider, fields: string[], wrap?: 'credentials') => async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    const values = new FormData(element);
    const given = Object.fromEntries(fields.filter((field) => values.get(field)).map((field) => [field, String(values.get(field))]));
    if (await connect(provider, { provider, ...(wrap ? { [wrap]: given } : given) })) element.reset();
  };

  const accounts = data?.socialAccounts.edges.map(({ node }) => node) ?? [];
  const canReconnect = (account: Account) =>
    account.needsReconnect && providers.some((provider) => provider.provider === account.provider && provider.connection?.method === 'oauth2');
  const oauthNetworks = providers.filter((provider) => provider.connection?.method === 'oauth2');
  const columns: Column<Account>[] = [
    {
      header: t('accounts.picture'),
      hidden: true,
      cell: (account) => <Avatar src={account.avatarUrl} name={account.displayName} provider={account.provider} />,
    },
    { header: t('post.account'), cell: (account) => `${account.displayName} (@${account.username})` },
    {
      header: t('accounts.network'),
      cell: (account) => (
        <span className="with-icon">
          <NetworkIcon provider={account.provider} title="" />
          {networkOf(account)}
        </span>
      ),
    },
    {
      header: t('post.status'),
      cell: (account) => <StatusBadge tone={statusTones[account.status] ?? 'neutral'}>{t('status.account', { status: account.status })}</StatusBadge>,
    },
    { header: t('accounts.connectedAt'), cell: (account) => formatDateTime(account.connectedAt) },
    {
      header: t('common.actions'),
      hidden: true,
      cell: (account) => (
        <div className="row-actions">
          {canReconnect(account) && (
            <Button variant="primary" onPress={() => startOAuth(account.provider, { method: account.connectionMethod ?? undefined })}>
              {t('accounts.reconnect', { account: account.displayName })}
            </Button>
          )}
          {account.status !== 'REVOKED' && (
            <ConfirmButton
              label={t('accounts.disconnect', { account: account.displayName })}
              title={t('accounts.disconnectTitle', { account: account.displayName })}
              message={t('accounts.disconnectMessage')}
              confirmLabel={t('accounts.disconnectConfirm')}
              onConfirm={async () => {
                const result = await disconnect({ id: account.id });
                setError(result.error ? { form: 'list', error: apiErrorOf(result.error) } : null);
                reload({ requestPolicy: 'network-only' });
              }}
            />
          )}
        </div>
      ),
    },
  ];

  return (
    <section aria-labelledby="accounts-title">
      <h1 id="accounts-title">{t('accounts.title')}</h1>
      {outcomeId && <ConnectionOutcome id={outcomeId} />}
      {data && accounts.length === 0 ? (
        <EmptyState title={t('accounts.none')}>
          <p>{t('accounts.noneHint')}</p>
        </EmptyState>
      ) : (
        <Table className="accounts-table" columns={columns} rows={accounts} keyOf={(account) => account.id} />
      )}
      <ErrorBanner error={errorOf('list')} />

      <h2>{t('accounts.connect')}</h2>
      <div className="connect-groups">
        {oauthNetworks.length > 0 && (
          <section className="card" aria-labelledby="connect-oauth">
            <h3 id="connect-oauth">{t('accounts.oauthGroup')}</h3>
            <p className="muted">{t('accounts.oauthHint')}</p>
            <ul className="oauth">
              {oauthNetworks
                .filter((provider) => !ownServerNetworks.has(provider.provider))
                .map((provider) => (
                  <li key={provider.provider}>
                    {provider.connectionMethods.length > 1 ? (
                      // Each way of connecting set up here, the default first (Instagram: with or without a Facebook Page).
                      provider.connectionMethods.map((method) => (
                        <Button key={method} onPress={() => startOAuth(provider.provider, { method })}>
                          <NetworkIcon provider={provider.provider} title="" />
                          {t('accounts.connectMethod', { network: provider.displayName, method })}
                        </Button>
                      ))
                    ) : (
                      <Button onPress={() => startOAuth(provider.provider)}>
                        <NetworkIcon provider={provider.provider} title="" />
                        {t('accounts.connectOAuth', { network: provider.displayName })}
                      </Button>
                    )}
                    <ErrorBanner error={errorOf(provider.provider)} />
                    <Details error={errorOf(provider.provider)} />
                  </li>
                ))}
            </ul>
            {oauthNetworks
              .filter((provider) => ownServerNetworks.has(provider.provider))
              .map((provider) => (
                <form
                  key={provider.provider}
                  aria-labelledby={`connect-${provider.provider}`}
                  onSubmit={(event) => {
                    event.preventDefault();
                    startOAuth(provider.provider, { instanceUrl: String(new FormData(event.currentTarget).get('instanceUrl') ?? '') });
                  }}
                >
                  <h4 id={`connect-${provider.provider}`} className="with-icon">
                    <NetworkIcon provider={provider.provider} title="" />
                    {provider.displayName}
                  </h4>
                  <ErrorBanner error={errorOf(provider.provider)} />
                  <Field
                    label={t('accounts.instanceUrl')}
                    name="instanceUrl"
                    type="url"
                    placeholder="https://mastodon.social"
                    error={detailFor(errorOf(provider.provider), 'instanceUrl')}
                  />
                  <Button type="submit">{t('accounts.connectOAuth', { network: provider.displayName })}</Button>
                </form>
              ))}
          </section>
        )}
        {providers
          .filter((provider) => provider.connection?.method === 'credentials')
          .map(({ provider, displayName, connection }) => {
            const fields = connection!.fields;
            const hint = `accounts.${provider.toLowerCase()}Hint`;
            const fieldLabel = (path: string) => {
              const field = fields.find((candidate) => `credentials.${candidate.name}` === path);
              return field && labelOf(field);
            };
            return (
              <form
                key={provider}
                className="card"
                onSubmit={submit(
                  provider,
                  fields.map((field) => field.name),
                  'credentials',
                )}
                aria-labelledby={`connect-${provider}`}
              >
                <h3 id={`connect-${provider}`} className="with-icon">
                  <NetworkIcon provider={provider} title="" />
                  {displayName}
                </h3>
                <p className="muted">{known(hint) ? t(hint) : fields.map((field) => field.help).join(' ')}</p>
                <ErrorBanner error={errorOf(provider)} labelOf={fieldLabel} />
                {fields.map((field) => (
                  <Field
                    key={field.name}
                    label={labelOf(field)}
                    name={field.name}
                    type={field.secret ? 'password' : field.format === 'url' ? 'url' : 'text'}
                    autoComplete={field.secret ? 'off' : undefined}
                    error={detailFor(errorOf(provider), `credentials.${field.name}`)}
                  />
                ))}
                <Button type="submit">{t('accounts.connectCredentials', { network: displayName })}</Button>
              </form>
            );
          })}
        {providers.some((provider) => provider.provider === 'SANDBOX') && (
          <form className="card" onSubmit={submit('SANDBOX', ['username'])} aria-labelledby="connect-sandbox">
            <h3 id="connect-sandbox" className="with-icon">
              <NetworkIcon provider="SANDBOX" title="" />
              {t('accounts.sandbox')}
            </h3>
            <ErrorBanner error={errorOf('SANDBOX')} />
            <Field label={t('accounts.username')} name="username" error={detailFor(errorOf('SANDBOX'), 'username')} />
            <Button type="submit">{t('accounts.connectSandbox')}</Button>
          </form>
        )}
        <Unconfigured providers={unconfigured} manager={manager} />
      </div>
    </section>
  );
}
