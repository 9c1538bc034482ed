import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { Video } from '../api/types';
import { moveItem } from '../../../lib/move-item';
import type { VideoListProps } from './video-list';
import { VideoRow } from './video-row';

function SortableRow({ video, ...props }: Omit<VideoListProps, 'videos' | 'onReorder'> & { video: Video }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: video.id });
  return (
    <li
      ref={setNodeRef}
      className={`video-list__item${isDragging ? ' is-dragging' : ''}`}
      style={{ transform: CSS.Transform.toString(transform), transition }}
    >
      <VideoRow
        video={video}
        processing={props.processing[video.id]}
        onRename={(title) => props.onRename(video, title)}
        onDelete={() => props.onDelete(video)}
        handle={
          <button
            ref={setActivatorNodeRef}
            type="button"
            className="icon-button video-row__handle"
            aria-label={`Reorder ${video.title}`}
            {...attributes}
            {...listeners}
          >
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
              <path d="M9 6h.01M15 6h.01M9 12h.01M15 12h.01M9 18h.01M15 18h.01" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
            </svg>
          </button>
        }
      />
    </li>
  );
}

/**
 * Video Management in manual order: drag a row by its handle, or focus the handle, press Space,
 * move with the arrow keys and press Space again. The new order is saved at once.
 */
export default function SortableVideoList({ videos, onReorder, ...props }: VideoListProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const titleOf = (id: string | number) => videos.find((video) => video.id === id)?.title ?? 'video';
  const positionOf = (id: string | number) => videos.findIndex((video) => video.id === id) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${titleOf(active.id)}, position ${positionOf(active.id)} of ${videos.length}.`,
    onDragOver: ({ active, over }) => (over ? `${titleOf(active.id)} is over position ${positionOf(over.id)} of ${videos.length}.` : undefined),
    onDragEnd: ({ active, over }) =>
      over ? `${titleOf(active.id)} dropped at position ${positionOf(over.id)} of ${videos.length}.` : `${titleOf(active.id)} dropped.`,
    onDragCancel: ({ active }) => `Reordering cancelled; ${titleOf(active.id)} stays where it was.`,
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = videos.findIndex((video) => video.id === active.id);
    const to = videos.findIndex((video) => video.id === over.id);
    if (from < 0 || to < 0) return;
    onReorder(moveItem(videos, from, to));
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable: 'To reorder, press Space, move with the arrow keys, then press Space again to drop or Escape to cancel.',
        },
      }}
    >
      <SortableContext items={videos.map((video) => video.id)} strategy={verticalListSortingStrategy}>
        <ol className="video-list" aria-label="Videos in manual order">
          {videos.map((video) => (
            <SortableRow key={video.id} video={video} {...props} />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}
