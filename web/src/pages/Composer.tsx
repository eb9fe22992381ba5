// The composer: a caption, media with alt text, the accounts and placements it goes to (each with its own caption if
// wanted and the network's settings), a live count and the API's own rule check per target, AI help for the caption,
// a preview per network; then save as draft, publish now, schedule, or add to a queue. The parts live in ../composer/.
import { useState } from 'react';
import { useClient, useQuery } from 'urql';
import { ApiError } from '../api/auth.ts';
import { t } from '../i18n.ts';
import { navigate, postPath } from '../router.ts';
import { timeZone } from '../time.ts';
import { detailFor, useFormError } from '../ui.tsx';
import { useMediaQuery } from '../ui/useMediaQuery.ts';
import { PaneTabs, type Pane } from '../composer/PaneTabs.tsx';
import type { MediaItem } from '../media/MediaPicker.tsx';
import { AccountPicker } from '../composer/AccountPicker.tsx';
import { AiTools } from '../composer/AiTools.tsx';
import { Attachments, MediaDropZone } from '../composer/Attachments.tsx';
import { targetInputs, threadInput, type Account, type ProviderRules, type TargetDraft, type ThreadPartDraft } from '../composer/model.ts';
import type { Provider } from '../../../schema/generated/graphql.ts';
import { Preview } from '../composer/Preview.tsx';
import { PublishActions } from '../composer/PublishActions.tsx';
import { asApiError, submissionsAllowed, submitComposed, type Submission } from '../posts/actions.ts';
import { PostErrorBanner } from '../posts/PostErrorBanner.tsx';
import { useEditedPost } from '../posts/useEditedPost.ts';
import { ReviewPanel } from '../posts/ReviewPanel.tsx';
import { TargetRow } from '../composer/TargetRow.tsx';
import { ThreadEditor } from '../composer/ThreadEditor.tsx';
import { useRuleCheck } from '../composer/useRuleCheck.ts';
import { useUploads } from '../composer/useUploads.ts';
import { proposedTime } from '../calendar/composeOn.ts';
import '../composer/composer.css';

const ComposerData = `
  query ComposerData {
    socialAccounts(first: 100) { edges { node { id displayName username provider status avatarUrl } } }
    providers { provider displayName settings placements { name caption { maxLength maxLengthWithMedia countedIn charactersPerUrl required } media { max } thread { maxParts } } }
  }`;

/** The API's generic words where the composer has the person's: no account chosen. */
function inComposerWords(error: ApiError): ApiError {
  const details = error.details.map((detail) =>
    detail.field === 'targets' && detail.code === 'minItems' ? { ...detail, message: t('composer.chooseAccount') } : detail,
  );
  return new ApiError(error.code, error.message, details);
}

