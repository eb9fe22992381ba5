// The period's metrics by day as a line chart (uPlot, drawn on a canvas), named for assistive technology, with
// the same figures as a table for anyone who cannot see the chart.
import { useEffect, useId, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { t } from '../i18n.ts';
import { useTheme } from '../ui/theme.ts';
import { FiguresTable, metricLabel } from './FiguresTable.tsx';
import { metricNames, type Metrics, type MetricName } from './model.ts';

export interface DayFigures {
  /** YYYY-MM-DD (the service's days are UTC days). */
  day: string;
  label: string;
  metrics: Metrics;
}

// Distinct hues, each with at least 3:1 contrast on white (WCAG's contrast for graphics).
const colors: Record<MetricName, string> = {
  impressions: '#1d4ed8',
  reach: '#0f766e',
  likes: '#b91c1c',
  comments: '#7e22ce',
  shares: '#b45309',
  saves: '#4d7c0f',
  clicks: '#be185d',
  videoViews: '#374151',
};
const height = 300;

export function DailyChart({ days, name }: { days: DayFigures[]; name: string }) {
  const box = useRef<HTMLDivElement>(null);
  const captionId = useId();
  const theme = useTheme();

  // biome-ignore lint/correctness/useExhaustiveDependencies(theme): not read, only a cause to draw again: the colours read from the page change with it
  useEffect(() => {
    const element = box.current!;
    // The canvas cannot use the theme's custom properties: their values, read when drawn (again when the theme changes).
    const colour = (name: string) => getComputedStyle(element).getPropertyValue(name).trim();
    const axis = { stroke: colour('--color-text-muted'), grid: { stroke: colour('--color-border') }, ticks: { stroke: colour('--color-border') } };
    const data: uPlot.AlignedData = [
      days.map(({ day }) => Date.parse(`${day}T00:00:00Z`) / 1000),
      ...metricNames.map((metric) => days.map((day) => day.metrics[metric])),
    ];
    const chart = new uPlot(
      {
        width: element.clientWidth,
        height,
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        legend: { show: false },
        scales: { x: { time: true } },
        axes: [axis, axis],
        series: [{}, ...metricNames.map((metric) => ({ label: metricLabel(metric), stroke: colors[metric], width: 2 }))],
      },
      data,
      element,
    );
    const observer = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [days, theme]);

  return (
    <figure className="daily-chart">
      <figcaption id={captionId}>{name}</figcaption>
      <div ref={box} role="img" aria-labelledby={captionId} className="chart" />
      <ul className="legend" aria-hidden="true">
        {metricNames.map((metric) => (
          <li key={metric}>
            <span className="swatch" style={{ background: colors[metric] }} />
            {metricLabel(metric)}
          </li>
        ))}
      </ul>
      <details>
        <summary>{t('analytics.chartAsTable')}</summary>
        <FiguresTable caption={name} keyHeader={t('analytics.day')} rows={days.map(({ day, label, metrics }) => ({ key: day, label, metrics }))} />
      </details>
    </figure>
  );
}
