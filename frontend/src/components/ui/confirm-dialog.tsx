import * as AlertDialog from '@radix-ui/react-alert-dialog';
import type { ReactNode } from 'react';
import { useReturnFocus } from './use-return-focus';
import './dialog.css';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** Shown on the confirm button while the action runs. */
  pendingLabel?: string;
  pending?: boolean;
  destructive?: boolean;
  onConfirm: () => void;
}

/**
 * Asks before an action that cannot be undone. Focus starts on Cancel, so Enter never confirms
 * by accident; the dialog stays open while the action runs and the caller closes it.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  pendingLabel,
  pending = false,
  destructive = true,
  onConfirm,
}: ConfirmDialogProps) {
  const focus = useReturnFocus();
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => (pending ? undefined : onOpenChange(next))}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay dialog-overlay--top" />
        <AlertDialog.Content
          className="dialog dialog--confirm"
          onOpenAutoFocus={focus.onOpenAutoFocus}
          onCloseAutoFocus={focus.onCloseAutoFocus}
        >
          <div className="dialog__header">
            <AlertDialog.Title className="dialog__title">{title}</AlertDialog.Title>
            <AlertDialog.Description className="dialog__description">{description}</AlertDialog.Description>
          </div>
          <div className="dialog__footer">
            <AlertDialog.Cancel className="button button--secondary" disabled={pending}>
              Cancel
            </AlertDialog.Cancel>
            <button
              type="button"
              className={`button ${destructive ? 'button--danger' : 'button--primary'}`}
              disabled={pending}
              onClick={onConfirm}
            >
              {pending && pendingLabel ? pendingLabel : confirmLabel}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
