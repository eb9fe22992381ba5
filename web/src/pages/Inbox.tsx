// The inbox: the comments people left on the workspace's published posts, newest first, each with the post it is on
// (its thumbnail, network and account); filtered by account, network and open/done; answered inline with the
// network's counter (the placement's caption limit, counted as the composer counts), each answer's state (pending,
// published with its link, failed with the network's reason); marked done or reopened.
import { useEffect, useId, useState } from 'react';
import { useMutation, useQuery, type OperationResult } from 'urql';
import type { ApiError } from '../api/auth.ts';
import { apiErrorOf } from '../api/client.ts';
import { t } from '../i18n.ts';
import { postPath } from '../router.ts';
import { formatDateTime } from '../time.ts';
import { ErrorBanner, detailFor, Link } from '../ui.tsx';
import { Avatar } from '../ui/Avatar.tsx';
import { Button } from '../ui/Button.tsx';
import { EmptyState } from '../ui/EmptyState.tsx';
import { NetworkIcon } from '../ui/NetworkIcon.tsx';
import { networkLook } from '../ui/networks.ts';
import { StatusBadge, type Tone } from '../ui/StatusBadge.tsx';
import { captionLength } from '../../../src/posts/captionLength.ts';
import type { PlacementRules, ProviderRules } from '../composer/model.ts';

const InboxQuery = `
  query Inbox($status: InboxStatus, $connectionId: ID, $provider: Provider) {
    inbox(first: 100, status: $status, connectionId: $connectionId, provider: $provider) {
      edges { node {
        id connectionId provider targetId kind text createdAt remoteUrl status
        author { displayName username avatarUrl }
        replies { id text status remoteUrl createdAt error { code message } }
        post { id content { caption } thumbnailUrl targets { id placement } }
      } }
    }
    socialAccounts(first: 100) { edges { node { id provider displayName username } } }
    providers { provider placements { name caption { maxLength maxLengthWithMedia countedIn charactersPerUrl required } } }
  }`;
const UpdateInboxItem = `mutation UpdateInboxItem($id: ID!, $status: InboxStatus!) { updateInboxItem(id: $id, status: $status) { id status } }`;
const ReplyToInboxItem = `mutation ReplyToInboxItem($id: ID!, $text: String!) { replyToInboxItem(id: $id, text: $text) { id status } }`;

type ItemStatus = 'OPEN' | 'DONE';
type ReplyStatus = 'PENDING' | 'PUBLISHING' | 'PUBLISHED' | 'FAILED';
interface Reply {
  id: string;
  text: string;
  status: ReplyStatus;
  remoteUrl: string | null;
  createdAt: string;
  error: { code: string; message: string } | null;
}
interface Item {
  id: string;
  connectionId: string;
  provider: string;
  targetId: string;
  kind: 'COMMENT' | 'REPLY' | 'MENTION';
  text: string;
  createdAt: string;
  remoteUrl: string | null;
  status: ItemStatus;
  author: { displayName: string; username: string; avatarUrl: string | null };
  replies: Reply[];
  post: { id: string; content: { caption: string }; thumbnailUrl: string | null; targets: { id: string; placement: string }[] } | null;
}
interface Account {
  id: string;
  provider: string;
  displayName: string;
  username: string;
}
type Rules = Pick<ProviderRules, 'provider'> & { placements: Pick<PlacementRules, 'name' | 'caption'>[] };

const replyTones: Record<ReplyStatus, Tone> = { PENDING: 'info', PUBLISHING: 'info', PUBLISHED: 'success', FAILED: 'danger' };
/** How often the page looks again while an answer is still on its way to the network. */
const pendingRefreshMs = 5000;

