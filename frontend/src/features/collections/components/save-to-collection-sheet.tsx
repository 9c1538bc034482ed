import { useState } from 'react';
import { Link } from 'react-router';
import { ResponsiveDialog } from '../../../components/ui/dialog';
import { LockIcon, PlusIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { pluralize } from '../../../lib/format';
import { collectionBody, useCreateCollectionWithTimeline } from '../api/create-collection';
import { useTimelineCollections } from '../api/get-timeline-collections';
import { useToggleTimelineInCollection } from '../hooks/use-toggle-timeline-in-collection';
import { CollectionForm } from './collection-form';
import './collections.css';

export interface SaveToCollectionSheetProps {
  timelineId: string;
  title: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * "Save to collection": the caller's collections as checkboxes, ticked where the timeline already
 * is. A tick adds it and an untick takes it out at once (shown before the answer, undone if the
 * server refuses); "New collection" makes one with the timeline in it. A bottom sheet under
 * 768 px, a dialog otherwise.
 */
export default function SaveToCollectionSheet({ timelineId, title, open, onOpenChange }: SaveToCollectionSheetProps) {
  const collections = useTimelineCollections(timelineId, { enabled: open });
  const toggle = useToggleTimelineInCollection(timelineId);
  const create = useCreateCollectionWithTimeline(timelineId);
  const [creating, setCreating] = useState(false);
  // The tick shows in the same render as the click, before the cached list catches up (a refetch
  // in flight when the box is clicked would otherwise show the old state for a moment).
  const [ticking, setTicking] = useState<ReadonlyMap<string, boolean>>(new Map());
  const settle = (collectionId: string) =>
    setTicking((current) => {
      const next = new Map(current);
      next.delete(collectionId);
      return next;
    });

  const change = (next: boolean) => {
    if (!next) setCreating(false);
    onOpenChange(next);
  };

  let list;
  if (collections.isPending) {
    list = <Spinner label="Loading your collections..." />;
  } else if (collections.isError) {
    list = (
      <div className="save-sheet__state" role="alert">
        <p>{errorMessage(collections.error, 'Your collections could not be loaded.')}</p>
        <button type="button" className="button button--secondary button--sm" onClick={() => void collections.refetch()}>
          Try again
        </button>
      </div>
    );
  } else if (collections.data.length === 0) {
    list = <p className="save-sheet__state muted">You have no collections yet.</p>;
  } else {
    list = (
      <ul className="save-sheet__list" aria-label="Your collections">
        {collections.data.map((collection) => (
          <li key={collection.id}>
            <label className="save-sheet__option">
              <input
                type="checkbox"
                className="save-sheet__checkbox"
                checked={ticking.get(collection.id) ?? collection.contains}
                onChange={(event) => {
                  const contains = event.target.checked;
                  setTicking((current) => new Map(current).set(collection.id, contains));
                  toggle.mutate(
                    { collectionId: collection.id, contains },
                    {
                      onSettled: () => settle(collection.id),
                      onError: (error) =>
                        toast({
                          title: contains ? 'Could not save to collection' : 'Could not remove from collection',
                          description: errorMessage(error, 'Please try again.'),
                          variant: 'destructive',
                        }),
                    },
                  );
                }}
              />
              <span className="save-sheet__name">{collection.name}</span>
              <span className="save-sheet__count">
                {collection.isPublic ? null : (
                  <>
                    <LockIcon width={14} height={14} aria-hidden="true" />
                    <span className="visually-hidden">Private, </span>
                  </>
                )}
                {pluralize(collection.timelinesCount, 'timeline')}
              </span>
            </label>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <ResponsiveDialog open={open} onOpenChange={change} title="Save to collection" description={title}>
      <div className="save-sheet">
        {list}
        {creating ? (
          <CollectionForm
            label="New collection"
            compact
            footerClassName="save-sheet__form-actions"
            pending={create.isPending}
            submitLabel="Create and save"
            pendingLabel="Creating..."
            onCancel={() => setCreating(false)}
            onSubmit={(values) =>
              create.mutate(collectionBody(values), {
                onSuccess: (collection) => {
                  setCreating(false);
                  toast({ title: 'Saved to collection', description: `"${title}" was saved to "${collection.name}".` });
                },
                onError: (error) =>
                  toast({ title: 'Error creating collection', description: errorMessage(error, 'Failed to create collection. Please try again.'), variant: 'destructive' }),
              })
            }
          />
        ) : (
          <div className="save-sheet__actions">
            <button type="button" className="button button--secondary" onClick={() => setCreating(true)}>
              <PlusIcon width={18} height={18} /> New collection
            </button>
            <Link to="/collections" className="button button--ghost" onClick={() => change(false)}>
              Manage collections
            </Link>
          </div>
        )}
      </div>
    </ResponsiveDialog>
  );
}
