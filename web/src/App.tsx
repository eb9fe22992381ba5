// The signed-in frame: a sidebar with the pages grouped (Publish, Insights, Settings), the workspace switcher, who is
// signed in and the theme; on small screens a top bar whose menu holds the same. The calendar, the first page, is in
// the first page's JavaScript; every other page is loaded when first opened.
import { lazy, Suspense, useEffect, useMemo, useState, type ComponentType } from 'react';
import { Provider } from 'urql';
import { fetchSession, signOut, type Session } from './api/auth.ts';
import { graphClient } from './api/client.ts';
import { t } from './i18n.ts';
import { useOpenInboxCount } from './inbox/openCount.ts';
import { isCurrent, sections } from './navigation.ts';
import { navigate, postRoute, usePath } from './router.ts';
import { Link } from './ui.tsx';
import { Avatar } from './ui/Avatar.tsx';
import { Button } from './ui/Button.tsx';
import { RateLimitNotice } from './ui/RateLimitNotice.tsx';
import { useMediaQuery } from './ui/useMediaQuery.ts';
import { setTheme, useTheme } from './ui/theme.ts';
import { SignIn } from './pages/SignIn.tsx';
import { Calendar } from './pages/Calendar.tsx';

/** A page module's named export as a lazily loaded component. */
function lazyPage<Props>(load: () => Promise<Record<string, unknown>>, name: string): ComponentType<Props> {
  return lazy(async () => ({ default: (await load())[name] as ComponentType<Props> }));
}

const Composer = lazyPage<{ postId?: string }>(() => import('./pages/Composer.tsx'), 'Composer');
const PostDetail = lazyPage<{ id: string }>(() => import('./pages/PostDetail.tsx'), 'PostDetail');
const Queues = lazyPage<object>(() => import('./pages/Queues.tsx'), 'Queues');
const Feeds = lazyPage<object>(() => import('./pages/Feeds.tsx'), 'Feeds');
const Inbox = lazyPage<object>(() => import('./pages/Inbox.tsx'), 'Inbox');
const Media = lazyPage<object>(() => import('./pages/Media.tsx'), 'default');
const Analytics = lazyPage<{ workspaceId: string }>(() => import('./pages/Analytics.tsx'), 'default');
const Accounts = lazyPage<object>(() => import('./pages/Accounts.tsx'), 'Accounts');
const People = lazyPage<object>(() => import('./pages/People.tsx'), 'People');
const ApiKeys = lazyPage<object>(() => import('./pages/ApiKeys.tsx'), 'ApiKeys');
const Webhooks = lazyPage<object>(() => import('./pages/Webhooks.tsx'), 'Webhooks');
const RequestLog = lazyPage<object>(() => import('./pages/RequestLog.tsx'), 'RequestLog');
const AiCredits = lazyPage<object>(() => import('./pages/AiCredits.tsx'), 'AiCredits');
const AuthorizeApp = lazyPage<{ session: Session }>(() => import('./pages/AuthorizeApp.tsx'), 'AuthorizeApp');
const FrameMenu = lazy(() => import('./FrameMenu.tsx'));

const workspaceStorageKey = 'sps.workspaceId';
function Page({ path, workspaceId }: { path: string; workspaceId: string }) {
  const post = postRoute(path);
  if (post) return post.edit ? <Composer key={post.id} postId={post.id} /> : <PostDetail key={post.id} id={post.id} />;
  switch (path) {
    case '/compose':
      return <Composer />;
    case '/media':
      return <Media />;
    case '/queues':
      return <Queues />;
    case '/feeds':
      return <Feeds />;
    case '/inbox':
      return <Inbox />;
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
      return <Calendar workspaceId={workspaceId} />;
  }
}

export interface FrameProps {
  session: Session;
  workspaceId: string;
  path: string;
  onWorkspace: (id: string) => void;
  onSignOut: () => void;
}

/** The inbox's link with its open (unread) count beside its name, read out as the link's description. */
function InboxLink({ current }: { current: boolean }) {
  const count = useOpenInboxCount();
  return (
    <>
      <Link href="/inbox" aria-current={current ? 'page' : undefined} aria-describedby={count > 0 ? 'inbox-open-count' : undefined}>
        {t('inbox.nav')}
        {count > 0 && (
          <span className="badge badge-info nav-count" aria-hidden="true">
            {count}
          </span>
        )}
      </Link>
      {count > 0 && (
        <span id="inbox-open-count" hidden>
          {t('inbox.openCount', { count })}
        </span>
      )}
    </>
  );
}

