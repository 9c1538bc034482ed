import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import './player-alt-text.css';

export interface PlayerAltTextProps {
  /** The image's alt text or the video's description; nothing is shown without one. */
  text: string | null | undefined;
  kind: 'image' | 'video';
  /** Where the revealed text is shown: the player, so it stays while the controls hide. */
  panelHost: RefObject<HTMLElement | null>;
}

/**
 * The "ALT" badge of the player: a button that shows the item's alt text (or description) on
 * screen, for anyone, not only to screen readers; Escape or Close hides it again.
 */
export default function PlayerAltText({ text, kind, panelHost }: PlayerAltTextProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const badge = useRef<HTMLButtonElement>(null);
  // Hiding the text gives the focus back to the badge.
  const hide = () => {
    setOpen(false);
    badge.current?.focus();
  };
  const title = kind === 'image' ? 'Alt text' : 'Description';

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      badge.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  if (!text) return null;
  const host = panelHost.current;
  return (
    <>
      <button
        ref={badge}
        type="button"
        className="player__alt-badge"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={open ? 'Hide alt text' : 'Show alt text'}
        onClick={() => setOpen((shown) => !shown)}
      >
        ALT
      </button>
      {open && host
        ? createPortal(
            <div className="player__alt-text" id={id} role="note" aria-label={title} onPointerDown={(event) => event.stopPropagation()}>
              <p className="player__alt-text-title">{title}</p>
              <p className="player__alt-text-body">{text}</p>
              <button type="button" className="player__alt-text-close" onClick={hide}>
                Close
              </button>
            </div>,
            host,
          )
        : null}
    </>
  );
}
