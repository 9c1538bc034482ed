import * as Tabs from '@radix-ui/react-tabs';
import { lazy, Suspense, useState, type Ref } from 'react';
import { CollapsibleSection } from '../../components/ui/collapsible-section';
import { BatchUploader } from '../../features/media/components/batch-uploader';
import { MediaUploadArea } from '../../features/media/components/media-upload-area';
import { VideoManagement } from '../../features/media/components/video-management';
import { formatRelativeTime } from '../../lib/format';
import type { Timeline } from '../../features/timelines/api/get-timeline';

// Recording and the camera are phone features; their sheet loads when first opened.
const AddVideosSheet = lazy(() => import('../../features/media/components/add-videos-sheet'));

export interface AddContentSectionProps {
  ref?: Ref<HTMLElement>;
  timelineId: string;
  /** A file's bytes are stored: its video appears in the list. */
  onUploaded: () => void;
  /** The server finished processing a file: the timeline's figures change. */
  onProcessed: () => void;
}

/**
 * Add Content: Quick Upload (videos and images, one by one as they are dropped) and Batch Upload
 * (many videos or a folder, with previews, started together).
 */
export function AddContentSection({ ref, timelineId, onUploaded, onProcessed }: AddContentSectionProps) {
  const [sheet, setSheet] = useState({ open: false, session: 0 });
  return (
    <section ref={ref} id="upload" className="card studio-section upload-section" aria-labelledby="upload-title" tabIndex={-1}>
      <h2 className="studio-section__title" id="upload-title">
        Add Content
      </h2>
      <Tabs.Root className="tabs" defaultValue="quick">
        <Tabs.List className="tabs__list" aria-label="Ways to upload">
          <Tabs.Trigger className="tabs__trigger" value="quick">
            Quick Upload
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs__trigger" value="batch">
            Batch Upload
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content className="tabs__panel" value="quick">
          <MediaUploadArea timelineId={timelineId} onUploaded={onUploaded} onProcessed={onProcessed} />
          <button
            type="button"
            className="button button--ghost upload-section__record"
            onClick={() => setSheet(({ session }) => ({ open: true, session: session + 1 }))}
          >
            Record or take a video
          </button>
        </Tabs.Content>
        <Tabs.Content className="tabs__panel" value="batch">
          <BatchUploader timelineId={timelineId} onUploaded={onUploaded} onProcessed={onProcessed} />
        </Tabs.Content>
      </Tabs.Root>
      {sheet.session > 0 ? (
        <Suspense fallback={null}>
          <AddVideosSheet
            key={sheet.session}
            timelineId={timelineId}
            open={sheet.open}
            onOpenChange={(open) => setSheet((current) => ({ ...current, open }))}
            onUploaded={onUploaded}
          />
        </Suspense>
      ) : null}
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

/** Video Management: reorder, rename, open and delete the timeline's videos. */
export function VideoManagementSection({ timelineId, onTimelineChanged }: { timelineId: string; onTimelineChanged: () => void }) {
  return (
    <CollapsibleSection title="Video Management">
      <VideoManagement timelineId={timelineId} onTimelineChanged={onTimelineChanged} />
    </CollapsibleSection>
  );
}
