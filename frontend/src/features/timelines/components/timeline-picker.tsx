import { useState } from 'react';
import { ResponsiveDialog } from '../../../components/ui/dialog';
import { PlusIcon, SearchIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate, formatDuration, pluralize } from '../../../lib/format';
import { useMyTimelines, type MyTimeline } from '../api/get-my-timelines';
import { canEditTimeline } from '../lib/labels';
import { byUpdatedDesc, matchesSearch } from '../lib/timeline-lists';
import '../../../components/ui/field.css';
import './timelines.css';

export interface TimelinePickerProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSelect: (timeline: MyTimeline) => void;
  onCreateNew: () => void;
}

/**
 * The timeline-selection dialog (spec 000, section 2): pick a timeline to add videos to, or start
 * a new one. The list is asked for only while the dialog is open.
 */
export function TimelinePicker({ open, onOpenChange, onSelect, onCreateNew }: TimelinePickerProps) {
  const [query, setQuery] = useState('');
  const timelines = useMyTimelines({ enabled: open });

  // Only timelines the person may add videos to.
  const editable = (timelines.data ?? []).filter((timeline) => canEditTimeline(timeline.role));
  const shown = editable.filter((timeline) => matchesSearch(timeline, query)).sort(byUpdatedDesc);

  let list;
  if (timelines.isPending) {
    list = (
      <div className="picker__state">
        <Spinner label="Loading your timelines..." />
      </div>
    );
  } else if (timelines.isError) {
    list = (
      <div className="picker__state">
        <p>Your timelines could not be loaded.</p>
        <button type="button" className="button button--secondary" onClick={() => void timelines.refetch()}>
          Try again
        </button>
      </div>
    );
  } else if (editable.length === 0) {
    list = (
      <div className="picker__state">
        <p className="picker__state-title">No timelines found</p>
        <button type="button" className="button button--primary" onClick={onCreateNew}>
          Create Your First Timeline
        </button>
      </div>
    );
  } else if (shown.length === 0) {
    list = (
      <div className="picker__state">
        <p className="picker__state-title">No timelines match your search</p>
        <button type="button" className="button button--secondary" onClick={() => setQuery('')}>
          Clear search
        </button>
      </div>
    );
  } else {
    list = (
      <ul className="picker__items" aria-label="Your timelines">
        {shown.map((timeline) => (
          <li key={timeline.id}>
            <button type="button" className="picker__item" onClick={() => onSelect(timeline)}>
              <span className="picker__item-title">{timeline.title}</span>
              <span className="picker__item-meta">
                <span>{pluralize(timeline.videoCount, 'video')}</span>
                {timeline.imageCount > 0 ? <span>{pluralize(timeline.imageCount, 'image')}</span> : null}
                <span>
                  <span className="visually-hidden">Duration </span>
                  {formatDuration(timeline.duration)}
                </span>
                <span>Updated {formatDate(timeline.updatedAt)}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <ResponsiveDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Select Timeline"
      description="Choose an existing timeline to add your videos to, or create a new one"
    >
      <button type="button" className="picker__create" onClick={onCreateNew}>
        <span className="picker__create-icon" aria-hidden="true">
          <PlusIcon width={20} height={20} />
        </span>
        <span className="picker__create-text">
          <span className="picker__item-title">Create New Timeline</span>
          <span className="picker__item-meta">Start a new timeline for your videos</span>
        </span>
      </button>
      <div className="picker__search" role="search">
        <SearchIcon className="picker__search-icon" width={18} height={18} />
        <input
          type="search"
          className="field__input picker__search-input"
          aria-label="Search your timelines"
          placeholder="Search your timelines..."
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      </div>
      <div className="picker__list">
        {list}
      </div>
    </ResponsiveDialog>
  );
}

export default TimelinePicker;
