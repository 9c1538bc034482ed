import { useCallback, useState } from 'react';
import { readDismissed, writeDismissed } from '../lib/ads';

/** Promotions the person closed, remembered in local storage. */
export function useDismissedPromotions() {
  const [dismissed, setDismissed] = useState<string[]>(readDismissed);
  const dismiss = useCallback((id: string) => {
    setDismissed((current) => {
      const next = current.includes(id) ? current : [...current, id];
      writeDismissed(next);
      return next;
    });
  }, []);
  return { isDismissed: (id: string) => dismissed.includes(id), dismiss };
}
