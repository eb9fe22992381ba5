// Says, while a refused request waits its turn (api/rateLimit.ts), that the dashboard will try again and when.
import { t } from '../i18n.ts';
import { useRetryingAt } from '../api/rateLimit.ts';

export function RateLimitNotice() {
  const retryingAt = useRetryingAt();
  return (
    <div role="status" className="rate-limit-notice" hidden={retryingAt === null}>
      {retryingAt !== null && (
        <p>
          {t('app.rateLimited', { seconds: Math.max(1, Math.round((retryingAt - Date.now()) / 1000)) })}{' '}
          <span className="muted">{t('app.rateLimitedWhy')}</span>
        </p>
      )}
    </div>
  );
}
