// The workspace's plan and its AI credits this month.
import { useQuery } from 'urql';
import { apiErrorOf } from '../api/client.ts';
import { t } from '../i18n.ts';
import { formatDateTime } from '../time.ts';
import { ErrorBanner } from '../ui.tsx';

const CreditsQuery = `query AiCredits { viewer { plan { name ai expiresAt } aiCredits { monthly remaining resetsAt } } }`;

interface Credits {
  viewer: { plan: { name: string; ai: boolean; expiresAt: string | null } | null; aiCredits: { monthly: number; remaining: number; resetsAt: string } };
}

export function AiCredits() {
  const [{ data, error }] = useQuery<Credits>({ query: CreditsQuery, requestPolicy: 'cache-and-network' });
  const viewer = data?.viewer;
  return (
    <section aria-labelledby="credits-title">
      <h1 id="credits-title">{t('credits.title')}</h1>
      <ErrorBanner error={error ? apiErrorOf(error) : null} />
      {viewer && (
        <dl className="facts">
          <dt>{t('credits.plan')}</dt>
          <dd>{viewer.plan ? viewer.plan.name : t('credits.noPlan')}</dd>
          <dt>{t('credits.remaining')}</dt>
          <dd>
            <meter min={0} max={viewer.aiCredits.monthly} value={viewer.aiCredits.remaining} aria-label={t('credits.remaining')} />{' '}
            {t('credits.ofMonthly', { remaining: viewer.aiCredits.remaining, monthly: viewer.aiCredits.monthly })}
          </dd>
          <dt>{t('credits.resetsAt')}</dt>
          <dd>{formatDateTime(viewer.aiCredits.resetsAt)}</dd>
          {viewer.plan && !viewer.plan.ai && <dd>{t('credits.noAi')}</dd>}
        </dl>
      )}
    </section>
  );
}
