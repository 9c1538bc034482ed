import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PlusIcon } from '../../../components/ui/icons';
import { PageState } from '../../../components/ui/page-state';
import { Spinner } from '../../../components/ui/spinner';
import { STORAGE_USAGE_QUERY_KEY } from '../../../features/media/api/get-storage-usage';
import { videosQueryKey } from '../../../features/media/api/get-videos';
import { StorageUsage } from '../../../features/media/components/storage-usage';
import { MY_TIMELINES_QUERY_KEY, useMyTimelines } from '../../../features/timelines/api/get-my-timelines';
import { StudioTimelineCard } from '../../../features/timelines/components/studio-timeline-card';
import { STUDIO_FIRST_CARDS, studioOwnTimelines } from '../../../features/timelines/lib/studio-list';
import { byCreatedDesc } from '../../../features/timelines/lib/timeline-lists';
import '../../../features/timelines/components/timelines.css';

// The upload dialog's code (and tus under it) loads the first time one is opened.
const QuickUploadDialog = lazy(() => import('../../../features/media/components/quick-upload-dialog'));
// So does the creation dialog's (and the dialog library under it): the list is drawn without them.
const CreateTimelineDialog = lazy(() => import('../../../features/timelines/components/create-timeline-dialog'));

/** Creator Studio (spec 001, section 2): the timelines you work on; ?create=true opens creation. */
export default function StudioRoute() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const creating = params.get('create') === 'true';
  // Once opened, the creation dialog stays mounted so it can animate closed and open again at once.
  const [createNeeded, setCreateNeeded] = useState(creating);
  if (creating && !createNeeded) setCreateNeeded(true);
  const timelines = useMyTimelines();
  const queryClient = useQueryClient();
  const [uploadingTo, setUploadingTo] = useState<{ id: string; title: string; session: number } | null>(null);
  const [uploadOpen, setUploadOpen] = useState(false);
  const uploadTimelineId = uploadingTo?.id;
  const onUploaded = useCallback(() => {
    if (uploadTimelineId) void queryClient.invalidateQueries({ queryKey: videosQueryKey(uploadTimelineId) });
    void queryClient.invalidateQueries({ queryKey: MY_TIMELINES_QUERY_KEY });
    void queryClient.invalidateQueries({ queryKey: STORAGE_USAGE_QUERY_KEY });
  }, [queryClient, uploadTimelineId]);

  const setCreating = (open: boolean) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (open) next.set('create', 'true');
        else next.delete('create');
        return next;
      },
      { replace: true },
    );
  };

  const all = timelines.data ?? [];
  const mine = studioOwnTimelines(all);
  // Timelines an invitation lets this person watch (and comment on): listed apart, opening the player.
  const watching = all.filter((timeline) => timeline.role === 'viewer').sort(byCreatedDesc);
  const empty = timelines.isSuccess && mine.length === 0;

  const ownList =
    mine.length > 0 ? (
      <ul className="card-grid" aria-label="Your timelines">
        {mine.map((timeline, index) => (
          <li key={timeline.id} className="studio-list__item">
            <StudioTimelineCard
              timeline={timeline}
              priority={index < STUDIO_FIRST_CARDS}
              actions={
                <button
                  type="button"
                  className="button button--secondary button--sm"
                  aria-label={`Upload videos to ${timeline.title}`}
                  onClick={() => {
                    setUploadingTo({ id: timeline.id, title: timeline.title, session: Date.now() });
                    setUploadOpen(true);
                  }}
                >
                  Upload videos
                </button>
              }
            />
          </li>
        ))}
      </ul>
    ) : null;

  const watchingSection =
    watching.length > 0 ? (
      <section className="studio-group" aria-labelledby="studio-watching-title">
        <h2 id="studio-watching-title" className="studio-group__title">
          Shared with you to watch
        </h2>
        <p className="studio-group__hint">You were invited as a viewer: you can watch these timelines and comment on them.</p>
        <ul className="card-grid" aria-label="Timelines shared with you to watch">
          {watching.map((timeline) => (
            <li key={timeline.id} className="studio-list__item">
              <StudioTimelineCard timeline={timeline} headingLevel={3} />
            </li>
          ))}
        </ul>
      </section>
    ) : null;

  let content;
  if (timelines.isPending) {
    content = (
      <div className="page-state">
        <Spinner label="Loading your timelines..." />
      </div>
    );
  } else if (timelines.isError) {
    content = (
      <PageState
        as="h2"
        title="Your timelines could not be loaded"
        actions={
          <button type="button" className="button button--primary" onClick={() => void timelines.refetch()}>
            Try again
          </button>
        }
      />
    );
  } else {
    content = (
      <div className="studio-section-list">
        {empty ? (
          <PageState
            as="h2"
            title={watching.length > 0 ? 'No timelines of your own yet' : 'No timelines yet'}
            actions={
              <button type="button" className="button button--primary" onClick={() => setCreating(true)}>
                <PlusIcon width={18} height={18} /> Create Your First Timeline
              </button>
            }
          >
            <p>Create a timeline, then add your videos to it.</p>
          </PageState>
        ) : (
          ownList
        )}
        {watchingSection}
      </div>
    );
  }

  return (
    <div className="page">
      <title>Creator Studio · Timeliner</title>
      <div className="page__header">
        <div>
          <Link to="/" className="back-link">
            Back to Feed
          </Link>
          <h1 className="page__title">Creator Studio</h1>
          <p className="page__subtitle">The timelines you own and work on.</p>
        </div>
        <div className="page__actions">
          <Link to="/dashboard" className="button button--secondary">
            Dashboard
          </Link>
          {empty ? null : (
            <button type="button" className="button button--primary" onClick={() => setCreating(true)}>
              <PlusIcon width={18} height={18} /> New Timeline
            </button>
          )}
        </div>
      </div>
      {content}
      <StorageUsage />
      {createNeeded ? (
        <Suspense fallback={null}>
          <CreateTimelineDialog
            open={creating}
            onOpenChange={setCreating}
            onCreated={(timeline) => void navigate(`/timeline/${encodeURIComponent(timeline.id)}`)}
          />
        </Suspense>
      ) : null}
      {uploadingTo ? (
        <Suspense fallback={null}>
          <QuickUploadDialog
            key={uploadingTo.session}
            timeline={uploadingTo}
            open={uploadOpen}
            onOpenChange={setUploadOpen}
            onUploaded={onUploaded}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