/** `postId`: the saved post to edit (`/posts/<id>/edit`); without it, a new post. */
export function Composer({ postId }: { postId?: string }) {
  const client = useClient();
  const [{ data }] = useQuery<{ socialAccounts: { edges: { node: Account }[] }; providers: ProviderRules[] }>({ query: ComposerData });
  const [caption, setCaption] = useState('');
  const [attachments, setAttachments] = useState<MediaItem[]>([]);
  const [thread, setThread] = useState<ThreadPartDraft[]>([]);
  const [targets, setTargets] = useState<TargetDraft[]>([]);
  const { error, setError, changed } = useFormError();
  // Wide: the previews beside the editor; narrower: the editor and the previews as two tabs.
  const wide = useMediaQuery('(min-width: 64rem)');
  const [pane, setPane] = useState<Pane>('edit');
  const paneProps = (which: Pane) =>
    wide
      ? { className: `composer-pane-${which}` }
      : { className: `composer-pane-${which}`, role: 'tabpanel', id: `composer-${which}`, 'aria-labelledby': `composer-${which}-tab`, hidden: pane !== which };
  const [busy, setBusy] = useState(false);
  const edited = useEditedPost(postId, (post) => {
    setCaption(post.caption);
    setAttachments(post.attachments);
    setThread(post.thread);
    setTargets(post.targets);
    setError(null);
  });

  const rulesOf = (provider: Provider) => data?.providers.find((rules) => rules.provider === provider);
  const accounts = (data?.socialAccounts.edges ?? []).map((edge) => edge.node).filter((account) => account.status === 'ACTIVE');
  const content = { caption, mediaIds: attachments.map((file) => file.id), thread: threadInput(thread) };
  const inputs = targetInputs(targets);
  const findings = useRuleCheck(content, inputs);
  const { uploads, start: uploadFiles, dismiss: dismissUpload } = useUploads((media) => setAttachments((current) => [...current, media]));
  const networkOf = (provider: Provider) => rulesOf(provider)?.displayName ?? provider;

  /** The composer's name for a field the API names, for the banner of a refusal. */
  function labelOf(field: string): string | undefined {
    if (field === 'targets') return t('composer.accounts');
    if (field === 'content.caption') return t('composer.caption');
    if (field.startsWith('content.mediaIds')) return t('composer.media');
    if (field.startsWith('content.thread')) return t('composer.thread');
    const target = targets[Number(/^targets\[(\d+)\]/.exec(field)?.[1])];
    return target && t('composer.targetOf', { account: `@${target.account.username}`, network: networkOf(target.account.provider) });
  }

  function toggleAccount(account: Account, chosen: boolean) {
    changed('targets');
    const others = targets.filter((target) => target.account.id !== account.id);
    setTargets(chosen ? [...others, { account, placement: rulesOf(account.provider)?.placements[0]?.name ?? 'feed', override: null, settings: {} }] : others);
  }

  async function submit(submission: Submission) {
    setBusy(true);
    setError(null);
    try {
      navigate(postPath(await submitComposed(client, edited.saveAs, { content, targets: inputs }, submission, edited.saved)));
    } catch (caught) {
      setError(inComposerWords(asApiError(caught)));
    } finally {
      setBusy(false);
    }
  }

  const editor = (
    <MediaDropZone onFiles={uploadFiles}>
      <div className="composer-editor">
        <fieldset className="composer-accounts">
          <legend>{t('composer.accounts')}</legend>
          {data && !accounts.length && <p>{t('composer.noAccounts')}</p>}
          <AccountPicker
            accounts={accounts}
            chosen={new Set(targets.map((target) => target.account.id))}
            networkOf={(account) => networkOf(account.provider)}
            onToggle={toggleAccount}
          />
          {detailFor(error, 'targets') && <p className="field-error">{detailFor(error, 'targets')}</p>}
        </fieldset>
        <div className="field">
          <label htmlFor="caption">{t('composer.caption')}</label>
          <textarea
            id="caption"
            rows={6}
            value={caption}
            onChange={(event) => {
              changed('content.caption');
              setCaption(event.target.value);
            }}
          />
          {detailFor(error, 'content.caption') && <p className="field-error">{detailFor(error, 'content.caption')}</p>}
        </div>
        <Attachments
          attachments={attachments}
          onChange={(files) => {
            changed('content.mediaIds');
            setAttachments(files);
          }}
          uploads={uploads}
          onFiles={uploadFiles}
          onDismissUpload={dismissUpload}
          error={error}
        />
        <ThreadEditor
          parts={thread}
          onChange={(parts) => {
            changed('content.thread');
            setThread(parts);
          }}
          error={error}
        />
        {targets.length > 0 && (
          <section className="composer-targets" aria-labelledby="composer-targets-title">
            <h2 id="composer-targets-title">{t('composer.perAccount')}</h2>
            {targets.map((target, index) => (
              <TargetRow
                key={target.account.id}
                target={target}
                rules={rulesOf(target.account.provider)}
                index={index}
                caption={caption}
                withMedia={attachments.length > 0}
                findings={findings[index] ?? []}
                error={error}
                onChange={(edited) => {
                  changed(`targets[${index}]`);
                  setTargets(targets.map((other, at) => (at === index ? edited : other)));
                }}
              />
            ))}
          </section>
        )}
        <AiTools caption={caption} provider={targets[0]?.account.provider} onUseCaption={setCaption} />
      </div>
    </MediaDropZone>
  );
  const previews = (
    <div className="composer-previews">
      <Preview
        targets={targets}
        caption={caption}
        thread={thread}
        attachments={attachments}
        placementOf={(target) => rulesOf(target.account.provider)?.placements.find((placement) => placement.name === target.placement)}
        networkOf={(target) => networkOf(target.account.provider)}
      />
    </div>
  );

  return (
    <section aria-labelledby="composer-title" className="composer">
      <h1 id="composer-title">{t(postId ? 'postActions.editTitle' : 'composer.title')}</h1>
      <PostErrorBanner error={error ?? edited.error} onReload={edited.reload} labelOf={labelOf} />
      {/* One tree at every width (a resize keeps what is open); below 64rem the two parts are tabs. */}
      <div className={wide ? 'composer-layout' : 'composer-tabs'}>
        {!wide && <PaneTabs pane={pane} onPane={setPane} />}
        <div {...paneProps('edit')}>{editor}</div>
        <div {...paneProps('preview')}>{previews}</div>
      </div>
      {postId && <ReviewPanel postId={postId} onChanged={edited.reload} />}
      {/* The actions stay in view at the window's foot, whichever part is shown. */}
      <div className="composer-bar">
        <PublishActions
          key={edited.post?.version}
          busy={busy || (postId !== undefined && !edited.post)}
          error={error}
          onSubmit={submit}
          offered={submissionsAllowed(postId ? (edited.post?.actions ?? []) : null)}
          primary={postId ? 'save' : 'publish'}
          saveLabel={t(postId ? 'postActions.save' : 'composer.saveDraft')}
          timeZone={edited.post?.timezone ?? timeZone}
          scheduledAt={edited.post?.scheduledAt}
          // A new post written for a day of the calendar (`?day=`, `&hour=`) is proposed at a time on that day.
          proposedAt={postId ? null : proposedTime(new URLSearchParams(window.location.search))}
        />
      </div>
    </section>
  );
}
