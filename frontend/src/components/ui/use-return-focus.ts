import { useRef } from 'react';

/**
 * Focus handlers for a dialog opened from code rather than by a Radix Trigger: the element that
 * had focus when it opened gets it back when it closes (Radix only knows its own Trigger).
 */
export function useReturnFocus(onOpenAutoFocus?: (event: Event) => void) {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: (event: Event) => {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus: (event: Event) => {
      const element = opener.current;
      opener.current = null;
      if (element?.isConnected && element !== document.body) {
        event.preventDefault();
        element.focus();
      }
    },
  };
}
