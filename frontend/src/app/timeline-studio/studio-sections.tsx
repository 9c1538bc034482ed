import type { Ref } from 'react';
import { CollapsibleSection } from '../../components/ui/collapsible-section';
import { formatRelativeTime, pluralize } from '../../lib/format';
import type { Timeline } from '../../features/timelines/api/get-timeline';

/**
 * Add Content. Uploading arrives with the media service; until then the section says so
 * instead of offering controls that would do nothing.
 */
export function AddContentSection({ ref }: { ref?: Ref<HTMLElement> }) {
  return (
    <section ref={ref} id="upload" className="card studio-section upload-section" aria-labelledby="upload-title" tabIndex={-1}>
      <h2 className="studio-section__title" id="upload-title">
        Add Content
      </h2>
      <div className="upload-section__modes">
        <div className="upload-section__mode">
          <h3 className="upload-section__mode-title">Quick Upload</h3>
          <p className="muted">Drop a few videos or images straight into this timeline.</p>
        </div>
        <div className="upload-section__mode">
          <h3 className="upload-section__mode-title">Batch Upload</h3>
          <p className="muted">Send a whole folder at once, with previews and overall progress.</p>
        </div>
      </div>
      <p className="notice" role="note">
        Uploading isn&apos;t available yet. Both ways of adding videos will appear here once it is.
      </p>
    </section>
  );
}

const ACTIVITY: { key: keyof Pick<Timeline, 'lastContentAddedAt' | 'lastCommentAt' | 'lastLikeAt' | 'updatedAt'>; label: string }[] = [
  { key: 'lastContentAddedAt', label: 'Last video added' },
  { key: 'lastCommentAt', label: 'Last comment' },
  { key: 'lastLikeAt', label: 'Last like' },
  { key: 'updatedAt', label: 'Details last changed' },
];

/** When things last happened on the timeline, from its own dates. */
export function RecentActivitySection({ timeline }: { timeline: Timeline }) {
  const entries = ACTIVITY.filter(({ key }) => timeline[key]);
  return (
    <CollapsibleSection title="Recent Activity & Processing">
      {entries.length === 0 ? (
        <p className="muted">No activity yet.</p>
      ) : (
        <dl className="activity-list">
          {entries.map(({ key, label }) => (
            <div key={key} className="activity-list__item">
              <dt>{label}</dt>
              <dd>{formatRelativeTime(timeline[key] as string)}</dd>
            </div>
          ))}
        </dl>
      )}
    </CollapsibleSection>
  );
}

/** Video Management; managing individual videos arrives with the media service. */
export function VideoManagementSection({ timeline }: { timeline: Timeline }) {
  return (
    <CollapsibleSection title="Video Management">
      {timeline.videoCount === 0 ? (
        <p className="muted">No videos uploaded yet.</p>
      ) : (
        <p className="muted">
          This timeline has {pluralize(timeline.videoCount, 'video')}. Reordering, renaming and deleting them here isn&apos;t
          available yet.
        </p>
      )}
    </CollapsibleSection>
  );
}
