// An action that cannot be undone, asked again in an accessible modal dialog (focus moves in and stays there, Escape
// and Cancel close it, focus returns to the button): never the browser's confirm().
import { useState, type ReactNode } from 'react';
import { Heading } from 'react-aria-components';
import { t } from '../i18n.ts';
import { Button } from './Button.tsx';
import { ModalDialog } from './ModalDialog.tsx';

export function ConfirmButton({
  label,
  describedBy,
  title,
  message,
  children,
  confirmLabel,
  onConfirm,
  variant = 'destructive',
  isDisabled,
}: {
  label: string;
  /** The id of what the button acts on, as its description (a short label, the row's name elsewhere on the page). */
  describedBy?: string;
  title: string;
  message: string;
  /** What the action touches, under the message (the accounts a post goes to). */
  children?: ReactNode;
  confirmLabel: string;
  onConfirm: () => void | Promise<void>;
  variant?: 'destructive' | 'secondary';
  isDisabled?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <ModalDialog
      role="alertdialog"
      isDismissable={!busy}
      trigger={
        <Button variant={variant} isDisabled={isDisabled} aria-describedby={describedBy}>
          {label}
        </Button>
      }
    >
      {(close) => (
        <>
          <Heading slot="title" className="dialog-title">
            {title}
          </Heading>
          <p>{message}</p>
          {children}
          <div className="dialog-actions">
            <Button variant="secondary" onPress={close} isDisabled={busy} autoFocus>
              {t('common.cancel')}
            </Button>
            <Button
              variant={variant === 'destructive' ? 'destructive' : 'primary'}
              isDisabled={busy}
              onPress={async () => {
                setBusy(true);
                try {
                  await onConfirm();
                  close();
                } finally {
                  setBusy(false);
                }
              }}
            >
              {confirmLabel}
            </Button>
          </div>
        </>
      )}
    </ModalDialog>
  );
}
