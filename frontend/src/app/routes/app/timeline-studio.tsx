import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { PageState } from '../../../components/ui/page-state';
import { SettingsIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useCollaborators } from '../../../features/collaboration/api/get-collaborators';
import { useInvitations } from '../../../features/collaboration/api/get-invitations';
import { CollaboratorsPanel, pendingInvitations } from '../../../features/collaboration/components/collaborators-panel';
import { LeaveTimelineButton } from '../../../features/collaboration/components/leave-timeline';
import { TimelineComments } from '../../../features/comments/components/timeline-comments';
import { CommentControlsPanel } from '../../../features/comments/components/comment-controls-panel';
import { videosQueryKey } from '../../../features/media/api/get-videos';
import { isProcessingDone, useMediaEvents } from '../../../features/media/hooks/use-media-events';
import { MY_TIMELINES_QUERY_KEY } from '../../../features/timelines/api/get-my-timelines';
import { countAddedComment, timelineQueryKey, useTimeline, type Timeline } from '../../../features/timelines/api/get-timeline';
import { useTimelineAnalytics } from '../../../features/timelines/api/get-timeline-analytics';
import { SuggestionsPanel } from '../../../features/timelines/components/suggestions-panel';
import { TimelinePerformance } from '../../../features/timelines/components/timeline-performance';
import { TimelineSettingsDialog } from '../../../features/timelines/components/timeline-settings-dialog';
import { TimelineSummaryCard } from '../../../features/timelines/components/timeline-summary-card';
import { canEditTimeline } from '../../../features/timelines/lib/labels';
import { computeSuggestions, type SuggestionAction } from '../../../features/timelines/lib/suggestions';
import { ApiError } from '../../../lib/api-client';
import { AddContentSection, RecentActivitySection, VideoManagementSection } from '../../timeline-studio/studio-sections';
import '../../../features/timelines/components/timelines.css';
import '../../timeline-studio/studio.css';

// The list of items missing alt text or a description, with its editor: loaded after the studio's first paint.
const MissingAltText = lazy(() => import('../../../features/media/components/missing-alt-text'));
// Before publishing, the items still missing it are asked about in Timeline Settings.
const PublishAltTextCheck = lazy(() => import('../../../features/media/components/publish-alt-text-check'));

