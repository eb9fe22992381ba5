// Analytics for a period: totals, a chart by day (with its table), breakdowns by network, account and post, and
// each as the API's CSV file. Loaded only when opened (App.tsx), so the chart library stays out of the first page.
import { useMemo, useState, type ReactNode } from 'react';
import { useQuery } from 'urql';
import { Temporal } from 'temporal-polyfill';
import type { ApiError } from '../api/auth.ts';
import { apiErrorOf } from '../api/client.ts';
import { language, t } from '../i18n.ts';
import { detailFor, ErrorBanner, Field } from '../ui.tsx';
import { DailyChart, type DayFigures } from '../analytics/DailyChart.tsx';
import { FiguresTable, formatFigure, metricLabel } from '../analytics/FiguresTable.tsx';
import { downloadAnalyticsCsv } from '../analytics/exportCsv.ts';
import { PostLabel } from '../analytics/PostLabel.tsx';
import { AnalyticsQuery, metricNames, type AnalyticsData, type Grouping, type Period, type Row } from '../analytics/model.ts';
import '../analytics/analytics.css';

// The API counts metrics by UTC day, so the period's days are UTC days too.
const lastThirtyDays = (): Period => {
  const today = Temporal.Now.plainDateISO('UTC');
  return { from: today.subtract({ days: 29 }).toString(), to: today.toString() };
};
const formatDay = (day: string) => Temporal.PlainDate.from(day).toLocaleString(language, { dateStyle: 'medium' });

/** Every day of the period, with zeros where nothing was measured, so the chart's line is continuous. */
function everyDay(from: string, to: string, rows: Row[]): DayFigures[] {
  const measured = new Map(rows.map((row) => [row.key, row.metrics]));
  const zeros = Object.fromEntries(metricNames.map((name) => [name, 0])) as Row['metrics'];
  const days: DayFigures[] = [];
  for (let day = Temporal.PlainDate.from(from); Temporal.PlainDate.compare(day, to) <= 0; day = day.add({ days: 1 })) {
    const key = day.toString();
    days.push({ day: key, label: formatDay(key), metrics: measured.get(key) ?? zeros });
  }
  return days;
}

function CsvButton({
  workspaceId,
  period,
  groupBy,
  onError,
}: {
  workspaceId: string;
  period: Period;
  groupBy: Grouping;
  onError: (error: ApiError | null) => void;
}) {
  return (
    <button
      type="button"
      onClick={() =>
        downloadAnalyticsCsv(workspaceId, period, groupBy).then(
          () => onError(null),
          (error: ApiError) => onError(error),
        )
      }
    >
      {t('analytics.downloadCsv', { grouping: groupBy })}
    </button>
  );
}

export default function Analytics({ workspaceId }: { workspaceId: string }) {
  const [period, setPeriod] = useState<Period>(lastThirtyDays);
  const [{ data, error: failure }] = useQuery<AnalyticsData>({ query: AnalyticsQuery, variables: period, requestPolicy: 'cache-and-network' });
  const [exportError, setExportError] = useState<ApiError | null>(null);
  const error = failure ? apiErrorOf(failure) : null;
  const days = useMemo(() => (data ? everyDay(data.byDay.from, data.byDay.to, data.byDay.rows) : []), [data]);
  const csv = (groupBy: Grouping) => <CsvButton workspaceId={workspaceId} period={period} groupBy={groupBy} onError={setExportError} />;

  const networkName = (key: string) => data?.providers.find((provider) => provider.provider === key)?.displayName ?? key;
  const accountName = (key: string) => {
    const account = data?.socialAccounts.edges.find((edge) => edge.node.id === key)?.node;
    return account ? `${account.displayName} (@${account.username})` : key;
  };
  const labelled = (rows: Row[], label: (key: string) => ReactNode) => rows.map((row) => ({ ...row, label: label(row.key) }));

  return (
    <section aria-labelledby="analytics-title">
      <h1 id="analytics-title">{t('analytics.title')}</h1>
      <form
        className="actions"
        aria-label={t('analytics.period')}
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          setPeriod({ from: String(form.get('from') ?? ''), to: String(form.get('to') ?? '') });
        }}
      >
        <Field label={t('analytics.from')} name="from" type="date" defaultValue={period.from} error={detailFor(error, 'from')} />
        <Field label={t('analytics.to')} name="to" type="date" defaultValue={period.to} error={detailFor(error, 'to')} />
        <button type="submit">{t('analytics.show')}</button>
        <p className="muted">{t('analytics.utcDays')}</p>
      </form>
      <ErrorBanner error={error} />
      <ErrorBanner error={exportError} />
      {data && (
        <>
          <h2>{t('analytics.totals')}</h2>
          <dl className="totals" data-testid="analytics-totals">
            {metricNames.map((name) => (
              <div key={name}>
                <dt>{metricLabel(name)}</dt>
                <dd>{formatFigure(data.byDay.totals[name])}</dd>
              </div>
            ))}
          </dl>
          <div className="toolbar">
            <h2>{t('analytics.byDay')}</h2>
            {csv('day')}
          </div>
          <DailyChart days={days} name={t('analytics.chartName', { from: formatDay(data.byDay.from), to: formatDay(data.byDay.to) })} />
          <div className="toolbar">
            <h2>{t('analytics.byNetwork')}</h2>
            {csv('provider')}
          </div>
          <FiguresTable caption={t('analytics.byNetwork')} keyHeader={t('analytics.network')} rows={labelled(data.byNetwork.rows, networkName)} />
          <div className="toolbar">
            <h2>{t('analytics.byAccount')}</h2>
            {csv('account')}
          </div>
          <FiguresTable caption={t('analytics.byAccount')} keyHeader={t('analytics.account')} rows={labelled(data.byAccount.rows, accountName)} />
          <div className="toolbar">
            <h2>{t('analytics.byPost')}</h2>
            {csv('post')}
          </div>
          <FiguresTable
            caption={t('analytics.byPost')}
            keyHeader={t('analytics.post')}
            rows={data.byPost.rows.map((row) => ({ ...row, label: <PostLabel post={row.post} /> }))}
          />
        </>
      )}
    </section>
  );
}
