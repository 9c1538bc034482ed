import { useState } from 'react';
import { useMissingAltText } from '../api/alt-text';
import { AltTextPrompt } from './alt-text-prompt';

/** "2 items have no alt text or description yet", before publishing. */
export function publishCheckTitle(count: number): string {
  return `${count} ${count === 1 ? 'item has' : 'items have'} no alt text or description yet`;
}

/**
 * Before a timeline is published: its images and videos still without alt text or a description,
 * each with the editor and "Add later" (those already put off are not asked about again).
 * Publishing is not held back.
 */
export default function PublishAltTextCheck({ timelineId }: { timelineId: string }) {
  const missing = useMissingAltText(timelineId);
  const [answered, setAnswered] = useState<ReadonlySet<string>>(() => new Set());
  const items = (missing.data?.items ?? [])
    .filter((item) => !item.altTextDeferred && !answered.has(item.id))
    .map((item) => ({ mediaId: item.id, kind: item.mediaType === 'image' ? ('image' as const) : ('video' as const), name: item.title }));
  if (items.length === 0) return null;
  return <AltTextPrompt timelineId={timelineId} items={items} title={publishCheckTitle(items.length)} onAnswered={(id) => setAnswered((done) => new Set(done).add(id))} />;
}
