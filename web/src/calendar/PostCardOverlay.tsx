// The post card itself (see PostCard.tsx): react-aria's Tooltip beside the post, with the caption's start, the time
// and status, and the accounts the post goes to (read when the card is first shown). Loaded with the first card,
// so the calendar's first page does not carry it.
import { useMemo, type RefObject } from 'react';
import { Tooltip, TooltipTriggerStateContext, type TooltipTriggerState } from 'react-aria-components';
import { useQuery } from 'urql';
import type { Provider } from '../../../schema/generated/graphql.ts';
import { t } from '../i18n.ts';
import { formatDateTime } from '../time.ts';
import { Avatar } from '../ui/Avatar.tsx';
import { StatusBadge } from '../ui/StatusBadge.tsx';
import { captionStart } from './captions.ts';
import { statusTones, whenOf, type CalendarPost } from './model.ts';

const PostAccountsQuery = `query PostAccounts($id: ID!) { post(id: $id) { id targets { id account { id provider displayName username avatarUrl } } } }`;
interface PostAccounts {
  post: { id: string; targets: { id: string; account: { id: string; provider: Provider; displayName: string; username: string; avatarUrl: string | null } }[] };
}

/** The accounts a post goes to, each once (a post may go to one account in two placements). */
function Accounts({ id }: { id: string }) {
  const [{ data }] = useQuery<PostAccounts>({ query: PostAccountsQuery, variables: { id } });
  const accounts = useMemo(() => [...new Map(data?.post.targets.map(({ account }) => [account.id, account])).values()], [data]);
  if (!data) return <p className="muted">{t('common.loading')}</p>;
  return (
    <ul className="post-card-accounts" aria-label={t('calendar.accounts')}>
      {accounts.map((account) => (
        <li key={account.id}>
          <Avatar src={account.avatarUrl} name={account.displayName} provider={account.provider} size={24} />
          <span>@{account.username}</span>
        </li>
      ))}
    </ul>
  );
}

export default function PostCardOverlay({
  post,
  triggerRef,
  cardId,
  onClose,
  onPointerEnter,
  onPointerLeave,
}: {
  post: CalendarPost;
  triggerRef: RefObject<HTMLElement | null>;
  /** The id of the card's content, which describes the post's link. */
  cardId: string;
  onClose: () => void;
  onPointerEnter: () => void;
  onPointerLeave: () => void;
}) {
  // Shown while rendered: the calendar decides when (PostCard.tsx). Tooltip used alone still reads its state from
  // this context for its position (react-aria-components 1.22), so the state is given.
  const state = useMemo<TooltipTriggerState>(() => ({ isOpen: true, shouldSkipAnimation: true, open: () => {}, close: onClose }), [onClose]);
  return (
    <TooltipTriggerStateContext.Provider value={state}>
      <Tooltip
        triggerRef={triggerRef}
        isOpen
        onOpenChange={(open) => !open && onClose()}
        placement="bottom start"
        offset={6}
        className="post-card"
        onPointerEnter={onPointerEnter}
        onPointerLeave={onPointerLeave}
      >
        <div id={cardId}>
          <p className="post-card-caption">{captionStart(post.content.caption || t('calendar.noCaption'), 140)}</p>
          <p className="post-card-when">
            <time dateTime={whenOf(post)}>{formatDateTime(whenOf(post))}</time>{' '}
            <StatusBadge tone={statusTones[post.status]}>{t('status.post', { status: post.status })}</StatusBadge>
          </p>
          <Accounts id={post.id} />
        </div>
      </Tooltip>
    </TooltipTriggerStateContext.Provider>
  );
}
