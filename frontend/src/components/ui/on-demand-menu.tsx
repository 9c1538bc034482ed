import { Suspense, useState, type ReactNode } from 'react';
import { MoreIcon } from './icons';

export interface OnDemandMenuProps {
  /** The button's accessible name and class: the same as the loaded menu's own trigger. */
  label: string;
  className: string;
  popup: 'menu' | 'dialog';
  /** Starts downloading the menu's code: called when a pointer comes over the button or it takes focus. */
  preload: () => void;
  /** The menu (a lazy component that opens as it mounts), rendered once the button is pressed. */
  children: ReactNode;
}

/**
 * An options button whose menu's code loads on first use: a list of cards does not download, run
 * and render a menu per card that is almost never opened. Until the menu has loaded the button
 * stands in for its trigger, looking and named the same.
 */
export function OnDemandMenu({ label, className, popup, preload, children }: OnDemandMenuProps) {
  const [wanted, setWanted] = useState(false);
  const button = (
    <button type="button" className={className} aria-label={label} aria-haspopup={popup} onPointerEnter={preload} onFocus={preload} onClick={() => setWanted(true)}>
      <MoreIcon width={20} height={20} />
    </button>
  );
  if (!wanted) return button;
  return <Suspense fallback={button}>{children}</Suspense>;
}
