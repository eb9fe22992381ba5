// The signed-in frame: a sidebar with the pages grouped (Publish, Insights, Settings), the workspace switcher, who is
// signed in and the theme; on small screens a top bar whose menu holds the same. The calendar, the first page, is in
// the first page's JavaScript; every other page is loaded when first opened.
import { lazy, Suspense, useEffect, useMemo, useState, type ComponentType } from 'react';
import { Header, Menu, MenuItem, MenuSection, MenuTrigger, Popover, RouterProvider, Switch } from 'react-aria-components';
import { Provider } from 'urql';
import { fetchSession, signOut, type Session } from './api/auth.ts';
import { graphClient } from './api/client.ts';
import { t, type MessageKey } from './i18n.ts';
import { navigate, postRoute, usePath } from './router.ts';
import { Link } from './ui.tsx';
import { Avatar } from './ui/Avatar.tsx';
import { Button } from './ui/Button.tsx';
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
const Media = lazyPage<object>(() => import('./pages/Media.tsx'), 'default');
const Analytics = lazyPage<{ workspaceId: string }>(() => import('./pages/Analytics.tsx'), 'default');
const Accounts = lazyPage<object>(() => import('./pages/Accounts.tsx'), 'Accounts');
const People = lazyPage<object>(() => import('./pages/People.tsx'), 'People');
const ApiKeys = lazyPage<object>(() => import('./pages/ApiKeys.tsx'), 'ApiKeys');
const Webhooks = lazyPage<object>(() => import('./pages/Webhooks.tsx'), 'Webhooks');
const RequestLog = lazyPage<object>(() => import('./pages/RequestLog.tsx'), 'RequestLog');
const AiCredits = lazyPage<object>(() => import('./pages/AiCredits.tsx'), 'AiCredits');

const workspaceStorageKey = 'sps.workspaceId';
interface NavPage {
  path: string;
  label: MessageKey;
}
const sections: { title: MessageKey; pages: NavPage[] }[] = [
  {
    title: 'nav.publish',
    pages: [
      { path: '/calendar', label: 'nav.calendar' },
      { path: '/compose', label: 'nav.compose' },
      { path: '/queues', label: 'queues.nav' },
      { path: '/media', label: 'nav.media' },
    ],
  },
  { title: 'nav.insights', pages: [{ path: '/analytics', label: 'analytics.nav' }] },
  {
    title: 'nav.settings',
    pages: [
      { path: '/accounts', label: 'nav.accounts' },
      { path: '/people', label: 'nav.people' },
      { path: '/api-keys', label: 'nav.apiKeys' },
      { path: '/webhooks', label: 'nav.webhooks' },
      { path: '/request-log', label: 'nav.requestLog' },
      { path: '/ai-credits', label: 'nav.aiCredits' },
    ],
  },
];
const isCurrent = (page: NavPage, path: string) => path === page.path || (page.path === '/calendar' && path === '/');

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

interface FrameProps {
  session: Session;
  workspaceId: string;
  path: string;
  onWorkspace: (id: string) => void;
  onSignOut: () => void;
}

function Sidebar({ session, workspaceId, path, onWorkspace, onSignOut }: FrameProps) {
  const theme = useTheme();
  return (
    <aside className="sidebar">
      <p className="brand">{t('app.title')}</p>
      <nav aria-label={t('app.navigation')}>
        {sections.map((section) => (
          <div key={section.title} className="nav-group" role="group" aria-labelledby={`nav-${section.title}`}>
            <h2 id={`nav-${section.title}`}>{t(section.title)}</h2>
            <ul>
              {section.pages.map((page) => (
                <li key={page.path}>
                  <Link href={page.path} aria-current={isCurrent(page, path) ? 'page' : undefined}>
                    {t(page.label)}
                  </Link>
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
          <Switch className="switch" isSelected={theme === 'dark'} onChange={(dark) => setTheme(dark ? 'dark' : 'light')}>
            <span className="switch-track" aria-hidden="true" />
            {t('app.darkTheme')}
          </Switch>
          <Button variant="secondary" onPress={onSignOut}>
            {t('app.signOut')}
          </Button>
        </div>
      </div>
    </aside>
  );
}

/** The top bar of small screens: the pages, the workspaces, the theme and signing out in one menu. */
function TopBar({ session, workspaceId, path, onWorkspace, onSignOut }: FrameProps) {
  const theme = useTheme();
  return (
    <header className="topbar">
      <p className="brand">{t('app.title')}</p>
      <MenuTrigger>
        <Button variant="secondary">{t('app.menu')}</Button>
        <Popover className="menu-popover" placement="bottom end">
          <Menu className="menu" aria-label={t('app.menu')}>
            {sections.map((section) => (
              <MenuSection key={section.title} id={section.title}>
                <Header className="menu-section-title">{t(section.title)}</Header>
                {section.pages.map((page) => (
                  <MenuItem key={page.path} id={page.path} href={page.path} className="menu-item" aria-current={isCurrent(page, path) ? 'page' : undefined}>
                    {t(page.label)}
                  </MenuItem>
                ))}
              </MenuSection>
            ))}
            <MenuSection
              id="workspace"
              selectionMode="single"
              disallowEmptySelection
              selectedKeys={[workspaceId]}
              onSelectionChange={(keys) => {
                const [id] = keys === 'all' ? [] : [...keys];
                if (typeof id === 'string') onWorkspace(id);
              }}
            >
              <Header className="menu-section-title">{t('app.workspace')}</Header>
              {session.workspaces.map((candidate) => (
                <MenuItem key={candidate.id} id={candidate.id} className="menu-item">
                  {candidate.name}
                </MenuItem>
              ))}
            </MenuSection>
            <MenuSection
              id="account"
              selectionMode="multiple"
              selectedKeys={theme === 'dark' ? ['dark'] : []}
              onSelectionChange={(keys) => setTheme(keys !== 'all' && keys.has('dark') ? 'dark' : 'light')}
            >
              <Header className="menu-section-title">{session.user.email}</Header>
              <MenuItem id="dark" className="menu-item">
                {t('app.darkTheme')}
              </MenuItem>
            </MenuSection>
            <MenuSection id="sign-out">
              <MenuItem id="sign-out" className="menu-item" onAction={onSignOut}>
                {t('app.signOut')}
              </MenuItem>
            </MenuSection>
          </Menu>
        </Popover>
      </MenuTrigger>
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
    <RouterProvider navigate={navigate}>
      <Provider value={client}>
        <a className="skip" href="#main">
          {t('app.skipToContent')}
        </a>
        <div className="frame">
          <TopBar {...frame} />
          <Sidebar {...frame} />
          <main id="main" key={workspace.id}>
            <Suspense fallback={<p className="loading">{t('common.loading')}</p>}>
              <Page path={path} workspaceId={workspace.id} />
            </Suspense>
          </main>
        </div>
      </Provider>
    </RouterProvider>
  );
}
