import { lazy, Suspense, useState, type ReactNode } from 'react';
import { MoreIcon } from '../../../components/ui/icons';
import type { Video } from '../../../features/media/api/types';
import type { CommentModeration } from '../../../features/media/components/player-comment-moderation';
import { useDecideItem } from '../../../features/moderation/api/decide-item';
import { useStaffRole } from '../../../features/moderation/api/get-staff-role';
import { useViewingPreferences } from '../../../features/viewing/api/viewing-preferences';

// Asked for when first needed: a report, a sensitive item. The player's first paint sends none of it.
const ReportDialog = lazy(() => import('../../../features/feed/components/report-dialog').then((module) => ({ default: module.ReportDialog })));
const SensitiveCover = lazy(() => import('../../../features/viewing/components/sensitive-cover').then((module) => ({ default: module.SensitiveCover })));

/** The player's Report for the video or image on screen. */
export function ReportItemButton({ item }: { item: Video }) {
  const [open, setOpen] = useState(false);
  const noun = item.mediaType === 'image' ? 'image' : 'video';
  return (
    <>
      <button type="button" className="player__icon-button" aria-label={`Report this ${noun}`} title={`Report this ${noun}`} onClick={() => setOpen(true)}>
        <MoreIcon width={22} height={22} />
      </button>
      {open ? (
        <Suspense fallback={null}>
          <ReportDialog open onOpenChange={setOpen} target={{ contentType: 'video', contentId: item.id }} title={noun === 'image' ? 'Report Image' : 'Report Video'} />
        </Suspense>
      ) : null}
    </>
  );
}

/**
 * The player's cover for an item marked sensitive, until Show; none when the viewer always shows
 * sensitive media (their preference is asked only when an item is sensitive).
 */
export function useItemCover(items: readonly Video[], signedIn: boolean): ((item: Video, onShow: () => void) => ReactNode) | undefined {
  const anySensitive = items.some((item) => item.sensitive);
  const preferences = useViewingPreferences({ enabled: anySensitive && signedIn });
  if (!anySensitive || (signedIn && preferences.data?.alwaysShowSensitive)) return undefined;
  return function ItemCover(item, onShow) {
    return (
      <Suspense fallback={<div className="sensitive-cover sensitive-cover--item" aria-busy="true" />}>
        <SensitiveCover key={item.id} sensitive noun={item.mediaType === 'image' ? 'image' : 'video'} signedIn={signedIn} preview={item.thumbnailUrl} className="sensitive-cover--item" onShow={onShow}>
          {null}
        </SensitiveCover>
      </Suspense>
    );
  };
}

/** Staff hide a comment through the moderation desk; null for everyone else (asked when the comments open). */
function useHideThroughDesk() {
  const role = useStaffRole();
  const decide = useDecideItem();
  if (!role.data) return null;
  return async (commentId: string, reason: string) => {
    await decide.mutateAsync({ contentType: 'video_comment', contentId: commentId, action: 'hide', reason });
  };
}

/** What the viewer may do to the comments of the timeline's videos: its owner and editors delete any; moderators hide. */
export function commentModerationFor(role: string | null | undefined): CommentModeration {
  return { deletesAny: role === 'owner' || role === 'editor', useHide: useHideThroughDesk };
}