function Sidebar({ session, workspaceId, path, onWorkspace, onSignOut }: FrameProps) {
  const theme = useTheme();
  return (
    <aside className="sidebar">
      <p className="brand">{t('app.title')}</p>
      <nav aria-label={t('app.navigation')}>
        {sections.map((section) => (
          // biome-ignore lint/a11y/useSemanticElements: a group of links, not of form controls (fieldset is for forms)
          <div key={section.title} className="nav-group" role="group" aria-labelledby={`nav-${section.title}`}>
            <h2 id={`nav-${section.title}`}>{t(section.title)}</h2>
            <ul>
              {section.pages.map((page) => (
                <li key={page.path}>
                  {page.path === '/inbox' ? (
                    <InboxLink current={isCurrent(page, path)} />
                  ) : (
                    <Link href={page.path} aria-current={isCurrent(page, path) ? 'page' : undefined}>
                      {t(page.label)}
                    </Link>
                  )}
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      <div className="sidebar-footer">
        <label className="switcher">
          {t('app.workspace')}
          <select value={workspaceId} onChange={(event) => onWorkspace(event.target.value)}>
            {session.workspaces.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.name}
              </option>
            ))}
          </select>
        </label>
        <p className="who">
          <span aria-hidden="true">
            <Avatar src={null} name={session.user.name ?? session.user.email} size={28} />
          </span>
          <span>{session.user.email}</span>
        </p>
        <div className="sidebar-actions">
          <label className="switch">
            <input
              type="checkbox"
              role="switch"
              aria-checked={theme === 'dark'}
              checked={theme === 'dark'}
              onChange={(event) => setTheme(event.target.checked ? 'dark' : 'light')}
            />
            <span className="switch-track" aria-hidden="true" />
            {t('app.darkTheme')}
          </label>
          <Button variant="secondary" onPress={onSignOut}>
            {t('app.signOut')}
          </Button>
        </div>
      </div>
    </aside>
  );
}

/** The top bar of small screens; its menu's code is loaded only there. */
function TopBar(frame: FrameProps) {
  if (!useMediaQuery('(max-width: 48rem)')) return null;
  return (
    <header className="topbar">
      <p className="brand">{t('app.title')}</p>
      <Suspense fallback={<Button isDisabled>{t('app.menu')}</Button>}>
        <FrameMenu {...frame} />
      </Suspense>
    </header>
  );
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
    const title = sections.flatMap((section) => section.pages).find((page) => isCurrent(page, path))?.label;
    document.title = `${title ? t(title) : t('app.title')} · ${t('app.title')}`;
  }, [path]);

  if (session === null) return <SignIn onSignedIn={() => fetchSession().then(setSession)} />;
  // An MCP client's sign-in (rest/mcpAuth.ts): the consent page stands alone, after signing in if needed.
  if (path === '/apps/authorize') {
    return (
      <Suspense fallback={<p className="loading">{t('common.loading')}</p>}>
        <AuthorizeApp session={session} />
      </Suspense>
    );
  }
  if (!workspace || !client) return <p role="alert">{t('app.noWorkspace')}</p>;

  const frame: FrameProps = {
    session,
    workspaceId: workspace.id,
    path,
    onWorkspace: (id) => {
      localStorage.setItem(workspaceStorageKey, id);
      setWorkspaceId(id);
    },
    onSignOut: async () => {
      await signOut();
      setSession(null);
      navigate('/');
    },
  };
  return (
    <Provider value={client}>
      <a className="skip" href="#main">
        {t('app.skipToContent')}
      </a>
      <div className="frame">
        <TopBar {...frame} />
        <Sidebar {...frame} />
        <main id="main" key={workspace.id}>
          <RateLimitNotice />
          <Suspense fallback={<p className="loading">{t('common.loading')}</p>}>
            <Page path={path} workspaceId={workspace.id} />
          </Suspense>
        </main>
      </div>
    </Provider>
  );
}
