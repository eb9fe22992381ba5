// The metrics the service collects for every published target, where the network has them.
export const metricNames = ['impressions', 'reach', 'likes', 'comments', 'shares', 'saves', 'clicks', 'videoViews'] as const;
export type MetricName = (typeof metricNames)[number];
export type Metrics = Record<MetricName, number>;

/** Column of each metric in target_metric_day. */
export const metricColumns: Record<MetricName, string> = {
  impressions: 'impressions',
  reach: 'reach',
  likes: 'likes',
  comments: 'comments',
  shares: 'shares',
  saves: 'saves',
  clicks: 'clicks',
  videoViews: 'video_views',
};

export const zeroMetrics = (): Metrics => Object.fromEntries(metricNames.map((name) => [name, 0])) as Metrics;
