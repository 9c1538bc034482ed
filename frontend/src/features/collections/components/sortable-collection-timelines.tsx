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
import type { ReactNode } from 'react';
import { moveItem } from '../../../lib/move-item';
import type { CollectionTimeline } from '../api/types';
import { CollectionTimelineCard } from './collection-timeline-card';

export interface CollectionTimelineListProps {
  timelines: CollectionTimeline[];
  /** The owner's controls: a drag handle and Remove. Absent for anyone else. */
  onReorder?: (timelines: CollectionTimeline[]) => void;
  onRemove?: (timeline: CollectionTimeline) => void;
}

function SortableItem({ timeline, onRemove }: { timeline: CollectionTimeline; onRemove: (timeline: CollectionTimeline) => void }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: timeline.id });
  return (
    <li
      ref={setNodeRef}
      className={`collection-item${isDragging ? ' is-dragging' : ''}`}
      style={{ transform: CSS.Transform.toString(transform), transition }}
    >
      <CollectionTimelineCard
        timeline={timeline}
        handle={
          <button
            ref={setActivatorNodeRef}
            type="button"
            className="icon-button collection-item__handle"
            aria-label={`Reorder ${timeline.title}`}
            {...attributes}
            {...listeners}
          >
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
              <path d="M9 6h.01M15 6h.01M9 12h.01M15 12h.01M9 18h.01M15 18h.01" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
            </svg>
          </button>
        }
        onRemove={() => onRemove(timeline)}
      />
    </li>
  );
}

function PlainList({ timelines, children }: { timelines: CollectionTimeline[]; children?: ReactNode }) {
  return (
    <ol className="collection-list" aria-label="Timelines in this collection">
      {children ??
        timelines.map((timeline) => (
          <li key={timeline.id} className="collection-item">
            <CollectionTimelineCard timeline={timeline} />
          </li>
        ))}
    </ol>
  );
}

/**
 * A collection's timelines in its order. Its owner drags a card by its handle, or focuses the
 * handle, presses Space, moves with the arrow keys and presses Space again; the new order is saved
 * at once (the same way as the studio's video reorder).
 */
export function CollectionTimelineList({ timelines, onReorder, onRemove }: CollectionTimelineListProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  if (!onReorder || !onRemove) return <PlainList timelines={timelines} />;

  const titleOf = (id: string | number) => timelines.find((timeline) => timeline.id === id)?.title ?? 'timeline';
  const positionOf = (id: string | number) => timelines.findIndex((timeline) => timeline.id === id) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${titleOf(active.id)}, position ${positionOf(active.id)} of ${timelines.length}.`,
    onDragOver: ({ active, over }) => (over ? `${titleOf(active.id)} is over position ${positionOf(over.id)} of ${timelines.length}.` : undefined),
    onDragEnd: ({ active, over }) =>
      over ? `${titleOf(active.id)} dropped at position ${positionOf(over.id)} of ${timelines.length}.` : `${titleOf(active.id)} dropped.`,
    onDragCancel: ({ active }) => `Reordering cancelled; ${titleOf(active.id)} stays where it was.`,
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = timelines.findIndex((timeline) => timeline.id === active.id);
    const to = timelines.findIndex((timeline) => timeline.id === over.id);
    if (from < 0 || to < 0) return;
    onReorder(moveItem(timelines, from, to));
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
      <SortableContext items={timelines.map((timeline) => timeline.id)} strategy={verticalListSortingStrategy}>
        <PlainList timelines={timelines}>
          {timelines.map((timeline) => (
            <SortableItem key={timeline.id} timeline={timeline} onRemove={onRemove} />
          ))}
        </PlainList>
      </SortableContext>
    </DndContext>
  );
}
