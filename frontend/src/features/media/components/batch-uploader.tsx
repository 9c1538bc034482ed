import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useAltTextPrompts } from '../hooks/use-alt-text-prompts';
import { getUploadQueue, useUploadSnapshot } from '../hooks/use-upload-queue';
import { isBatchVideo, VIDEO_ACCEPT } from '../lib/file-acceptance';
import { formatFileSize, formatTimeLeft } from '../lib/speed';
import type { UploadItem, UploadManager } from '../lib/upload-manager';
import { DropZone, takePickedFiles } from './drop-zone';
import { InterruptedUploads } from './interrupted-uploads';
import { UploadQueueList } from './upload-queue-list';
import './media.css';

// Asks for alt text or a description once a file is stored; loaded when first needed.
const AltTextPrompt = lazy(() => import('./alt-text-prompt'));

export interface BatchUploaderProps {
  timelineId: string;
  onUploaded?: () => void;
  onProcessed?: () => void;
  queue?: UploadManager;
}

/** Bytes sent over all items, and all their bytes: what the overall bar shows. */
export function overallProgress(items: readonly UploadItem[]): { sent: number; total: number; percent: number } {
  let sent = 0;
  let total = 0;
  for (const item of items) {
    total += item.bytesTotal;
    sent += item.status === 'processing' || item.status === 'completed' ? item.bytesTotal : item.bytesSent;
  }
  return { sent, total, percent: total > 0 ? Math.floor((sent / total) * 100) : 0 };
}

/** Seconds until every waiting byte is sent at the measured speed; undefined before a measurement. */
export function batchTimeLeft(items: readonly UploadItem[], speed: number | undefined): number | undefined {
  if (!speed) return undefined;
  const remaining = items
    .filter((item) => item.status === 'pending' || item.status === 'uploading')
    .reduce((sum, item) => sum + (item.bytesTotal - item.bytesSent), 0);
  return remaining / speed;
}

const folderInputProps = { webkitdirectory: '', directory: '' } as Record<string, string>;

/**
 * The batch uploader (spec 001, "Batch video uploader"): many videos, from files or a folder,
 * with previews, sent one after another once Start Upload is pressed.
 */
export function BatchUploader({ timelineId, onUploaded, onProcessed, queue: given }: BatchUploaderProps) {
  const queue = useMemo(() => given ?? getUploadQueue(timelineId, 'batch'), [given, timelineId]);
  const { items, speed } = useUploadSnapshot(queue);
  const prompts = useAltTextPrompts(timelineId, items);
  const folderInput = useRef<HTMLInputElement>(null);
  const [skipped, setSkipped] = useState(0);

  useEffect(() => {
    queue.setHooks({ onUploaded: () => onUploaded?.(), onProcessed: () => onProcessed?.() });
    return () => queue.setHooks({});
  }, [queue, onUploaded, onProcessed]);

  const addFiles = (files: File[]) => {
    const videos = files.filter(isBatchVideo);
    setSkipped(files.length - videos.length);
    if (videos.length > 0) queue.add(videos);
  };

  const count = (status: UploadItem['status']) => items.filter((item) => item.status === status).length;
  const pending = count('pending');
  const uploading = count('uploading');
  const failed = count('error');
  const processing = count('processing');
  const completed = count('completed');
  const overall = overallProgress(items);
  const timeLeft = batchTimeLeft(items, speed);

  return (
    <div className="batch-upload">
      <InterruptedUploads timelineId={timelineId} items={items} />
      <DropZone onFiles={addFiles} accept={VIDEO_ACCEPT} title="Drop videos or a folder here" chooseLabel="Select Files" inputLabel="Select video files">
        <button type="button" className="button button--secondary" onClick={() => folderInput.current?.click()}>
          Select Folder
        </button>
      </DropZone>
      <input
        ref={folderInput}
        type="file"
        className="visually-hidden"
        tabIndex={-1}
        aria-label="Select a folder of videos"
        multiple
        {...folderInputProps}
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          event.target.value = '';
          takePickedFiles(files, addFiles);
        }}
      />
      {skipped > 0 ? (
        <p className="muted" role="status">
          Skipped {skipped === 1 ? '1 file that is' : `${skipped} files that are`} not a video or over 2 GB.
        </p>
      ) : null}

      {items.length > 0 ? (
        <div className="batch-upload__summary">
          <div className="batch-upload__overall">
            <progress max={100} value={overall.percent} aria-label="Overall upload progress">
              {overall.percent}%
            </progress>
            <p className="batch-upload__figures" aria-live="polite">
              <span>
                {overall.percent}% · {formatFileSize(overall.sent)} of {formatFileSize(overall.total)}
              </span>
              {uploading > 0 ? (
                <span>{timeLeft === undefined ? 'Measuring speed...' : `About ${formatTimeLeft(timeLeft)} left`}</span>
              ) : null}
            </p>
            <p className="batch-upload__counts">
              <span>{completed} completed</span>
              <span>{processing} processing</span>
              <span>{failed} failed</span>
            </p>
          </div>
          <div className="batch-upload__actions">
            <button type="button" className="button button--primary" disabled={pending === 0} onClick={() => queue.start()}>
              Start Upload
            </button>
            {failed > 0 ? (
              <button type="button" className="button button--secondary" onClick={() => queue.retryFailed()}>
                Retry Failed
              </button>
            ) : null}
            {completed > 0 ? (
              <button type="button" className="button button--ghost" onClick={() => queue.clearCompleted()}>
                Clear Completed
              </button>
            ) : null}
          </div>
        </div>
      ) : null}
      <UploadQueueList queue={queue} items={items} label="Batch upload queue" showPreview />
      {prompts.pending.length > 0 ? (
        <Suspense fallback={null}>
          <AltTextPrompt timelineId={timelineId} items={prompts.pending} onAnswered={prompts.answer} />
        </Suspense>
      ) : null}
    </div>
  );
}
