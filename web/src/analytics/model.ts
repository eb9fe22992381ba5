// Analytics as the graph gives them: one period's rows by day, network, account and post, with totals.
import type { Provider } from '../../../schema/generated/graphql.ts';
import type { CalendarPost } from '../calendar/model.ts';
export const metricNames = ['impressions', 'reach', 'likes', 'comments', 'shares', 'saves', 'clicks', 'videoViews'] as const;
export type MetricName = (typeof metricNames)[number];
export type Metrics = Record<MetricName, number>;

export interface Row {
  /** A day, a network (the graph's Provider value), an account id or a post id. */
  key: string;
  metrics: Metrics;
}

/** How rows are grouped, as the REST export's `groupBy` names it. */
export type Grouping = 'day' | 'provider' | 'account' | 'post';

export interface Period {
  /** YYYY-MM-DD, both days included. */
  from: string;
  to: string;
}

/** A row by post, with the post it measures (null: deleted since). */
export interface PostRow extends Row {
  post: Pick<CalendarPost, 'id' | 'content' | 'providers' | 'thumbnailUrl'> | null;
}

export interface AnalyticsData {
  byDay: { from: string; to: string; totals: Metrics; rows: Row[] };
  byNetwork: { rows: Row[] };
  byAccount: { rows: Row[] };
  byPost: { rows: PostRow[] };
  socialAccounts: { edges: { node: { id: string; displayName: string; username: string } }[] };
  providers: { provider: Provider; displayName: string }[];
}

export const AnalyticsQuery = `
  query Analytics($from: String!, $to: String!) {
    byDay: analytics(from: $from, to: $to, groupBy: DAY) { from to totals { ...Figures } rows { key metrics { ...Figures } } }
    byNetwork: analytics(from: $from, to: $to, groupBy: PROVIDER) { rows { key metrics { ...Figures } } }
    byAccount: analytics(from: $from, to: $to, groupBy: ACCOUNT) { rows { key metrics { ...Figures } } }
    byPost: analytics(from: $from, to: $to, groupBy: POST) { rows { key metrics { ...Figures } post { id content { caption } providers thumbnailUrl } } }
    socialAccounts(first: 100) { edges { node { id displayName username } } }
    providers { provider displayName }
  }
  fragment Figures on Metrics { impressions reach likes comments shares saves clicks videoViews }`;
