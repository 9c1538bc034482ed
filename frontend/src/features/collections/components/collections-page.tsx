import { useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CollectionsIcon } from '../../../components/ui/icons';
import { PageState } from '../../../components/ui/page-state';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { pluralize } from '../../../lib/format';
import { useDeleteCollection } from '../api/delete-collection';
import { useMyCollections } from '../api/get-my-collections';
import type { Collection } from '../api/types';
import { CollectionDialog } from './collection-dialog';
import './collections.css';

export const DELETE_COLLECTION_QUESTION = 'Delete this collection?';

function CollectionCard({ collection, onEdit, onDelete }: { collection: Collection; onEdit: () => void; onDelete: () => void }) {
  const headingId = `collection-${collection.id}`;
  return (
    <article className="card collection-card" aria-labelledby={headingId}>
      <Link to={`/collections/${encodeURIComponent(collection.id)}`} className="collection-card__link">
        <span className="collection-card__cover" aria-hidden="true">
          {collection.name.trim().charAt(0).toUpperCase() || '?'}
        </span>
        <span className="collection-card__text">
          <span className="collection-card__name" id={headingId}>
            {collection.name}
          </span>
          <span className="collection-card__meta">{pluralize(collection.timelinesCount, 'timeline')}</span>
        </span>
      </Link>
      {collection.description ? <p className="collection-card__description">{collection.description}</p> : null}
      <div className="collection-card__footer">
        <Badge tone={collection.isPublic ? 'success' : 'neutral'}>{collection.isPublic ? 'Public' : 'Private'}</Badge>
        <span className="collection-card__actions">
          <button type="button" className="button button--ghost button--sm" onClick={onEdit} aria-label={`Edit ${collection.name}`}>
            Edit
          </button>
          <button type="button" className="button button--ghost button--sm collection-card__delete" onClick={onDelete} aria-label={`Delete ${collection.name}`}>
            Delete
          </button>
        </span>
      </div>
    </article>
  );
}

/** 'My Collections' (spec 001, "Collections"): the caller's collections with create, edit and delete. */
export function CollectionsPage() {
  const collections = useMyCollections();
  const remove = useDeleteCollection();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Collection | null>(null);
  const [deleting, setDeleting] = useState<Collection | null>(null);
  const list = collections.data?.pages.flatMap((page) => page.items) ?? [];

  const newButton = (text = 'New Collection') => (
    <button type="button" className="button button--primary" onClick={() => setCreating(true)}>
      {text}
    </button>
  );

  let body;
  if (collections.isPending) {
    body = <Spinner label="Loading collections..." />;
  } else if (collections.isError) {
    body = (
      <PageState
        as="h2"
        title="Couldn't load your collections"
        actions={
          <button type="button" className="button button--primary" onClick={() => void collections.refetch()}>
            Try again
          </button>
        }
      >
        <p>{errorMessage(collections.error, 'Please check your connection and try again.')}</p>
      </PageState>
    );
  } else if (list.length === 0) {
    body = (
      <PageState as="h2" title="No collections yet" icon={<CollectionsIcon width={32} height={32} />} actions={newButton('Create Your First Collection')}>
        <p>Collections keep the timelines you love together. Save a timeline from its menu or the player.</p>
      </PageState>
    );
  } else {
    body = (
      <>
        <ul className="collection-grid" aria-label="Your collections">
          {list.map((collection) => (
            <li key={collection.id}>
              <CollectionCard collection={collection} onEdit={() => setEditing(collection)} onDelete={() => setDeleting(collection)} />
            </li>
          ))}
        </ul>
        {collections.hasNextPage ? (
          <div className="collection-more">
            <button
              type="button"
              className="button button--secondary"
              disabled={collections.isFetchingNextPage}
              onClick={() => void collections.fetchNextPage()}
            >
              {collections.isFetchingNextPage ? 'Loading...' : 'Load more'}
            </button>
          </div>
        ) : null}
      </>
    );
  }

  return (
    <div className="page">
      <title>My Collections · Timeliner</title>
      <div className="page__header">
        <div>
          <h1 className="page__title">My Collections</h1>
          <p className="page__subtitle">Timelines you keep together, in your order.</p>
        </div>
        {list.length > 0 ? <div className="page__actions">{newButton()}</div> : null}
      </div>
      {body}
      <CollectionDialog open={creating} onOpenChange={setCreating} />
      <CollectionDialog open={editing !== null} onOpenChange={(open) => (open ? undefined : setEditing(null))} collection={editing} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={DELETE_COLLECTION_QUESTION}
        description={
          deleting ? `"${deleting.name}" will be deleted. The timelines in it are not deleted.` : ''
        }
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={remove.isPending}
        onConfirm={() => {
          if (!deleting) return;
          const { id, name } = deleting;
          remove.mutate(id, {
            onSuccess: () => {
              setDeleting(null);
              toast({ title: 'Collection deleted', description: `"${name}" has been deleted.` });
            },
            onError: (error) => {
              setDeleting(null);
              toast({ title: 'Error deleting collection', description: errorMessage(error, 'Failed to delete collection. Please try again.'), variant: 'destructive' });
            },
          });
        }}
      />
    </div>
  );
}
