import { lazy, Suspense, useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { useDeleteVideo } from '../api/delete-video';
import { useVideos } from '../api/get-videos';
import { useOrderVideosByTimestamp } from '../api/order-videos-by-timestamp';
import { useReorderVideos } from '../api/reorder-videos';
import type { Video } from '../api/types';
import { useUpdateVideoTitle } from '../api/update-video-title';
import { useMediaEvents } from '../hooks/use-media-events';
import { isImage } from '../lib/media-kind';
import { SORT_MODE_LABEL, sortVideos, type SortMode } from '../lib/video-order';
import { VideoList } from './video-list';
import '../../../components/ui/field.css';
import './media.css';

// Drag-and-drop is only needed in manual order with something to move; its code loads then.
const SortableVideoList = lazy(() => import('./sortable-video-list'));

export interface VideoManagementProps {
  timelineId: string;
  /** The timeline's own figures changed (a video was deleted or reordered). */
  onTimelineChanged?: () => void;
}

type ProcessingMap = Record<string, { progress: number; message: string }>;

/**
 * Video Management (spec 001): the timeline's videos and images in manual order (drag to reorder) or by
 * upload or recording time (Apply Order makes that order permanent); rename, open, delete.
 */
export function VideoManagement({ timelineId, onTimelineChanged }: VideoManagementProps) {
  const videos = useVideos(timelineId);
  const [mode, setMode] = useState<SortMode>('manual');
  const [deleting, setDeleting] = useState<Video | null>(null);
  const [processing, setProcessing] = useState<ProcessingMap>({});

  useMediaEvents(timelineId, (message) => {
    if (message.type !== 'video_processing_progress') return;
    setProcessing((current) => ({ ...current, [message.videoId]: { progress: message.progress.progress, message: message.progress.message } }));
  });

  const reorder = useReorderVideos(timelineId, {
    onError: () => toast({ title: 'Failed to reorder videos. Please try again.', variant: 'destructive' }),
  });
  const applyOrder = useOrderVideosByTimestamp(timelineId);
  const rename = useUpdateVideoTitle(timelineId);
  const remove = useDeleteVideo(timelineId, { onDeleted: onTimelineChanged });

  const onRename = (video: Video, title: string) =>
    rename.mutateAsync({ videoId: video.id, title }).catch((error: unknown) => {
      toast({ title: 'Failed to update title', variant: 'destructive' });
      throw error;
    });

  const onApplyOrder = () => {
    if (mode === 'manual') return;
    applyOrder.mutate(mode, {
      onSuccess: () => {
        setMode('manual');
        toast({ title: 'Order applied', description: `Videos are now in ${SORT_MODE_LABEL[mode].toLowerCase()} order.` });
        onTimelineChanged?.();
      },
      onError: () => toast({ title: 'Failed to reorder videos', variant: 'destructive' }),
    });
  };

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => setDeleting(null),
      onError: () => {
        setDeleting(null);
        toast({ title: 'Failed to delete video. Please try again.', variant: 'destructive' });
      },
    });
  };

  let body;
  if (videos.isPending) {
    body = <Spinner label="Loading videos..." />;
  } else if (videos.isError) {
    body = (
      <div className="video-management__state">
        <p>The videos could not be loaded.</p>
        <button type="button" className="button button--secondary button--sm" onClick={() => void videos.refetch()}>
          Try again
        </button>
      </div>
    );
  } else if (videos.data.length === 0) {
    body = <p className="muted">No videos uploaded yet.</p>;
  } else {
    const shown = sortVideos(videos.data, mode);
    const listProps = {
      videos: shown,
      processing,
      onRename,
      onDelete: setDeleting,
      onReorder: (ordered: Video[]) => reorder.mutate(ordered, { onSuccess: () => onTimelineChanged?.() }),
    };
    body =
      mode === 'manual' && shown.length > 1 ? (
        <Suspense fallback={<VideoList {...listProps} label="Videos in manual order" />}>
          <SortableVideoList {...listProps} />
        </Suspense>
      ) : (
        <VideoList {...listProps} label={`Videos by ${SORT_MODE_LABEL[mode].toLowerCase()}`} />
      );
  }

  return (
    <div className="video-management">
      {videos.data && videos.data.length > 0 ? (
        <div className="video-management__toolbar">
          <label className="video-management__sort">
            <span>Sort by</span>
            <select className="field__input" value={mode} onChange={(event) => setMode(event.target.value as SortMode)}>
              {(Object.keys(SORT_MODE_LABEL) as SortMode[]).map((key) => (
                <option key={key} value={key}>
                  {SORT_MODE_LABEL[key]}
                </option>
              ))}
            </select>
          </label>
          {mode === 'manual' ? (
            <p className="muted video-management__hint">Drag a video by its handle to change the order.</p>
          ) : (
            <button type="button" className="button button--primary button--sm" disabled={applyOrder.isPending} onClick={onApplyOrder}>
              {applyOrder.isPending ? 'Applying...' : 'Apply Order'}
            </button>
          )}
        </div>
      ) : null}
      {body}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={deleting && isImage(deleting) ? 'Delete image?' : 'Delete video?'}
        description={deleting ? `Are you sure you want to delete "${deleting.originalName}"? This action cannot be undone.` : ''}
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </div>
  );
}
