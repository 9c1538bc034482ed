import type { Video } from '../api/types';
import { VideoRow } from './video-row';

export interface VideoListProps {
  videos: Video[];
  processing: Record<string, { progress: number; message: string }>;
  onRename: (video: Video, title: string) => Promise<unknown>;
  onDelete: (video: Video) => void;
  onReorder: (ordered: Video[]) => void;
  label?: string;
}

/** The videos without reordering: the time orders, and manual order while drag-and-drop loads. */
export function VideoList({ videos, processing, onRename, onDelete, label = 'Videos' }: VideoListProps) {
  return (
    <ol className="video-list" aria-label={label}>
      {videos.map((video) => (
        <li key={video.id} className="video-list__item">
          <VideoRow
            video={video}
            processing={processing[video.id]}
            onRename={(title) => onRename(video, title)}
            onDelete={() => onDelete(video)}
          />
        </li>
      ))}
    </ol>
  );
}
