// The calendar's posts as the graph gives them: the days shown, the posts of those days (one request a week), each
// day's posts in time order, and what each status looks like.
import type { Client, OperationResult } from 'urql';
import { Temporal } from 'temporal-polyfill';
import type { PostStatus, Provider } from '../../../schema/generated/graphql.ts';
import { apiErrorOf } from '../api/client.ts';
import { language } from '../i18n.ts';
import { timeZone, zoned } from '../time.ts';
import type { Tone } from '../ui/StatusBadge.tsx';

export type View = 'month' | 'week' | 'list';

export interface CalendarPost {
  id: string;
  status: PostStatus;
  scheduledAt: string | null;
  publishedAt: string | null;
  createdAt: string;
  content: { caption: string };
  providers: Provider[];
  thumbnailUrl: string | null;
}
interface PostsPage {
  edges: { node: CalendarPost }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

// One request a week row, one field a day with its first 40 posts, every week at once: a month of 1,000 posts
// arrives in one round trip (the graph's cost limit allows about 40 posts × 7 days an operation, and a browser
// sends six requests at a time). A busier day goes on alone, 100 posts a page. Only the fields a cell shows: the
// networks and the first file's thumbnail as the graph sums them up (two scalars, not each target and file).
// The graph counts a fragment's depth and cost as if written out.
const CalendarPage = `
  fragment CalendarPage on QueryPostsConnection {
    edges { node { id status scheduledAt publishedAt createdAt content { caption } providers thumbnailUrl } }
    pageInfo { hasNextPage endCursor }
  }`;
const WeekQuery = `
  query CalendarWeek($d0: DateTime!, $d1: DateTime!, $d2: DateTime!, $d3: DateTime!, $d4: DateTime!, $d5: DateTime!, $d6: DateTime!, $d7: DateTime!) {
    d0: posts(from: $d0, to: $d1, first: 40) { ...CalendarPage }
    d1: posts(from: $d1, to: $d2, first: 40) { ...CalendarPage }
    d2: posts(from: $d2, to: $d3, first: 40) { ...CalendarPage }
    d3: posts(from: $d3, to: $d4, first: 40) { ...CalendarPage }
    d4: posts(from: $d4, to: $d5, first: 40) { ...CalendarPage }
    d5: posts(from: $d5, to: $d6, first: 40) { ...CalendarPage }
    d6: posts(from: $d6, to: $d7, first: 40) { ...CalendarPage }
  }
  ${CalendarPage}`;
const DayQuery = `
  query CalendarDay($from: DateTime!, $to: DateTime!, $after: String) {
    posts(from: $from, to: $to, first: 100, after: $after) { ...CalendarPage }
  }
  ${CalendarPage}`;

export const whenOf = (post: CalendarPost) => post.publishedAt ?? post.scheduledAt ?? post.createdAt;
const startOf = (day: Temporal.PlainDate) => day.toZonedDateTime(timeZone).toInstant().toString();

/** A date's name by a formatter made once (making one costs far more than using it): the date at midnight UTC. */
export const dateLabel = (options: Intl.DateTimeFormatOptions) => {
  const format = new Intl.DateTimeFormat(language, { ...options, timeZone: 'UTC' });
  return (day: Temporal.PlainDate) => format.format(day.toZonedDateTime('UTC').epochMilliseconds);
};

/** The days shown: whole weeks (Monday first) around the month (month and list), or the week of `anchor`. */
export function daysOf(view: View, anchor: Temporal.PlainDate): Temporal.PlainDate[] {
  const first = view === 'week' ? anchor : anchor.with({ day: 1 });
  const start = first.subtract({ days: first.dayOfWeek - 1 });
  const last = view === 'week' ? anchor : anchor.with({ day: anchor.daysInMonth });
  const end = last.add({ days: 7 - last.dayOfWeek });
  const days: Temporal.PlainDate[] = [];
  for (let day = start; Temporal.PlainDate.compare(day, end) <= 0; day = day.add({ days: 1 })) days.push(day);
  return days;
}

/** The posts of the days shown (whole weeks). */
export async function loadPosts(client: Client, days: Temporal.PlainDate[]): Promise<CalendarPost[]> {
  const unwrap = <Data>(result: OperationResult<Data>): Data => {
    if (result.error || !result.data) throw result.error ? apiErrorOf(result.error) : new Error('no data');
    return result.data;
  };
  const restOfDay = async (from: string, to: string, page: PostsPage): Promise<CalendarPost[]> => {
    const found = page.edges.map((edge) => edge.node);
    while (page.pageInfo.hasNextPage) {
      page = unwrap(
        await client.query<{ posts: PostsPage }>(DayQuery, { from, to, after: page.pageInfo.endCursor }, { requestPolicy: 'network-only' }).toPromise(),
      ).posts;
      found.push(...page.edges.map((edge) => edge.node));
    }
    return found;
  };
  const loadWeek = async (monday: Temporal.PlainDate) => {
    const bounds = Array.from({ length: 8 }, (_, index) => startOf(monday.add({ days: index })));
    const variables = Object.fromEntries(bounds.map((bound, index) => [`d${index}`, bound]));
    const week = unwrap(await client.query<Record<string, PostsPage>>(WeekQuery, variables, { requestPolicy: 'network-only' }).toPromise());
    return Promise.all(bounds.slice(0, 7).map((from, index) => restOfDay(from, bounds[index + 1]!, week[`d${index}`]!)));
  };
  const weeks = await Promise.all(days.filter((day) => day.dayOfWeek === 1).map(loadWeek));
  return weeks.flat(2);
}

/** Each day's posts in time order, keyed by the day's ISO date in the person's zone. */
export function postsByDay(posts: CalendarPost[]): Map<string, CalendarPost[]> {
  const timed = posts.map((post) => ({ post, at: Date.parse(whenOf(post)) }));
  timed.sort((a, b) => a.at - b.at);
  const byDay = new Map<string, CalendarPost[]>();
  for (const { post, at } of timed) {
    const day = zoned(at).toPlainDate().toString();
    const bucket = byDay.get(day);
    if (bucket) bucket.push(post);
    else byDay.set(day, [post]);
  }
  return byDay;
}

/** A post's status as a colour (the status is always written too: in the chip for screen readers, and its card). */
export const statusTones: Record<PostStatus, Tone> = {
  DRAFT: 'neutral',
  SCHEDULED: 'info',
  PUBLISHING: 'info',
  PUBLISHED: 'success',
  PARTIALLY_PUBLISHED: 'warning',
  FAILED: 'danger',
};
