import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { CollapsibleSection } from '../../../components/ui/collapsible-section';
import { missingAltTextQueryKey, useMissingAltText } from '../api/alt-text';
import { useVideos } from '../api/get-videos';
import { AltTextEditor } from './alt-text-editor';
import './alt-text.css';

/** "3 items are missing alt text or a description", or that none is. */
export function missingSummary(count: number): string {
  if (count === 0) return 'Every image and video has alt text or a description.';
  return `${count} ${count === 1 ? 'item is' : 'items are'} missing alt text or a description`;
}

/**
 * The studio's list of the timeline's images and videos still without alt text or a description
 * (those put off with "Add later" among them), each with a quick edit.
 */
export function MissingAltText({ timelineId }: { timelineId: string }) {
  const missing = useMissingAltText(timelineId);
  const [editing, setEditing] = useState<string | null>(null);
  const queryClient = useQueryClient();
  // The timeline's media list changed (an upload, a deletion, processing): so may this list.
  const { dataUpdatedAt } = useVideos(timelineId, { enabled: false });
  useEffect(() => {
    if (dataUpdatedAt) void queryClient.invalidateQueries({ queryKey: missingAltTextQueryKey(timelineId) });
  }, [dataUpdatedAt, queryClient, timelineId]);

  let body;
  if (missing.isPending) body = <p className="muted">Loading...</p>;
  else if (missing.isError) {
    body = (
      <p>
        The list could not be loaded.{' '}
        <button type="button" className="button button--ghost button--sm" onClick={() => void missing.refetch()}>
          Try again
        </button>
      </p>
    );
  } else {
    const { count, items } = missing.data;
    body = (
      <>
        <p className="alt-missing__summary" role="status">
          {missingSummary(count)}
        </p>
        {items.length > 0 ? (
          <ul className="alt-missing__list" aria-label="Items missing alt text or a description">
            {items.map((item) => {
              const kind = item.mediaType === 'image' ? 'image' : 'video';
              return (
                <li key={item.id} className="alt-missing__item">
                  <p className="alt-missing__name">
                    <span>{item.title}</span>
                    <Badge tone="neutral">{kind === 'image' ? 'Image' : 'Video'}</Badge>
                    {item.altTextDeferred ? <Badge tone="warning">Marked for later</Badge> : null}
                  </p>
                  {editing === item.id ? (
                    <AltTextEditor timelineId={timelineId} mediaId={item.id} kind={kind} name={item.title} autoFocus onDone={() => setEditing(null)} onCancel={() => setEditing(null)} />
                  ) : (
                    <button type="button" className="button button--secondary button--sm" onClick={() => setEditing(item.id)} aria-label={`${kind === 'image' ? 'Add alt text to' : 'Add description to'} ${item.title}`}>
                      {kind === 'image' ? 'Add alt text' : 'Add description'}
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        ) : null}
      </>
    );
  }
  return <CollapsibleSection title="Alt text and descriptions">{body}</CollapsibleSection>;
}

export default MissingAltText;
