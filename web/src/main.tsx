import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { language, loadMessages } from './i18n.ts';
import './styles.css';

await loadMessages();
document.documentElement.lang = language;
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
