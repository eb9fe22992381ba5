// A table of figures: one row per day, network, account or post, one column per metric.
import type { ReactNode } from 'react';
import { language, t } from '../i18n.ts';
import { metricNames, type Metrics } from './model.ts';

export const formatFigure = (value: number) => value.toLocaleString(language);
export const metricLabel = (metric: string) => t('analytics.metric', { metric });

export function FiguresTable({
  caption,
  keyHeader,
  rows,
}: {
  caption: string;
  keyHeader: string;
  rows: { key: string; label: ReactNode; metrics: Metrics }[];
}) {
  if (!rows.length) return <p className="muted">{t('analytics.noRows')}</p>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: on a narrow screen the table scrolls sideways; a scrollable region must be focusable for keyboard users to scroll it (axe: scrollable-region-focusable)
    <table tabIndex={0} className="figures">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{keyHeader}</th>
          {metricNames.map((name) => (
            <th scope="col" key={name}>
              {metricLabel(name)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.label}</th>
            {metricNames.map((name) => (
              <td key={name}>{formatFigure(row.metrics[name])}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
