// The inbox's open (unread) comments, counted for the sidebar's link and the small screens' menu.
import { useQuery } from 'urql';

const OpenInboxCount = 'query OpenInboxCount { inboxOpenCount }';
// The count is a number, not an object urql's cache can see change: a change to any inbox item or answer refetches it.
const inboxCountContext = { additionalTypenames: ['InboxItem', 'InboxReply'] };

export function useOpenInboxCount(): number {
  const [{ data }] = useQuery<{ inboxOpenCount: number }>({ query: OpenInboxCount, context: inboxCountContext });
  return data?.inboxOpenCount ?? 0;
}
