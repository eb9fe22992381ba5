// The composer's two parts as tabs on a narrow screen: writing and the previews (WAI-ARIA tabs: the arrow keys move
// between them, Tab goes into the panel). The panels are the composer's own (`composer-edit`, `composer-preview`).
import { useRef, type KeyboardEvent } from 'react';
import { t } from '../i18n.ts';

export type Pane = 'edit' | 'preview';
const panes: Pane[] = ['edit', 'preview'];

export function PaneTabs({ pane, onPane }: { pane: Pane; onPane: (pane: Pane) => void }) {
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next = panes[(panes.indexOf(pane) + 1) % panes.length]!;
    onPane(next);
    list.current?.querySelector<HTMLElement>(`#composer-${next}-tab`)?.focus();
  };
  return (
    <div ref={list} role="tablist" aria-label={t('composer.panes')} className="composer-tablist" onKeyDown={onKeyDown}>
      {panes.map((which) => (
        <button
          key={which}
          type="button"
          role="tab"
          id={`composer-${which}-tab`}
          aria-controls={`composer-${which}`}
          aria-selected={pane === which}
          tabIndex={pane === which ? 0 : -1}
          className="composer-tab"
          onClick={() => onPane(which)}
        >
          {t(which === 'edit' ? 'composer.editTab' : 'composer.previewTab')}
        </button>
      ))}
    </div>
  );
}
