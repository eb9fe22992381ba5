// Webhooks: add an endpoint (its signing secret is shown once, as after a rotation), send a test event, see
// each delivery with every attempt, replay a delivery, delete the endpoint.
import { useState } from 'react';
import { useMutation, useQuery, type OperationResult } from 'urql';
import type { ApiError } from '../api/auth.ts';
import { apiErrorOf } from '../api/client.ts';
import { t } from '../i18n.ts';
import { formatDateTime } from '../time.ts';
import { detailFor, ErrorBanner, Field, ShownOnce } from '../ui.tsx';
import { Button } from '../ui/Button.tsx';
import { ConfirmButton } from '../ui/ConfirmButton.tsx';
import { EmptyState } from '../ui/EmptyState.tsx';
import { StatusBadge, type Tone } from '../ui/StatusBadge.tsx';

const WebhooksQuery = `query Webhooks { webhooks(first: 100) { edges { node { id url description enabled events createdAt } } } }`;
const DeliveriesQuery = `
  query Deliveries($endpointId: ID!) {
    webhookDeliveries(endpointId: $endpointId, first: 50) {
      edges { node { id eventType status attempts attemptLog { number attemptedAt statusCode durationMs error } } }
    }
  }`;
const CreateWebhook = `mutation CreateWebhook($url: String!, $description: String) { createWebhook(url: $url, description: $description) { id secret } }`;
const RotateSecret = `mutation RotateWebhookSecret($id: ID!) { rotateWebhookSecret(id: $id) { id secret } }`;
const TestWebhook = `mutation TestWebhook($id: ID!) { testWebhook(id: $id) }`;
const DeleteWebhook = `mutation DeleteWebhook($id: ID!) { deleteWebhook(id: $id) }`;
const Replay = `mutation ReplayDelivery($endpointId: ID!, $deliveryId: ID!) { replayWebhookDelivery(endpointId: $endpointId, deliveryId: $deliveryId) { id } }`;

interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  enabled: boolean;
  events: string[];
  createdAt: string;
}
interface Attempt {
  number: number;
  attemptedAt: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}
interface Delivery {
  id: string;
  eventType: string;
  status: string;
  attempts: number;
  attemptLog: Attempt[];
}

const eventName = (kind: string) => kind.toLowerCase().replace('_', '.');
const deliveryTones: Record<string, Tone> = { SUCCEEDED: 'success', FAILED: 'danger', PENDING: 'info' };

