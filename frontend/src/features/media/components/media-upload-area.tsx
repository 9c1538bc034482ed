import { lazy, Suspense, useEffect, useMemo } from 'react';
import { toast } from '../../../components/ui/toast';
import { useAltTextPrompts } from '../hooks/use-alt-text-prompts';
import { getUploadQueue, useUploadSnapshot } from '../hooks/use-upload-queue';
import { MEDIA_ACCEPT, mediaFileProblem } from '../lib/file-acceptance';
import type { UploadHooks, UploadManager } from '../lib/upload-manager';
import { DropZone } from './drop-zone';
import { InterruptedUploads } from './interrupted-uploads';
import { UploadQueueList } from './upload-queue-list';
import './media.css';

// Asks for alt text or a description once a file is stored; loaded when first needed.
const AltTextPrompt = lazy(() => import('./alt-text-prompt'));

export interface MediaUploadAreaProps {
  timelineId: string;
  /** A file's bytes are stored; the page refreshes what lists it. */
  onUploaded?: () => void;
  /** The server finished processing a file. */
  onProcessed?: () => void;
  /** For tests: the queue to show instead of the timeline's shared one. */
  queue?: UploadManager;
}

/** Tells about files that were not queued; one toast for all of them (one toast at a time). */
export function reportRejected(problems: string[]): void {
  if (problems.length === 0) return;
  toast({
    title: 'Upload Failed',
    description: problems.length === 1 ? problems[0] : `${problems.length} files were not added. ${problems[0]}`,
    variant: 'destructive',
  });
}

/**
 * The studio's media upload area (spec 001, "Media upload area"): videos and images, one at a
 * time, each through upload and then processing, with progress the server reports.
 */
export function MediaUploadArea({ timelineId, onUploaded, onProcessed, queue: given }: MediaUploadAreaProps) {
  const queue = useMemo(() => given ?? getUploadQueue(timelineId, 'media'), [given, timelineId]);
  const { items } = useUploadSnapshot(queue);
  const prompts = useAltTextPrompts(timelineId, items);

  useEffect(() => {
    const hooks: UploadHooks = {
      onUploaded: () => onUploaded?.(),
      // Spec 001 section 8's words, for an image and a video alike.
      onAnnounced: () => toast({ title: 'Upload Started', description: 'Your image/video is being processed' }),
      onProcessed: () => onProcessed?.(),
      onFailed: (item) => toast({ title: 'Upload Failed', description: item.error || 'Upload failed. Please try again.', variant: 'destructive' }),
    };
    queue.setHooks(hooks);
    return () => queue.setHooks({});
  }, [queue, onUploaded, onProcessed]);

  const addFiles = (files: File[]) => {
    const problems: string[] = [];
    const accepted: File[] = [];
    for (const file of files) {
      const problem = mediaFileProblem(file);
      if (problem) problems.push(problem);
      else accepted.push(file);
    }
    reportRejected(problems);
    if (accepted.length > 0) queue.add(accepted);
  };

  const completed = items.filter((item) => item.status === 'completed').length;

  return (
    <div className="media-upload">
      <InterruptedUploads timelineId={timelineId} items={items} />
      <DropZone
        onFiles={addFiles}
        accept={MEDIA_ACCEPT}
        title="Drag and drop videos or images here"
        hint="MP4, MOV, AVI, WebM, MKV and other videos, or JPEG, PNG, GIF, WebP and BMP images; up to 2 GB each"
        inputLabel="Choose videos or images to upload"
      />
      <UploadQueueList queue={queue} items={items} label="Upload queue" />
      {prompts.pending.length > 0 ? (
        <Suspense fallback={null}>
          <AltTextPrompt timelineId={timelineId} items={prompts.pending} onAnswered={prompts.answer} />
        </Suspense>
      ) : null}
      {completed > 0 ? (
        <button type="button" className="button button--ghost button--sm" onClick={() => queue.clearCompleted()}>
          Clear Completed
        </button>
      ) : null}
    </div>
  );
}
