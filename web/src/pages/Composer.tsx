// The composer: a caption, media with alt text, the accounts and placements it goes to (each with its own caption if
// wanted and the network's settings), a live count and the API's own rule check per target, AI help for the caption,
// a preview per network; then save as draft, publish now, schedule, or add to a queue. The parts live in ../composer/.
import { useState } from 'react';
import { useClient, useQuery } from 'urql';
import { ApiError } from '../api/auth.ts';
import { apiErrorOf } from '../api/client.ts';
import { t } from '../i18n.ts';
import { navigate } from '../router.ts';
import { fromLocalInput, timeZone } from '../time.ts';
import { detailFor, ErrorBanner } from '../ui.tsx';
import type { MediaItem } from '../media/MediaPicker.tsx';
import { AiTools } from '../composer/AiTools.tsx';
import { Attachments } from '../composer/Attachments.tsx';
import { targetInputs, type Account, type ProviderRules, type TargetDraft } from '../composer/model.ts';
import type { Provider } from '../../../schema/generated/graphql.ts';
import { Preview } from '../composer/Preview.tsx';
import { PublishActions, type Submission } from '../composer/PublishActions.tsx';
import { TargetRow } from '../composer/TargetRow.tsx';
import { useRuleCheck } from '../composer/useRuleCheck.ts';
import '../composer/composer.css';

const ComposerData = `
  query ComposerData {
    socialAccounts(first: 100) { edges { node { id displayName username provider status } } }
    providers { provider displayName settings placements { name caption { maxLength countedIn charactersPerUrl required } media { max } } }
  }`;
const CreatePost = `mutation CreatePost($content: PostContentInput!, $targets: [TargetInput!]!) { createPost(content: $content, targets: $targets) { id } }`;
const PublishPost = `mutation PublishPost($id: ID!) { publishPost(id: $id) { id status } }`;
const SchedulePost = `mutation SchedulePost($id: ID!, $scheduledAt: DateTime!, $timezone: String!) { schedulePost(id: $id, scheduledAt: $scheduledAt, timezone: $timezone) { id status scheduledAt } }`;
const QueuePost = `mutation QueuePost($id: ID!, $queueId: ID!) { queuePost(id: $id, queueId: $queueId) { id status scheduledAt } }`;

export function Composer() {
  const client = useClient();
  const [{ data }] = useQuery<{ socialAccounts: { edges: { node: Account }[] }; providers: ProviderRules[] }>({ query: ComposerData });
  const [caption, setCaption] = useState('');
  const [attachments, setAttachments] = useState<MediaItem[]>([]);
  const [targets, setTargets] = useState<TargetDraft[]>([]);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);

  const rulesOf = (provider: Provider) => data?.providers.find((rules) => rules.provider === provider);
  const accounts = (data?.socialAccounts.edges ?? []).map((edge) => edge.node).filter((account) => account.status === 'ACTIVE');
  const content = { caption, mediaIds: attachments.map((file) => file.id) };
  const inputs = targetInputs(targets);
  const findings = useRuleCheck(content, inputs);

  function changeTarget(account: Account, changed: TargetDraft | undefined) {
    const others = targets.filter((target) => target.account.id !== account.id);
    const at = targets.findIndex((target) => target.account.id === account.id);
    if (!changed) return setTargets(others);
    setTargets(at < 0 ? [...targets, changed] : targets.map((target, index) => (index === at ? changed : target)));
  }

  async function submit(submission: Submission) {
    setBusy(true);
    setError(null);
    try {
      const created = await client.mutation(CreatePost, { content, targets: inputs }).toPromise();
      if (created.error) throw apiErrorOf(created.error);
      const id = (created.data as { createPost: { id: string } }).createPost.id;
      const next =
        submission.action === 'publish'
          ? await client.mutation(PublishPost, { id }).toPromise()
          : submission.action === 'schedule'
            ? await client.mutation(SchedulePost, { id, scheduledAt: fromLocalInput(submission.at), timezone: timeZone }).toPromise()
            : submission.action === 'queue'
              ? await client.mutation(QueuePost, { id, queueId: submission.queueId }).toPromise()
              : null;
      if (next?.error) throw apiErrorOf(next.error);
      navigate(`/posts/${id}`);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError('NETWORK', String(caught)));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="composer-title" className="composer">
      <h1 id="composer-title">{t('composer.title')}</h1>
      <ErrorBanner error={error} />
      <div className="field">
        <label htmlFor="caption">{t('composer.caption')}</label>
        <textarea id="caption" rows={5} value={caption} onChange={(event) => setCaption(event.target.value)} />
        {detailFor(error, 'content.caption') && <p className="field-error">{detailFor(error, 'content.caption')}</p>}
      </div>
      <AiTools caption={caption} provider={targets[0]?.account.provider} onUseCaption={setCaption} />
      <Attachments attachments={attachments} onChange={setAttachments} error={error} />

      <fieldset>
        <legend>{t('composer.accounts')}</legend>
        {data && !accounts.length && <p>{t('composer.noAccounts')}</p>}
        {accounts.map((account) => {
          const index = targets.findIndex((target) => target.account.id === account.id);
          return (
            <TargetRow
              key={account.id}
              account={account}
              rules={rulesOf(account.provider)}
              target={targets[index]}
              index={index}
              caption={caption}
              findings={findings[index] ?? []}
              error={error}
              onChange={(changed) => changeTarget(account, changed)}
            />
          );
        })}
        {detailFor(error, 'targets') && <p className="field-error">{detailFor(error, 'targets')}</p>}
      </fieldset>

      <Preview
        targets={targets}
        caption={caption}
        attachments={attachments}
        placementOf={(target) => rulesOf(target.account.provider)?.placements.find((placement) => placement.name === target.placement)}
        networkOf={(target) => rulesOf(target.account.provider)?.displayName ?? target.account.provider}
      />
      <PublishActions busy={busy} error={error} onSubmit={submit} />
    </section>
  );
}
