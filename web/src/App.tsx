// The signed-in frame: who is signed in, the workspace switcher, the navigation and the page of the current path.
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Provider } from 'urql';
import { fetchSession, signOut, type Session } from './api/auth.ts';
import { graphClient } from './api/client.ts';
import { t, type MessageKey } from './i18n.ts';
import { navigate, usePath } from './router.ts';
import { Link } from './ui.tsx';
import { SignIn } from './pages/SignIn.tsx';
import { Calendar } from './pages/Calendar.tsx';
import { Composer } from './pages/Composer.tsx';
import { PostDetail } from './pages/PostDetail.tsx';
import { Accounts } from './pages/Accounts.tsx';
import { ApiKeys } from './pages/ApiKeys.tsx';
import { Webhooks } from './pages/Webhooks.tsx';
import { People } from './pages/People.tsx';
import { RequestLog } from './pages/RequestLog.tsx';
import { AiCredits } from './pages/AiCredits.tsx';
import { Queues } from './pages/Queues.tsx';

// Pages loaded when first opened, so their code stays out of the first page's JavaScript.
const Media = lazy(() => import('./pages/Media.tsx'));
const Analytics = lazy(() => import('./pages/Analytics.tsx'));

const workspaceStorageKey = 'sps.workspaceId';
const pages: { path: string; label: MessageKey }[] = [
  { path: '/calendar', label: 'nav.calendar' },
  { path: '/compose', label: 'nav.compose' },
  { path: '/media', label: 'nav.media' },
  { path: '/queues', label: 'queues.nav' },
  { path: '/analytics', label: 'analytics.nav' },
  { path: '/accounts', label: 'nav.accounts' },
  { path: '/api-keys', label: 'nav.apiKeys' },
  { path: '/webhooks', label: 'nav.webhooks' },
  { path: '/people', label: 'nav.people' },
  { path: '/request-log', label: 'nav.requestLog' },
  { path: '/ai-credits', label: 'nav.aiCredits' },
];

function Page({ path, workspaceId }: { path: string; workspaceId: string }) {
  const post = /^\/posts\/([^/]+)$/.exec(path);
  if (post) return <PostDetail id={decodeURIComponent(post[1]!)} />;
  switch (path) {
    case '/compose':
      return <Composer />;
    case '/media':
      return <Media />;
    case '/queues':
      return <Queues />;
    case '/analytics':
      return <Analytics workspaceId={workspaceId} />;
    case '/accounts':
      return <Accounts />;
    case '/api-keys':
      return <ApiKeys />;
    case '/webhooks':
      return <Webhooks />;
    case '/people':
      return <People />;
    case '/request-log':
      return <RequestLog />;
    case '/ai-credits':
      return <AiCredits />;
    default:
      return <Calendar />;
  }
}

/** `initialSession`: who is signed in when the page loaded (null: nobody). */
export function App({ initialSession }: { initialSession: Session | null }) {
  const [session, setSession] = useState<Session | null>(initialSession);
  const [workspaceId, setWorkspaceId] = useState<string | null>(() => localStorage.getItem(workspaceStorageKey));
  const path = usePath();

  const workspace = session?.workspaces.find((candidate) => candidate.id === workspaceId) ?? session?.workspaces[0];
  const activeWorkspaceId = workspace?.id;
  const client = useMemo(() => (activeWorkspaceId ? graphClient(activeWorkspaceId) : null), [activeWorkspaceId]);

  useEffect(() => {
    const title = pages.find((page) => page.path === path)?.label;
    document.title = `${title ? t(title) : t('app.title')} · ${t('app.title')}`;
  }, [path]);

  if (session === null) return <SignIn onSignedIn={() => fetchSession().then(setSession)} />;
  if (!workspace || !client) return <p role="alert">{t('app.noWorkspace')}</p>;

  return (
    <Provider value={client}>
      <header className="top">
        <a className="skip" href="#main">
          {t('app.skipToContent')}
        </a>
        <strong>{t('app.title')}</strong>
        <label className="switcher">
          {t('app.workspace')}
          <select
            value={workspace.id}
            onChange={(event) => {
              localStorage.setItem(workspaceStorageKey, event.target.value);
              setWorkspaceId(event.target.value);
            }}
          >
            {session.workspaces.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.name}
              </option>
            ))}
          </select>
        </label>
        <span className="who">{session.user.email}</span>
        <button
          type="button"
          onClick={async () => {
            await signOut();
            setSession(null);
            navigate('/');
          }}
        >
          {t('app.signOut')}
        </button>
      </header>
      <nav aria-label={t('app.navigation')}>
        <ul>
          {pages.map((page) => (
            <li key={page.path}>
              <Link href={page.path} aria-current={path === page.path || (page.path === '/calendar' && path === '/') ? 'page' : undefined}>
                {t(page.label)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" key={workspace.id}>
        <Suspense fallback={<p className="loading">{t('common.loading')}</p>}>
          <Page path={path} workspaceId={workspace.id} />
        </Suspense>
      </main>
    </Provider>
  );
}
