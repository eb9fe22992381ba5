// A button that opens a modal dialog (react-aria: focus moves in and stays there, Escape closes it, focus returns to
// the button). `children` gets `close`.
import type { ReactElement, ReactNode } from 'react';
import { Dialog, DialogTrigger, Modal, ModalOverlay } from 'react-aria-components';

export function ModalDialog({
  trigger,
  children,
  className,
  role,
  label,
  isDismissable = true,
}: {
  /** The button that opens it. */
  trigger: ReactElement;
  children: (close: () => void) => ReactNode;
  /** Added to the dialog box's `modal` class. */
  className?: string;
  role?: 'dialog' | 'alertdialog';
  /** Its name, when no heading inside names it. */
  label?: string;
  /** Whether a click outside closes it. */
  isDismissable?: boolean;
}) {
  return (
    <DialogTrigger>
      {trigger}
      <ModalOverlay className="modal-overlay" isDismissable={isDismissable}>
        <Modal className={className ? `modal ${className}` : 'modal'}>
          <Dialog className="dialog" role={role} aria-label={label}>
            {({ close }) => children(close)}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}
