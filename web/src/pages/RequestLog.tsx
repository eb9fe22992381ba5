// The request log: the workspace's recent calls (REST, GraphQL, MCP), newest first, the dashboard's own calls or
// the successful ones hidden on request. Owners and admins only: the API's refusal is shown to others.
import { useState } from 'react';
import { useQuery } from 'urql';
import { apiErrorOf } from '../api/client.ts';
import { t } from '../i18n.ts';
import { formatDateTime } from '../time.ts';
import { ErrorBanner } from '../ui.tsx';
import { Table, type Column } from '../table.tsx';
import { Button } from '../ui/Button.tsx';
import { EmptyState } from '../ui/EmptyState.tsx';
import { StatusBadge, type Tone } from '../ui/StatusBadge.tsx';

const RequestLogQuery = `query RequestLog { requestLog(first: 100) { edges { node { id createdAt method route status durationMs requestId apiKeyId } } } }`;

const toneOf = (status: number): Tone => (status >= 500 ? 'danger' : status >= 400 ? 'warning' : 'success');

interface Entry {
  id: string;
  createdAt: string;
  method: string;
  route: string;
  status: number;
  durationMs: number;
  requestId: string;
  apiKeyId: string | null;
}

export function RequestLog() {
  const [{ data, error }, reload] = useQuery<{ requestLog: { edges: { node: Entry }[] } }>({ query: RequestLogQuery, requestPolicy: 'network-only' });
  const [hideDashboard, setHideDashboard] = useState(false);
  const [onlyFailures, setOnlyFailures] = useState(false);
  const entries = (data?.requestLog.edges.map((edge) => edge.node) ?? []).filter(
    (entry) => (!hideDashboard || entry.apiKeyId !== null) && (!onlyFailures || entry.status >= 400),
  );
  const columns: Column<Entry>[] = [
    { header: t('log.at'), cell: (entry) => formatDateTime(entry.createdAt) },
    {
      header: t('log.call'),
      cell: (entry) => (
        <code>
          {entry.method} {entry.route}
        </code>
      ),
    },
    { header: t('post.status'), cell: (entry) => <StatusBadge tone={toneOf(entry.status)}>{entry.status}</StatusBadge> },
    { header: t('log.duration'), cell: (entry) => t('log.milliseconds', { ms: Math.round(entry.durationMs) }) },
    { header: t('log.by'), cell: (entry) => (entry.apiKeyId ? t('log.byKey') : t('log.bySession')) },
    { header: t('log.requestId'), cell: (entry) => <code>{entry.requestId}</code> },
  ];

  return (
    <section aria-labelledby="log-title">
      <div className="toolbar">
        <h1 id="log-title">{t('log.title')}</h1>
        <Button onPress={() => reload({ requestPolicy: 'network-only' })}>{t('webhooks.refresh')}</Button>
      </div>
      <ErrorBanner error={error ? apiErrorOf(error) : null} />
      <div className="actions log-filters">
        <label>
          <input type="checkbox" checked={hideDashboard} onChange={(event) => setHideDashboard(event.target.checked)} /> {t('log.hideDashboard')}
        </label>
        <label>
          <input type="checkbox" checked={onlyFailures} onChange={(event) => setOnlyFailures(event.target.checked)} /> {t('log.onlyFailures')}
        </label>
      </div>
      {data && data.requestLog.edges.length === 0 ? (
        <EmptyState title={t('log.none')}>
          <p>{t('log.noneHint')}</p>
        </EmptyState>
      ) : (
        /* Focusable so the keyboard can scroll it when it is wider than the screen. */
        <Table tabIndex={0} aria-labelledby="log-title" columns={columns} rows={entries} keyOf={(entry) => entry.id} />
      )}
    </section>
  );
}
