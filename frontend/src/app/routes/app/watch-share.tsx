import { lazy, Suspense, useState } from 'react';
import { ShareIcon } from '../../../components/ui/icons';
import type { WatchPosition } from '../../../lib/deep-link';

// The dialog's code comes when someone first shares from the player.
const ShareTimelineDialog = lazy(() => import('../../home-feed/share-timeline-dialog').then((module) => ({ default: module.ShareTimelineDialog })));

export interface WatchShareButtonProps {
  timeline: { id: string; title: string };
  /** Where the viewer is, read when the dialog opens ("Start at current time"). */
  position: () => WatchPosition;
}

/** The player's Share button: Share Timeline, with "Start at current time" at the item and second on screen. */
export function WatchShareButton({ timeline, position }: WatchShareButtonProps) {
  const [at, setAt] = useState<WatchPosition | null>(null);
  return (
    <>
      <button type="button" className="player__icon-button" aria-label="Share" aria-haspopup="dialog" onClick={() => setAt(position())}>
        <ShareIcon width={22} height={22} />
      </button>
      {at ? (
        <Suspense fallback={null}>
          <ShareTimelineDialog
            timeline={timeline}
            position={at}
            open
            onOpenChange={(open) => {
              if (!open) setAt(null);
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
