import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { SelectField } from '../../../components/ui/form-fields';
import { PlusIcon, SearchIcon } from '../../../components/ui/icons';
import { PageState } from '../../../components/ui/page-state';
import { toast } from '../../../components/ui/toast';
import { useDeleteTimeline } from '../../../features/timelines/api/delete-timeline';
import { useMyTimelines, type MyTimeline } from '../../../features/timelines/api/get-my-timelines';
import { CreateTimelineDialog } from '../../../features/timelines/components/create-timeline-dialog';
import {
  DashboardCardSkeleton,
  DashboardSummaryCards,
  DashboardTimelineCard,
} from '../../../features/timelines/components/dashboard-timeline-card';
import { DELETE_FAILED, TimelineSettingsDialog } from '../../../features/timelines/components/timeline-settings-dialog';
import { useCopyTimelineLink } from '../../../features/timelines/hooks/use-copy-timeline-link';
import { canEditTimeline } from '../../../features/timelines/lib/labels';
import { timelineShareLink } from '../../../features/timelines/lib/share-links';
import {
  byCreatedDesc,
  filterTimelines,
  STATUS_FILTER_OPTIONS,
  summarize,
  type StatusFilter,
} from '../../../features/timelines/lib/timeline-lists';
import '../../../features/timelines/components/timelines.css';

/** Loading shows this many placeholder cards (spec 001, section 2). */
export const SKELETON_CARDS = 6;

/** The experiences dashboard: every timeline you work on, with search, a status filter and totals. */
export default function DashboardRoute() {
  const navigate = useNavigate();
  const timelines = useMyTimelines();
  const [query, setQuery] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [creating, setCreating] = useState(false);
  const [settingsFor, setSettingsFor] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<MyTimeline | null>(null);
  const copyLink = useCopyTimelineLink();
  const remove = useDeleteTimeline({
    onSuccess: () => {
      toast({ title: 'Timeline Deleted', description: deleting ? `"${deleting.title}" has been deleted.` : undefined });
      setDeleting(null);
    },
    onError: () => {
      toast({ title: DELETE_FAILED, variant: 'destructive' });
      setDeleting(null);
    },
  });

  const all = (timelines.data ?? []).filter((timeline) => canEditTimeline(timeline.role)).sort(byCreatedDesc);
  const shown = filterTimelines(all, query, status);
  const filtering = query.trim() !== '' || status !== 'all';
  // The settings dialog follows the list, so it shows each change the server confirms.
  const settingsTimeline = settingsFor ? all.find((timeline) => timeline.id === settingsFor) : undefined;

  let list;
  if (timelines.isPending) {
    list = (
      <>
        <p className="visually-hidden" role="status">
          Loading timelines...
        </p>
        <div className="card-grid" data-testid="dashboard-skeletons">
          {Array.from({ length: SKELETON_CARDS }, (_, index) => (
            <DashboardCardSkeleton key={index} />
          ))}
        </div>
      </>
    );
  } else if (timelines.isError) {
    list = (
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
  } else if (shown.length === 0) {
    list = (
      <PageState
        as="h2"
        title="No timelines found"
        actions={
          filtering ? null : (
            <button type="button" className="button button--primary" onClick={() => setCreating(true)}>
              <PlusIcon width={18} height={18} /> Create Your First Timeline
            </button>
          )
        }
      >
        <p>{filtering ? 'Try adjusting your search or filters' : 'Get started by creating your first timeline'}</p>
      </PageState>
    );
  } else {
    list = (
      <ul className="card-grid" aria-label="Timelines">
        {shown.map((timeline) => (
          <li key={timeline.id}>
            <DashboardTimelineCard
              timeline={timeline}
              onSettings={(chosen) => setSettingsFor(chosen.id)}
              onShare={(chosen) => void copyLink(chosen.id, timelineShareLink(window.location.origin, chosen.id), 'share-link')}
              onDelete={setDeleting}
            />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div className="page">
      <title>Dashboard · Timeliner</title>
      <div className="page__header">
        <div>
          <h1 className="page__title">Experiences Dashboard</h1>
          <p className="page__subtitle">Manage your video timelines and projects</p>
        </div>
        <button type="button" className="button button--primary" onClick={() => setCreating(true)}>
          <PlusIcon width={18} height={18} /> New Timeline
        </button>
      </div>

      {timelines.isSuccess ? <DashboardSummaryCards {...summarize(all)} /> : null}

      <div className="dashboard-toolbar" role="search" aria-label="Your timelines">
        <div className="field">
          <label className="field__label" htmlFor="dashboard-search">
            Search
          </label>
          <div className="picker__search">
            <SearchIcon className="picker__search-icon" width={18} height={18} />
            <input
              id="dashboard-search"
              type="search"
              className="field__input picker__search-input"
              placeholder="Search timelines..."
              value={query}
              onChange={(event) => setQuery(event.target.value)}
            />
          </div>
        </div>
        <SelectField label="Status" value={status} options={STATUS_FILTER_OPTIONS} onValueChange={setStatus} />
      </div>

      {list}

      <CreateTimelineDialog
        open={creating}
        onOpenChange={setCreating}
        onCreated={(timeline) => void navigate(`/timeline/${encodeURIComponent(timeline.id)}`)}
      />
      {settingsTimeline ? (
        <TimelineSettingsDialog
          timeline={settingsTimeline}
          open
          onOpenChange={(open) => (open ? undefined : setSettingsFor(null))}
          onDeleted={() => setSettingsFor(null)}
        />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title="Delete this timeline?"
        description={deleting ? `"${deleting.title}" and all its videos will be permanently deleted. This action cannot be undone.` : ''}
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
    </div>
  );
}
