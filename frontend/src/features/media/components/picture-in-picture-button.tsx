import { useEffect, useState, type RefObject } from 'react';
import { inPictureInPicture, pictureInPictureSupported, togglePictureInPicture } from '../lib/picture-in-picture';

export interface PictureInPictureButtonProps {
  media: RefObject<HTMLVideoElement | null>;
  /** The item on screen: the video element may be a new one after an image. */
  itemId: string;
}

/** The player's picture-in-picture toggle, shown only where the browser offers it. */
export default function PictureInPictureButton({ media, itemId }: PictureInPictureButtonProps) {
  const [active, setActive] = useState(false);

  useEffect(() => {
    const element = media.current;
    if (!element) return;
    const sync = () => setActive(inPictureInPicture(element));
    element.addEventListener('enterpictureinpicture', sync);
    element.addEventListener('leavepictureinpicture', sync);
    return () => {
      element.removeEventListener('enterpictureinpicture', sync);
      element.removeEventListener('leavepictureinpicture', sync);
    };
  }, [media, itemId]);

  if (!pictureInPictureSupported()) return null;
  return (
    <button
      type="button"
      className="player__icon-button"
      onClick={() => void togglePictureInPicture(media.current)}
      aria-label={active ? 'Exit picture in picture' : 'Picture in picture'}
      aria-keyshortcuts="p"
    >
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
        <rect x="2.5" y="4.5" width="19" height="15" rx="1.5" fill="none" stroke="currentColor" strokeWidth="2" />
        <rect x={active ? 5 : 12} y={active ? 7 : 11.5} width="7" height="5" rx="0.5" fill="currentColor" />
      </svg>
    </button>
  );
}
