// The small screens' menu: the pages, the workspaces, the theme and signing out, in one react-aria menu (arrow keys,
// typeahead, Escape). Loaded only on small screens, so wide ones never fetch the menu's code. The inbox's open count
// is on the menu's button and beside the inbox, as the sidebar shows it beside its link.
import { Header, Menu, MenuItem, MenuSection, MenuTrigger, Popover, RouterProvider } from 'react-aria-components';
import type { FrameProps } from './App.tsx';
import { t } from './i18n.ts';
import { useOpenInboxCount } from './inbox/openCount.ts';
import { isCurrent, sections } from './navigation.ts';
import { navigate } from './router.ts';
import { Button } from './ui/Button.tsx';
import { setTheme, useTheme } from './ui/theme.ts';

export default function FrameMenu({ session, workspaceId, path, onWorkspace, onSignOut }: FrameProps) {
  const theme = useTheme();
  const openCount = useOpenInboxCount();
  const countBadge = openCount > 0 && (
    <span className="badge badge-info nav-count" aria-hidden="true">
      {openCount}
    </span>
  );
  // The count read out as the description of the button and of the inbox's item, as the sidebar's link has it.
  const described = openCount > 0 ? 'menu-inbox-open-count' : undefined;
  return (
    <RouterProvider navigate={navigate}>
      {described && (
        <span id={described} hidden>
          {t('inbox.openCount', { count: openCount })}
        </span>
      )}
      <MenuTrigger>
        <Button variant="secondary" aria-describedby={described}>
          {t('app.menu')}
          {countBadge}
        </Button>
        <Popover className="menu-popover" placement="bottom end">
          <Menu className="menu" aria-label={t('app.menu')}>
            {sections.map((section) => (
              <MenuSection key={section.title} id={section.title}>
                <Header className="menu-section-title">{t(section.title)}</Header>
                {section.pages.map((page) => (
                  <MenuItem
                    key={page.path}
                    id={page.path}
                    href={page.path}
                    textValue={t(page.label)}
                    className="menu-item"
                    aria-describedby={page.path === '/inbox' ? described : undefined}
                    aria-current={isCurrent(page, path) ? 'page' : undefined}
                  >
                    {t(page.label)}
                    {page.path === '/inbox' && countBadge}
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
            <MenuSection id="account">
              <Header className="menu-section-title">{session.user.email}</Header>
              {/* An action named after the theme it switches to (a checkable item re-rendered under the press crashed the tab). */}
              <MenuItem id="theme" className="menu-item" onAction={() => setTheme(theme === 'dark' ? 'light' : 'dark')}>
                {t(theme === 'dark' ? 'app.lightTheme' : 'app.darkTheme')}
              </MenuItem>
              <MenuItem id="sign-out" className="menu-item" onAction={onSignOut}>
                {t('app.signOut')}
              </MenuItem>
            </MenuSection>
          </Menu>
        </Popover>
      </MenuTrigger>
    </RouterProvider>
  );
}
