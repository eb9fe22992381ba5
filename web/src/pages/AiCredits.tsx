// The workspace's plan and its AI credits this month.
import { useQuery } from 'urql';
import { apiErrorOf } from '../api/client.ts';
import { t } from '../i18n.ts';
import { formatDateTime } from '../time.ts';
import { ErrorBanner } from '../ui.tsx';
import { Facts } from '../table.tsx';

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
        <Facts
          facts={[
            { term: t('credits.plan'), value: viewer.plan ? viewer.plan.name : t('credits.noPlan') },
            {
              term: t('credits.remaining'),
              value: (
                <>
                  <meter min={0} max={viewer.aiCredits.monthly} value={viewer.aiCredits.remaining} aria-label={t('credits.remaining')} />{' '}
                  {t('credits.ofMonthly', { remaining: viewer.aiCredits.remaining, monthly: viewer.aiCredits.monthly })}
                </>
              ),
            },
            { term: t('credits.resetsAt'), value: formatDateTime(viewer.aiCredits.resetsAt) },
          ]}
        />
      )}
      {viewer?.plan && !viewer.plan.ai && <p>{t('credits.noAi')}</p>}
    </section>
  );
}
