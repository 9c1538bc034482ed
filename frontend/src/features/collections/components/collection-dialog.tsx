import { ResponsiveDialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { collectionBody, useCreateCollection } from '../api/create-collection';
import type { Collection } from '../api/types';
import { useUpdateCollection } from '../api/update-collection';
import { CollectionForm } from './collection-form';

export interface CollectionDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The collection to edit; none creates a new one. */
  collection?: Collection | null;
  onSaved?: (collection: Collection) => void;
}

/** 'New Collection' or 'Edit Collection': name, description, public or private. */
export function CollectionDialog({ open, onOpenChange, collection, onSaved }: CollectionDialogProps) {
  const create = useCreateCollection();
  const update = useUpdateCollection();
  const editing = Boolean(collection);
  const pending = create.isPending || update.isPending;

  const close = (next: boolean) => {
    if (!next && pending) return;
    onOpenChange(next);
  };

  return (
    <ResponsiveDialog
      open={open}
      onOpenChange={close}
      title={editing ? 'Edit Collection' : 'New Collection'}
      description={editing ? 'Change its name, description or who can see it.' : 'Group timelines you want to keep together.'}
    >
      {open ? (
        <CollectionForm
          key={collection?.id ?? 'new'}
          label={editing ? 'Edit Collection' : 'New Collection'}
          initial={collection ? { name: collection.name, description: collection.description ?? '', isPublic: collection.isPublic } : undefined}
          pending={pending}
          submitLabel={editing ? 'Save Changes' : 'Create Collection'}
          pendingLabel={editing ? 'Saving...' : 'Creating...'}
          onCancel={() => close(false)}
          onSubmit={(values) => {
            const body = collectionBody(values);
            const done = (saved: Collection) => {
              toast({ title: editing ? 'Collection updated' : 'Collection created', description: `"${saved.name}" ${editing ? 'has been saved' : 'has been created'}.` });
              onOpenChange(false);
              onSaved?.(saved);
            };
            const failed = (error: unknown) =>
              toast({
                title: editing ? 'Error updating collection' : 'Error creating collection',
                description: errorMessage(error, editing ? 'Failed to update collection. Please try again.' : 'Failed to create collection. Please try again.'),
                variant: 'destructive',
              });
            if (collection) update.mutate({ id: collection.id, body }, { onSuccess: done, onError: failed });
            else create.mutate(body, { onSuccess: done, onError: failed });
          }}
        />
      ) : null}
    </ResponsiveDialog>
  );
}
