// The request log: the workspace's recent calls (REST, GraphQL, MCP), newest first. Owners and admins only: the
// API's refusal is shown to others.
import { useQuery } from 'urql';
import { apiErrorOf } from '../api/client.ts';
import { t } from '../i18n.ts';
import { formatDateTime } from '../time.ts';
import { ErrorBanner } from '../ui.tsx';

const RequestLogQuery = `query RequestLog { requestLog(first: 100) { edges { node { id createdAt method route status durationMs requestId apiKeyId } } } }`;

interface Entry { id: string; createdAt: string; method: string; route: string; status: number; durationMs: number; requestId: string; apiKeyId: string | null }

export function RequestLog() {
  const [{ data, error }, reload] = useQuery<{ requestLog: { edges: { node: Entry }[] } }>({ query: RequestLogQuery, requestPolicy: 'network-only' });
  return (
    <section aria-labelledby="log-title">
      <div className="toolbar">
        <h1 id="log-title">{t('log.title')}</h1>
        <button type="button" onClick={() => reload({ requestPolicy: 'network-only' })}>
          {t('webhooks.refresh')}
        </button>
      </div>
      <ErrorBanner error={error ? apiErrorOf(error) : null} />
      {/* Focusable so the keyboard can scroll it when it is wider than the screen. */}
      <table tabIndex={0} aria-labelledby="log-title">
        <thead>
          <tr>
            <th scope="col">{t('log.at')}</th>
            <th scope="col">{t('log.call')}</th>
            <th scope="col">{t('post.status')}</th>
            <th scope="col">{t('log.duration')}</th>
            <th scope="col">{t('log.by')}</th>
            <th scope="col">{t('log.requestId')}</th>
          </tr>
        </thead>
        <tbody>
          {data?.requestLog.edges.map(({ node: entry }) => (
            <tr key={entry.id}>
              <td>{formatDateTime(entry.createdAt)}</td>
              <td>
                <code>
                  {entry.method} {entry.route}
                </code>
              </td>
              <td>{entry.status}</td>
              <td>{t('log.milliseconds', { ms: Math.round(entry.durationMs) })}</td>
              <td>{entry.apiKeyId ? t('log.byKey') : t('log.bySession')}</td>
              <td>
                <code>{entry.requestId}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