export function Inbox() {
  const [status, setStatus] = useState<ItemStatus | ''>('OPEN');
  const [connectionId, setConnectionId] = useState('');
  const [provider, setProvider] = useState('');
  const [{ data }, reload] = useQuery<{
    inbox: { edges: { node: Item }[] };
    socialAccounts: { edges: { node: Account }[] };
    providers: Rules[];
  }>({
    query: InboxQuery,
    variables: { status: status || null, connectionId: connectionId || null, provider: provider || null },
    requestPolicy: 'cache-and-network',
  });
  const items = data?.inbox.edges.map((edge) => edge.node) ?? [];
  const accounts = data?.socialAccounts.edges.map((edge) => edge.node) ?? [];
  const networks = [...new Set(accounts.map((account) => account.provider))];
  const waiting = items.some((item) => item.replies.some((reply) => reply.status === 'PENDING' || reply.status === 'PUBLISHING'));
  const ids = { account: useId(), network: useId(), status: useId() };

  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => reload({ requestPolicy: 'network-only' }), pendingRefreshMs);
    return () => clearInterval(timer);
  }, [waiting, reload]);

  return (
    <section aria-labelledby="inbox-title">
      <h1 id="inbox-title">{t('inbox.title')}</h1>
      <p className="muted">{t('inbox.intro')}</p>
      <fieldset className="actions inbox-filters">
        <legend>{t('inbox.filters')}</legend>
        <div className="field">
          <label htmlFor={ids.account}>{t('inbox.account')}</label>
          <select id={ids.account} value={connectionId} onChange={(event) => setConnectionId(event.target.value)}>
            <option value="">{t('inbox.allAccounts')}</option>
            {accounts.map((account) => (
              <option key={account.id} value={account.id}>
                {account.displayName} (@{account.username}, {networkLook(account.provider).name})
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.network}>{t('inbox.network')}</label>
          <select id={ids.network} value={provider} onChange={(event) => setProvider(event.target.value)}>
            <option value="">{t('inbox.allNetworks')}</option>
            {networks.map((network) => (
              <option key={network} value={network}>
                {networkLook(network).name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.status}>{t('inbox.show')}</label>
          <select id={ids.status} value={status} onChange={(event) => setStatus(event.target.value as ItemStatus | '')}>
            <option value="OPEN">{t('inbox.showOpen')}</option>
            <option value="DONE">{t('inbox.showDone')}</option>
            <option value="">{t('inbox.showAll')}</option>
          </select>
        </div>
      </fieldset>
      {data && items.length === 0 && (
        <EmptyState title={t('inbox.none')}>
          <p>{t('inbox.noneHint')}</p>
        </EmptyState>
      )}
      <ul className="endpoints">
        {items.map((item) => (
          <InboxEntry
            key={item.id}
            item={item}
            account={accounts.find((account) => account.id === item.connectionId)}
            rules={data?.providers.find((rules) => rules.provider === item.provider)}
            onChanged={() => reload({ requestPolicy: 'network-only' })}
          />
        ))}
      </ul>
    </section>
  );
}

function InboxEntry({ item, account, rules, onChanged }: { item: Item; account: Account | undefined; rules: Rules | undefined; onChanged: () => void }) {
  const [, updateItem] = useMutation(UpdateInboxItem);
  const [, reply] = useMutation(ReplyToInboxItem);
  const [error, setError] = useState<ApiError | null>(null);
  const [text, setText] = useState('');
  const replyId = useId();
  const headingId = `inbox-${item.id}-author`;
  const placement = item.post?.targets.find((target) => target.id === item.targetId)?.placement.toLowerCase();
  // The server counts an answer as the placement of the post it answers (src/posts/validation.ts checkReplyText).
  const caption = (rules?.placements.find((candidate) => candidate.name === placement) ?? rules?.placements[0])?.caption;
  const length = caption ? captionLength(text, caption) : 0;
  const network = networkLook(item.provider).name;

  async function act(pending: Promise<OperationResult>): Promise<boolean> {
    const { error: failure } = await pending;
    setError(failure ? apiErrorOf(failure) : null);
    if (!failure) onChanged();
    return !failure;
  }

  return (
    <li className="card" data-inbox-item={item.id}>
      <p className="endpoint-head">
        <span aria-hidden="true">
          <Avatar src={item.author.avatarUrl} name={item.author.displayName} size={28} />
        </span>
        <strong id={headingId}>
          {item.author.displayName} (@{item.author.username})
        </strong>
        <span className="muted">
          {t('inbox.kind', { kind: item.kind })} · {formatDateTime(item.createdAt)}
        </span>
        {item.status === 'DONE' && <StatusBadge tone="neutral">{t('inbox.done')}</StatusBadge>}
      </p>
      <blockquote>{item.text}</blockquote>
      {item.remoteUrl && (
        <p>
          <a href={item.remoteUrl} target="_blank" rel="noreferrer" aria-describedby={headingId}>
            {t('inbox.openOnNetwork', { network })}
          </a>
        </p>
      )}
      {item.post && (
        <p className="muted">
          {item.post.thumbnailUrl && <img src={item.post.thumbnailUrl} alt="" width={48} height={48} />}
          <NetworkIcon provider={item.provider} />{' '}
          {account ? t('inbox.onPostOf', { account: `${account.displayName} (@${account.username})` }) : t('inbox.onPost')}{' '}
          <Link href={postPath(item.post.id)}>{item.post.content.caption || t('inbox.untitledPost')}</Link>
        </p>
      )}
      {item.replies.length > 0 && (
        <ul aria-label={t('inbox.answers')}>
          {item.replies.map((answer) => (
            <li key={answer.id}>
              <StatusBadge tone={replyTones[answer.status]}>{t('inbox.replyStatus', { status: answer.status })}</StatusBadge> {answer.text}
              {answer.status === 'PUBLISHED' && answer.remoteUrl && (
                <>
                  {' '}
                  <a href={answer.remoteUrl} target="_blank" rel="noreferrer">
                    {t('inbox.viewReply', { network })}
                  </a>
                </>
              )}
              {answer.status === 'FAILED' && answer.error && <span className="error"> {answer.error.message}</span>}
            </li>
          ))}
        </ul>
      )}
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          if (await act(reply({ id: item.id, text }))) setText('');
        }}
      >
        <ErrorBanner error={error} />
        <div className="field">
          <label htmlFor={replyId}>{t('inbox.replyTo', { author: item.author.displayName })}</label>
          <textarea id={replyId} value={text} rows={2} onChange={(event) => setText(event.target.value)} />
          {caption && (
            <span className={length > caption.maxLength ? 'counter over' : 'counter'}>{t('composer.counter', { length, max: caption.maxLength })}</span>
          )}
          {detailFor(error, 'text') && <p className="field-error">{detailFor(error, 'text')}</p>}
        </div>
        <div className="actions">
          <Button type="submit" variant="primary" aria-describedby={headingId}>
            {t('inbox.send')}
          </Button>
          <Button aria-describedby={headingId} onPress={() => act(updateItem({ id: item.id, status: item.status === 'OPEN' ? 'DONE' : 'OPEN' }))}>
            {item.status === 'OPEN' ? t('inbox.markDone') : t('inbox.reopen')}
          </Button>
        </div>
      </form>
    </li>
  );
}
