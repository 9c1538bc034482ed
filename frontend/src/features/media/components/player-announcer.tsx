import { useEffect, useRef, useState, type RefObject } from 'react';
import type { Video } from '../api/types';
import { isImage } from '../lib/media-kind';

/** What the player's keys do, read by a screen reader with the player (aria-describedby). */
export const PLAYER_KEYS_HELP =
  'Keys: Left and Right arrows, previous and next item; Up and Down arrows, previous and next timeline; Space or K, play or pause; J and L, back or forward 10 seconds; M, mute; F, full screen; P, picture in picture.';

export interface PlayerAnnouncerProps {
  items: Video[];
  index: number;
  /** The player: given the focus when the control that had it goes away with the item. */
  region: RefObject<HTMLElement | null>;
  /** The id the player's `aria-describedby` names for the keys' help. */
  helpId: string;
}

/** "Video 3 of 7: Harbour at dawn": how the dots name an item, and what is said when it changes. */
export const itemName = (items: readonly Video[], index: number): string => {
  const item = items[index];
  return item ? `${isImage(item) ? 'Image' : 'Video'} ${index + 1} of ${items.length}: ${item.title}` : '';
};

/**
 * The player for screen-reader and keyboard users: a polite live region saying which item is now
 * on screen whenever it changes (not when the player opens: the page's title and heading say
 * that), the keys' help, and the focus kept in the player when the button that had it is disabled
 * or removed with the item (Next at the last item, an image's missing controls).
 */
export function PlayerAnnouncer({ items, index, region, helpId }: PlayerAnnouncerProps) {
  const [message, setMessage] = useState('');
  const shown = useRef(index);

  useEffect(() => {
    if (shown.current === index) return;
    shown.current = index;
    setMessage(itemName(items, index));
    const focused = document.activeElement;
    const lost = !focused || focused === document.body || (focused instanceof HTMLButtonElement && focused.disabled) || !focused.isConnected;
    if (lost) region.current?.focus({ preventScroll: true });
  }, [items, index, region]);

  return (
    <>
      <p className="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-testid="player-announcer">
        {message}
      </p>
      <p className="visually-hidden" id={helpId}>
        {PLAYER_KEYS_HELP}
      </p>
    </>
  );
}
