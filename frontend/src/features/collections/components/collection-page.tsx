import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { PageState } from '../../../components/ui/page-state';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { pluralize } from '../../../lib/format';
import { useUser } from '../../../lib/current-user';
import { useDeleteCollection } from '../api/delete-collection';
import { useCollection } from '../api/get-collection';
import { useCollectionTimelines } from '../api/get-collection-timelines';
import { useRemoveFromCollection } from '../api/remove-collection-timeline';
import { useReorderCollection } from '../api/reorder-collection';
import { CollectionDialog } from './collection-dialog';
import { DELETE_COLLECTION_QUESTION } from './collections-page';
import { CollectionTimelineList } from './sortable-collection-timelines';
import './collections.css';

const isNotFound = (error: unknown) => error instanceof ApiError && (error.status === 404 || error.status === 400 || error.status === 403);

function BackLink() {
  return (
    <Link to="/collections" className="back-link">
      ← My Collections
    </Link>
  );
}

function CollectionTimelines({ id, owner }: { id: string; owner: boolean }) {
  const timelines = useCollectionTimelines(id);
  const reorder = useReorderCollection(id);
  const remove = useRemoveFromCollection(id);

  if (timelines.isPending) return <Spinner label="Loading timelines..." />;
  if (timelines.isError) {
    return (
      <PageState
        as="h2"
        title="Couldn't load the timelines"
        actions={
          <button type="button" className="button button--primary" onClick={() => void timelines.refetch()}>
            Try again
          </button>
        }
      >
        <p>{errorMessage(timelines.error, 'Please check your connection and try again.')}</p>
      </PageState>
    );
  }
  if (timelines.data.length === 0) {
    return (
      <PageState as="h2" title="No timelines yet">
        <p>
          {owner
            ? 'Use "Save to collection" in a timeline\u2019s menu or in the player to add it here.'
            : 'This collection has no timelines you can see.'}
        </p>
      </PageState>
    );
  }
  return (
    <CollectionTimelineList
      timelines={timelines.data}
      {...(owner
        ? {
            onReorder: (next) =>
              reorder.mutate(next, {
                onError: (error) =>
                  toast({ title: 'Error saving the order', description: errorMessage(error, 'The new order could not be saved.'), variant: 'destructive' }),
              }),
            onRemove: (timeline) =>
              remove.mutate(timeline.id, {
                onSuccess: () => toast({ title: 'Removed from collection', description: `"${timeline.title}" was removed.` }),
                onError: (error) =>
                  toast({ title: 'Error removing timeline', description: errorMessage(error, 'The timeline could not be removed.'), variant: 'destructive' }),
              }),
          }
        : {})}
    />
  );
}

/** One collection: its timelines in order; its owner edits, deletes, reorders and removes. */
export function CollectionPage({ id }: { id: string }) {
  const me = useUser();
  const navigate = useNavigate();
  const collection = useCollection(id);
  const remove = useDeleteCollection();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);

  if (collection.isPending) {
    return (
      <div className="page">
        <Spinner label="Loading collection..." />
      </div>
    );
  }
  if (collection.isError) {
    if (isNotFound(collection.error)) {
      return (
        <div className="page">
          <title>Collection Not Found · Timeliner</title>
          <PageState title="Collection Not Found" actions={<Link to="/collections" className="button button--primary">My Collections</Link>}>
            <p>This collection doesn&apos;t exist, or it is private.</p>
          </PageState>
        </div>
      );
    }
    return (
      <div className="page">
        <PageState
          title="Couldn't load this collection"
          actions={
            <button type="button" className="button button--primary" onClick={() => void collection.refetch()}>
              Try again
            </button>
          }
        >
          <p>{errorMessage(collection.error, 'Please check your connection and try again.')}</p>
        </PageState>
      </div>
    );
  }

  const data = collection.data;
  const owner = Boolean(me.data && me.data.id === data.userId);
  return (
    <div className="page">
      <title>{`${data.name} · Timeliner`}</title>
      <div className="page__header">
        <div>
          {owner ? <BackLink /> : null}
          <h1 className="page__title">{data.name}</h1>
          {data.description ? <p className="page__subtitle">{data.description}</p> : null}
          <p className="collection-page__meta">
            <Badge tone={data.isPublic ? 'success' : 'neutral'}>{data.isPublic ? 'Public' : 'Private'}</Badge>
            <span>{pluralize(data.timelinesCount, 'timeline')}</span>
          </p>
        </div>
        {owner ? (
          <div className="page__actions">
            <button type="button" className="button button--secondary" onClick={() => setEditing(true)}>
              Edit
            </button>
            <button type="button" className="button button--danger" onClick={() => setDeleting(true)}>
              Delete
            </button>
          </div>
        ) : null}
      </div>
      {owner ? <p className="muted collection-page__hint">Drag a timeline by its handle to change the order.</p> : null}
      <CollectionTimelines id={id} owner={owner} />
      {owner ? (
        <>
          <CollectionDialog open={editing} onOpenChange={setEditing} collection={data} />
          <ConfirmDialog
            open={deleting}
            onOpenChange={setDeleting}
            title={DELETE_COLLECTION_QUESTION}
            description={`"${data.name}" will be deleted. The timelines in it are not deleted.`}
            confirmLabel="Delete"
            pendingLabel="Deleting..."
            pending={remove.isPending}
            onConfirm={() =>
              remove.mutate(id, {
                onSuccess: () => {
                  setDeleting(false);
                  toast({ title: 'Collection deleted', description: `"${data.name}" has been deleted.` });
                  void navigate('/collections', { replace: true });
                },
                onError: (error) => {
                  setDeleting(false);
                  toast({ title: 'Error deleting collection', description: errorMessage(error, 'Failed to delete collection. Please try again.'), variant: 'destructive' });
                },
              })
            }
          />
        </>
      ) : null}
    </div>
  );
}
