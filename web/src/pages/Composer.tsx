// The composer: a caption, the accounts and placements it goes to, a live count and the API's own rule check
// (validatePost) per target, then save as draft, publish now or schedule.
import { useEffect, useMemo, useState } from 'react';
import { useClient, useQuery } from 'urql';
import { ApiError } from '../api/auth.ts';
import { apiErrorOf } from '../api/client.ts';
import { t } from '../i18n.ts';
import { navigate } from '../router.ts';
import { fromLocalInput, timeZone } from '../time.ts';
import { detailFor, ErrorBanner, Field } from '../ui.tsx';

const ComposerData = `
  query ComposerData {
    socialAccounts(first: 100) { edges { node { id displayName username provider status } } }
    providers { provider displayName placements { name caption { maxLength countedIn required } } }
  }`;

const ValidatePost = `
  query ValidatePost($content: PostContentInput!, $targets: [TargetInput!]!) {
    validatePost(content: $content, targets: $targets) { valid targets { index findings { code field message } } }
  }`;

const CreatePost = `mutation CreatePost($content: PostContentInput!, $targets: [TargetInput!]!) { createPost(content: $content, targets: $targets) { id } }`;
const PublishPost = `mutation PublishPost($id: ID!) { publishPost(id: $id) { id status } }`;
const SchedulePost = `mutation SchedulePost($id: ID!, $scheduledAt: DateTime!, $timezone: String!) { schedulePost(id: $id, scheduledAt: $scheduledAt, timezone: $timezone) { id status scheduledAt } }`;

interface Account { id: string; displayName: string; username: string; provider: string; status: string }
interface PlacementRules { name: string; caption: { maxLength: number; countedIn: string; required: boolean } }
interface ProviderRules { provider: string; displayName: string; placements: PlacementRules[] }
interface Finding { code: string; field: string; message: string }

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
function lengthOf(text: string, countedIn: string): number {
  return countedIn === 'graphemes' ? [...graphemes.segment(text)].length : [...text].length;
}

type Action = 'draft' | 'publish' | 'schedule';

export function Composer() {
  const client = useClient();
  const [{ data }] = useQuery<{ socialAccounts: { edges: { node: Account }[] }; providers: ProviderRules[] }>({ query: ComposerData });
  const [caption, setCaption] = useState('');
  const [placements, setPlacements] = useState<Record<string, string>>({});
  const [scheduleAt, setScheduleAt] = useState('');
  const [findings, setFindings] = useState<Finding[][]>([]);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);

  const accounts = (data?.socialAccounts.edges ?? []).map((edge) => edge.node).filter((account) => account.status === 'ACTIVE');
  const rulesOf = (provider: string) => data?.providers.find((rules) => rules.provider === provider);
  const targets = useMemo(
    () => Object.entries(placements).map(([connectionId, placement]) => ({ connectionId, placement: placement.toUpperCase() })),
    [placements],
  );
  const content = { caption };

  useEffect(() => {
    if (!targets.length) return setFindings([]);
    // The same checks as createPost, run by the API as the person types.
    const timer = setTimeout(async () => {
      const result = await client.query(ValidatePost, { content: { caption }, targets }, { requestPolicy: 'network-only' }).toPromise();
      const validation = result.data?.validatePost as { targets: { index: number; findings: Finding[] }[] } | undefined;
      if (validation) setFindings(targets.map((_, index) => validation.targets.find((target) => target.index === index)?.findings ?? []));
    }, 300);
    return () => clearTimeout(timer);
  }, [caption, targets, client]);

  async function submit(action: Action) {
    setBusy(true);
    setError(null);
    try {
      const created = await client.mutation(CreatePost, { content, targets }).toPromise();
      if (created.error) throw apiErrorOf(created.error);
      const id = (created.data as { createPost: { id: string } }).createPost.id;
      const next =
        action === 'publish'
          ? await client.mutation(PublishPost, { id }).toPromise()
          : action === 'schedule'
            ? await client.mutation(SchedulePost, { id, scheduledAt: fromLocalInput(scheduleAt), timezone: timeZone }).toPromise()
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
    <section aria-labelledby="composer-title">
      <h1 id="composer-title">{t('composer.title')}</h1>
      <ErrorBanner error={error} />
      <div className="field">
        <label htmlFor="caption">{t('composer.caption')}</label>
        <textarea id="caption" rows={5} value={caption} onChange={(event) => setCaption(event.target.value)} />
        {detailFor(error, 'content.caption') && <p className="field-error">{detailFor(error, 'content.caption')}</p>}
      </div>

      <fieldset>
        <legend>{t('composer.accounts')}</legend>
        {data && !accounts.length && <p>{t('composer.noAccounts')}</p>}
        {accounts.map((account) => {
          const rules = rulesOf(account.provider);
          const placement = placements[account.id];
          const index = targets.findIndex((target) => target.connectionId === account.id);
          const placementRules = rules?.placements.find((candidate) => candidate.name === placement);
          const length = placementRules ? lengthOf(caption, placementRules.caption.countedIn) : 0;
          return (
            <div key={account.id} className="target">
              <label>
                <input
                  type="checkbox"
                  checked={placement !== undefined}
                  onChange={(event) => {
                    const { [account.id]: _removed, ...others } = placements;
                    setPlacements(event.target.checked ? { ...others, [account.id]: rules?.placements[0]?.name ?? 'feed' } : others);
                  }}
                />
                {account.displayName} (@{account.username}, {rules?.displayName ?? account.provider})
              </label>
              {placement !== undefined && (
                <>
                  <label>
                    {t('composer.placement')}
                    <select value={placement} onChange={(event) => setPlacements({ ...placements, [account.id]: event.target.value })}>
                      {rules?.placements.map((candidate) => (
                        <option key={candidate.name} value={candidate.name}>
                          {candidate.name}
                        </option>
                      ))}
                    </select>
                  </label>
                  {placementRules && (
                    <span className={length > placementRules.caption.maxLength ? 'counter over' : 'counter'} aria-live="polite">
                      {t('composer.counter', { length, max: placementRules.caption.maxLength })}
                    </span>
                  )}
                  <ul className="findings" aria-live="polite">
                    {(findings[index] ?? []).map((finding) => (
                      <li key={finding.code + finding.field}>{finding.message}</li>
                    ))}
                  </ul>
                  {detailFor(error, `targets[${index}]`) && <p className="field-error">{detailFor(error, `targets[${index}]`)}</p>}
                </>
              )}
            </div>
          );
        })}
        {detailFor(error, 'targets') && <p className="field-error">{detailFor(error, 'targets')}</p>}
      </fieldset>

      <div className="actions">
        <button type="button" disabled={busy} onClick={() => submit('draft')}>
          {t('composer.saveDraft')}
        </button>
        <button type="button" disabled={busy} onClick={() => submit('publish')}>
          {t('composer.publishNow')}
        </button>
      </div>
      <div className="actions">
        <Field
          label={t('composer.scheduleAt', { timeZone })}
          type="datetime-local"
          value={scheduleAt}
          onChange={(event) => setScheduleAt(event.target.value)}
          error={detailFor(error, 'scheduledAt')}
        />
        <button type="button" disabled={busy || !scheduleAt} onClick={() => submit('schedule')}>
          {t('composer.schedule')}
        </button>
      </div>
    </section>
  );
}
