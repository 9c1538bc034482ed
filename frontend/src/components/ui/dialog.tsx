import * as DialogPrimitive from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { CloseIcon } from './icons';
import { useReturnFocus } from './use-return-focus';
import './dialog.css';

export interface ResponsiveDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  /** Buttons at the bottom (a form's submit and cancel). */
  footer?: ReactNode;
  /** Wider content (tabs, tables) on large screens. */
  size?: 'md' | 'lg';
  /** The element to focus on open; Radix focuses the first focusable element otherwise. */
  onOpenAutoFocus?: (event: Event) => void;
}

/**
 * A modal dialog: a bottom sheet under 768 px and a centred card from 768 px (spec 000, sections
 * 2 and 9). The layout switch is CSS only, so resizing never remounts the content or loses input.
 */
export function ResponsiveDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  size = 'md',
  onOpenAutoFocus,
}: ResponsiveDialogProps) {
  const focus = useReturnFocus(onOpenAutoFocus);
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="dialog-overlay" />
        <DialogPrimitive.Content
          className={`dialog dialog--${size}`}
          onOpenAutoFocus={focus.onOpenAutoFocus}
          onCloseAutoFocus={focus.onCloseAutoFocus}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <div className="dialog__handle" aria-hidden="true" />
          <div className="dialog__header">
            <DialogPrimitive.Title className="dialog__title">{title}</DialogPrimitive.Title>
            {description ? (
              <DialogPrimitive.Description className="dialog__description">{description}</DialogPrimitive.Description>
            ) : null}
          </div>
          <div className="dialog__body">{children}</div>
          {footer ? <div className="dialog__footer">{footer}</div> : null}
          <DialogPrimitive.Close className="icon-button dialog__close" aria-label="Close">
            <CloseIcon width={20} height={20} />
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