function Deliveries({ endpoint }: { endpoint: Endpoint }) {
  const [{ data }, reload] = useQuery<{ webhookDeliveries: { edges: { node: Delivery }[] } }>({
    query: DeliveriesQuery,
    variables: { endpointId: endpoint.id },
    requestPolicy: 'network-only',
  });
  const [, replay] = useMutation(Replay);
  const [error, setError] = useState<ApiError | null>(null);
  const deliveries = data?.webhookDeliveries.edges.map((edge) => edge.node) ?? [];
  return (
    <div className="deliveries">
      <div className="actions">
        <h3>{t('webhooks.deliveriesOf', { url: endpoint.url })}</h3>
        <Button onPress={() => reload({ requestPolicy: 'network-only' })}>{t('webhooks.refresh')}</Button>
      </div>
      <ErrorBanner error={error} />
      {data && !deliveries.length && <p>{t('webhooks.noDeliveries')}</p>}
      <ul>
        {deliveries.map((delivery) => (
          <li key={delivery.id} data-delivery-id={delivery.id}>
            <div className="delivery-head">
              <strong>{eventName(delivery.eventType)}</strong>
              <StatusBadge tone={deliveryTones[delivery.status] ?? 'neutral'}>{t('webhooks.deliveryStatus', { status: delivery.status })}</StatusBadge>
              <span className="muted">{t('webhooks.attempts', { count: delivery.attempts })}</span>
              <Button
                variant="quiet"
                onPress={async () => {
                  const result = await replay({ endpointId: endpoint.id, deliveryId: delivery.id });
                  setError(result.error ? apiErrorOf(result.error) : null);
                  reload({ requestPolicy: 'network-only' });
                }}
              >
                {t('webhooks.replay', { event: eventName(delivery.eventType) })}
              </Button>
            </div>
            <ol>
              {delivery.attemptLog.map((attempt) => (
                <li key={attempt.number}>
                  {formatDateTime(attempt.attemptedAt)}: {attempt.statusCode ?? attempt.error} ({attempt.durationMs} ms)
                </li>
              ))}
            </ol>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function Webhooks() {
  const [{ data }, reload] = useQuery<{ webhooks: { edges: { node: Endpoint }[] } }>({ query: WebhooksQuery, requestPolicy: 'cache-and-network' });
  const [, createWebhook] = useMutation(CreateWebhook);
  const [, rotateSecret] = useMutation(RotateSecret);
  const [, testWebhook] = useMutation(TestWebhook);
  const [, deleteWebhook] = useMutation(DeleteWebhook);
  const [error, setError] = useState<ApiError | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const endpoints = data?.webhooks.edges.map((edge) => edge.node) ?? [];

  /** Runs a mutation, shows its error, reloads the list; answers its data when it succeeded. */
  async function act(pending: Promise<OperationResult>) {
    const { error: failure, data: answer } = await pending;
    setError(failure ? apiErrorOf(failure) : null);
    reload({ requestPolicy: 'network-only' });
    return failure ? null : answer;
  }

  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">{t('webhooks.title')}</h1>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const element = event.currentTarget;
          const form = new FormData(element);
          const description = String(form.get('description') ?? '') || undefined;
          const answer = (await act(createWebhook({ url: String(form.get('url') ?? ''), description }))) as { createWebhook: { secret: string } } | null;
          if (answer) {
            setSecret(answer.createWebhook.secret);
            element.reset();
          }
        }}
      >
        <h2>{t('webhooks.add')}</h2>
        <ErrorBanner error={error} />
        <Field label={t('webhooks.url')} name="url" type="url" error={detailFor(error, 'url')} />
        <Field label={t('webhooks.description')} name="description" error={detailFor(error, 'description')} />
        <Button type="submit" variant="primary">
          {t('webhooks.addButton')}
        </Button>
      </form>
      {secret && (
        <ShownOnce notice={t('webhooks.secretOnce')} label={t('webhooks.secret')} value={secret} testId="webhook-secret" onDone={() => setSecret(null)} />
      )}
      <h2>{t('webhooks.list')}</h2>
      {data && endpoints.length === 0 && (
        <EmptyState title={t('webhooks.none')}>
          <p>{t('webhooks.noneHint')}</p>
        </EmptyState>
      )}
      <ul className="endpoints">
        {endpoints.map((endpoint) => (
          <li key={endpoint.id} className="card">
            <p className="endpoint-head">
              <code id={`endpoint-${endpoint.id}-url`}>{endpoint.url}</code>
              <StatusBadge tone={endpoint.enabled ? 'success' : 'danger'}>{t('webhooks.enabled', { enabled: String(endpoint.enabled) })}</StatusBadge>
            </p>
            <p className="muted">
              {endpoint.description && `${endpoint.description} · `}
              {endpoint.events.length ? endpoint.events.map(eventName).join(', ') : t('webhooks.allEvents')}
            </p>
            <div className="actions">
              <Button
                aria-expanded={open === endpoint.id}
                aria-describedby={`endpoint-${endpoint.id}-url`}
                onPress={() => setOpen(open === endpoint.id ? null : endpoint.id)}
              >
                {t('webhooks.showDeliveries')}
              </Button>
              <Button aria-describedby={`endpoint-${endpoint.id}-url`} onPress={() => act(testWebhook({ id: endpoint.id }))}>
                {t('webhooks.test')}
              </Button>
              <Button
                aria-describedby={`endpoint-${endpoint.id}-url`}
                onPress={async () => {
                  const answer = (await act(rotateSecret({ id: endpoint.id }))) as { rotateWebhookSecret: { secret: string } } | null;
                  if (answer) setSecret(answer.rotateWebhookSecret.secret);
                }}
              >
                {t('webhooks.rotate')}
              </Button>
              <ConfirmButton
                label={t('webhooks.delete')}
                describedBy={`endpoint-${endpoint.id}-url`}
                title={t('webhooks.deleteTitle', { url: endpoint.url })}
                message={t('webhooks.deleteMessage')}
                confirmLabel={t('webhooks.deleteConfirm')}
                onConfirm={async () => {
                  await act(deleteWebhook({ id: endpoint.id }));
                }}
              />
            </div>
            {open === endpoint.id && <Deliveries endpoint={endpoint} />}
          </li>
        ))}
      </ul>
    </section>
  );
}
