// The small screens' menu: the pages, the workspaces, the theme and signing out, in one react-aria menu (arrow keys,
// typeahead, Escape). Loaded only on small screens, so wide ones never fetch the menu's code.
import { Header, Menu, MenuItem, MenuSection, MenuTrigger, Popover, RouterProvider } from 'react-aria-components';
import type { FrameProps } from './App.tsx';
import { t } from './i18n.ts';
import { isCurrent, sections } from './navigation.ts';
import { navigate } from './router.ts';
import { Button } from './ui/Button.tsx';
import { setTheme, useTheme } from './ui/theme.ts';

export default function FrameMenu({ session, workspaceId, path, onWorkspace, onSignOut }: FrameProps) {
  const theme = useTheme();
  return (
    <RouterProvider navigate={navigate}>
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
