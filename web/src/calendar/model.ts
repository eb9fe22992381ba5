// The calendar's posts as the graph gives them: the days shown, the posts of those days (one operation), each
// day's posts in time order, and what each status looks like.
import type { Client, OperationContext, OperationResult } from 'urql';
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

// The days shown in one operation, paginated: `posts(from, to)` over the whole range, grouped by day here. A page
// is 95 posts because that is what one request buys: the graph charges an operation ceil(cost / 5,000) requests
// against the person's rate limit (schema/limits.ts) and a post with these fields costs about 52, so 95 posts cost
// about 4,980 (one request) where 100 would cost 5,240 (two). A month of up to 95 posts is one request. Only the
// fields a cell shows: the networks and the first file's thumbnail as the graph sums them up (two scalars, not each
// target and file). The page size is written in the document: the graph counts only a `first` written there.
const PostsQuery = `
  query CalendarPosts($from: DateTime!, $to: DateTime!, $after: String) {
    posts(from: $from, to: $to, first: 95, after: $after) {
      edges { node { id status scheduledAt publishedAt createdAt content { caption } providers thumbnailUrl } }
      pageInfo { hasNextPage endCursor }
    }
  }`;

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

/**
 * The posts of the days shown (a contiguous range), page after page. `context` is urql's, e.g. a prefetch's own
 * `fetch`.
 */
export async function loadPosts(client: Client, days: Temporal.PlainDate[], context?: Partial<OperationContext>): Promise<CalendarPost[]> {
  const from = startOf(days[0]!);
  const to = startOf(days.at(-1)!.add({ days: 1 }));
  const found: CalendarPost[] = [];
  let after: string | null = null;
  do {
    const result: OperationResult<{ posts: PostsPage }> = await client
      .query<{ posts: PostsPage }>(PostsQuery, { from, to, after }, { requestPolicy: 'network-only', ...context })
      .toPromise();
    if (result.error || !result.data) throw result.error ? apiErrorOf(result.error) : new Error('no data');
    const page = result.data.posts;
    found.push(...page.edges.map((edge) => edge.node));
    after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
  } while (after);
  return found;
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
  IN_REVIEW: 'warning',
  CHANGES_REQUESTED: 'warning',
  SCHEDULED: 'info',
  PUBLISHING: 'info',
  PUBLISHED: 'success',
  PARTIALLY_PUBLISHED: 'warning',
  FAILED: 'danger',
};
