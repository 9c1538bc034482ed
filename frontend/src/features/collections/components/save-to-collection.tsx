import { lazy, Suspense, useState } from 'react';
import { CollectionsIcon } from '../../../components/ui/icons';

// The sheet's code is fetched the first time someone opens it.
const SaveToCollectionSheet = lazy(() => import('./save-to-collection-sheet'));

export interface SaveToCollectionProps {
  timelineId: string;
  title: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The "Save to collection" sheet, loaded on first opening and kept while it closes. */
export function SaveToCollection(props: SaveToCollectionProps) {
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <SaveToCollectionSheet {...props} />
    </Suspense>
  );
}

/** The player's top-bar button that opens the sheet. */
export function SaveToCollectionButton({ timelineId, title, className }: { timelineId: string; title: string; className: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(true)} aria-label="Save to collection" aria-haspopup="dialog">
        <CollectionsIcon width={22} height={22} />
      </button>
      <SaveToCollection timelineId={timelineId} title={title} open={open} onOpenChange={setOpen} />
    </>
  );
}
