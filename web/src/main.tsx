import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { fetchSession } from './api/auth.ts';
import { language, loadMessages } from './i18n.ts';
import { applyStoredTheme } from './ui/theme.ts';
import './styles.css';

// The catalog and the session at once: the first page waits for both, not one after the other.
const [, session] = await Promise.all([loadMessages(), fetchSession().catch(() => null)]);
document.documentElement.lang = language;
applyStoredTheme();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App initialSession={session} />
  </StrictMode>,
);