/** How long the upload section stays highlighted after ?tab=upload (spec 001, section 9). */
export const UPLOAD_HIGHLIGHT_MS = 2000;

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function revealSection(section: HTMLElement | null) {
  if (!section) return;
  section.scrollIntoView?.({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
  section.focus({ preventScroll: true });
}

function StudioContent({ timeline }: { timeline: Timeline }) {
  const { id } = timeline;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const uploadRef = useRef<HTMLElement>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [inviteOpen, setInviteOpen] = useState(false);
  const [refreshing, setRefreshing] = useState(false);

  const isOwner = timeline.role === 'owner';
  const analytics = useTimelineAnalytics(id);
  const collaborators = useCollaborators(id);
  // Invitations are the owner's to see and manage.
  const invitations = useInvitations(id, { enabled: isOwner });
  const refreshTimeline = useCallback(() => queryClient.invalidateQueries({ queryKey: timelineQueryKey(id), exact: true }), [queryClient, id]);
  const refreshVideos = useCallback(() => queryClient.invalidateQueries({ queryKey: videosQueryKey(id) }), [queryClient, id]);
  const refreshAfterProcessing = useCallback(() => {
    void refreshTimeline();
    void refreshVideos();
    void queryClient.invalidateQueries({ queryKey: MY_TIMELINES_QUERY_KEY });
  }, [queryClient, refreshTimeline, refreshVideos]);

  // Spec 001 section 4 "Studio realtime": whoever uploaded, the lists follow the server.
  useMediaEvents(id, (message) => {
    if (message.type === 'video_upload_started') void refreshVideos();
    else if (isProcessingDone(message)) refreshAfterProcessing();
  });

  // ?tab=upload: bring the upload section into view and highlight it briefly.
  const wantsUpload = params.get('tab') === 'upload';
  useEffect(() => {
    if (!wantsUpload) return;
    const section = uploadRef.current;
    revealSection(section);
    section?.classList.add('is-highlighted');
    const timer = window.setTimeout(() => section?.classList.remove('is-highlighted'), UPLOAD_HIGHLIGHT_MS);
    return () => window.clearTimeout(timer);
  }, [wantsUpload]);

  const suggestions = computeSuggestions({
    timeline,
    isOwner,
    analytics: analytics.data,
    teamSize: collaborators.data?.filter((collaborator) => collaborator.role !== 'owner').length,
    pendingInvitations: invitations.data ? pendingInvitations(invitations.data).length : undefined,
  });

  const onSuggestionAction = (action: SuggestionAction) => {
    if (action === 'upload') revealSection(uploadRef.current);
    else if (action === 'settings') setSettingsOpen(true);
    else setInviteOpen(true);
  };

  const refreshSuggestions = async () => {
    setRefreshing(true);
    try {
      await Promise.all([
        queryClient.refetchQueries({ queryKey: timelineQueryKey(id), exact: true }),
        analytics.refetch(),
        collaborators.refetch(),
        ...(isOwner ? [invitations.refetch()] : []),
      ]);
    } finally {
      setRefreshing(false);
    }
  };

  return (
    <div className="studio">
      <title>{`${timeline.title} · Creator Studio · Timeliner`}</title>
      <nav className="studio__nav" aria-label="Timeline studio">
        <Link to="/" className="button button--ghost">
          Back to Feed
        </Link>
        <Link to="/studio" className="button button--ghost">
          All Timelines
        </Link>
        <span className="studio__nav-spacer" />
        <Link to={`/watch/${encodeURIComponent(id)}`} className="button button--secondary">
          Preview Timeline
        </Link>
        <button type="button" className="button button--primary" onClick={() => revealSection(uploadRef.current)}>
          Add Videos
        </button>
        {isOwner ? (
          <button type="button" className="button button--secondary" onClick={() => setSettingsOpen(true)}>
            <SettingsIcon width={18} height={18} /> Timeline Settings
          </button>
        ) : (
          <LeaveTimelineButton
            timelineId={id}
            title={timeline.title}
            className="button button--secondary"
            onLeft={() => {
              queryClient.removeQueries({ queryKey: timelineQueryKey(id) });
              void queryClient.invalidateQueries({ queryKey: MY_TIMELINES_QUERY_KEY });
              void navigate('/studio', { replace: true });
            }}
          />
        )}
      </nav>

      <TimelineSummaryCard timeline={timeline} shares={analytics.data?.shares} sharesLoading={analytics.isPending} />

      <div className="studio__columns">
        <div className="studio__column">
          <AddContentSection
            ref={uploadRef}
            timelineId={id}
            onUploaded={() => void refreshVideos()}
            onProcessed={refreshAfterProcessing}
          />
          <RecentActivitySection timeline={timeline} />
          <VideoManagementSection
            timelineId={id}
            onTimelineChanged={() => {
              void refreshTimeline();
              void queryClient.invalidateQueries({ queryKey: MY_TIMELINES_QUERY_KEY });
            }}
          />
          <Suspense fallback={null}>
            <MissingAltText timelineId={id} />
          </Suspense>
          <section className="card studio-section" aria-labelledby="team-title">
            <h2 className="studio-section__title" id="team-title">
              Team Collaboration
            </h2>
            <div className="team">
              <CollaboratorsPanel
                timelineId={id}
                isOwner={isOwner}
                canInvite={isOwner}
                inviteOpen={inviteOpen}
                onInviteOpenChange={setInviteOpen}
                onOwnershipTransferred={() => {
                  void refreshTimeline();
                  void queryClient.invalidateQueries({ queryKey: MY_TIMELINES_QUERY_KEY });
                }}
              />
              <TimelineComments timelineId={id} onCommentAdded={() => countAddedComment(queryClient, id)} />
            </div>
          </section>
          <CommentControlsPanel timelineId={id} />
        </div>
        <div className="studio__column">
          <TimelinePerformance
            analytics={analytics.data}
            loading={analytics.isPending}
            failed={analytics.isError}
            onRetry={() => void analytics.refetch()}
          />
          <SuggestionsPanel
            suggestions={suggestions}
            refreshing={refreshing}
            onRefresh={() => void refreshSuggestions()}
            onAction={onSuggestionAction}
          />
        </div>
      </div>

      <TimelineSettingsDialog
        timeline={timeline}
        publishCheck={
          <Suspense fallback={null}>
            <PublishAltTextCheck timelineId={id} />
          </Suspense>
        }
        open={settingsOpen}
        onOpenChange={setSettingsOpen}
        onDeleted={() => void navigate('/studio')}
      />
    </div>
  );
}

function TimelineNotFound() {
  return (
    <PageState
      title="Timeline not found"
      actions={
        <Link to="/" className="button button--primary">
          Back to Home
        </Link>
      }
    >
      <p>This timeline doesn&apos;t exist, or you don&apos;t have access to it.</p>
    </PageState>
  );
}

function TimelineStudio({ id }: { id: string }) {
  const timeline = useTimeline(id);

  if (timeline.isPending) {
    return (
      <div className="page-state">
        <Spinner label="Loading timeline..." />
      </div>
    );
  }
  if (timeline.isError) {
    if (timeline.error instanceof ApiError && timeline.error.status === 404) return <TimelineNotFound />;
    return (
      <PageState
        title="Timeline unavailable"
        actions={
          <button type="button" className="button button--primary" onClick={() => void timeline.refetch()}>
            Try again
          </button>
        }
      >
        <p>This timeline could not be loaded. Check your connection and try again.</p>
      </PageState>
    );
  }
  // Only the owner and editors work here; everyone else watches (spec 001, section 6).
  if (!canEditTimeline(timeline.data.role)) return <Navigate to={`/watch/${encodeURIComponent(id)}`} replace />;
  return <StudioContent timeline={timeline.data} />;
}

/** The studio for one timeline, at /timeline/{id} and /creator/{id}. */
export default function TimelineStudioRoute() {
  const { id = '' } = useParams();
  return <TimelineStudio key={id} id={id} />;
}
