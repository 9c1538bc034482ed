import { lazy, Suspense, useEffect, useState } from 'react';
import { ResponsiveDialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast';
import { useAltTextPrompts } from '../hooks/use-alt-text-prompts';
import { useUploadSnapshot } from '../hooks/use-upload-queue';
import { isVideoFile } from '../lib/file-acceptance';
import { createTusTransport } from '../lib/tus-transport';
import { UploadManager, type UploadItem, type UploadTransport } from '../lib/upload-manager';
import { DropZone } from './drop-zone';
import './media.css';

// Asks for alt text or a description once a file is stored; loaded when first needed.
const AltTextPrompt = lazy(() => import('./alt-text-prompt'));

/** Spec 000 section 9: 500 ms between files, the toast 1 s after the last, the dialog closes 2 s later. */
export const QUICK_GAP_MS = 500;
export const QUICK_TOAST_DELAY_MS = 1000;
export const QUICK_CLOSE_DELAY_MS = 2000;

export interface QuickUploadDialogProps {
  timeline: { id: string; title: string };
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The batch ended with at least one file stored: the page refreshes the lists that show it. */
  onUploaded: () => void;
  /** For tests: how files are sent. */
  transport?: UploadTransport;
}

const rowStatus = (item: UploadItem) =>
  item.status === 'error' ? 'Failed' : item.status === 'processing' || item.status === 'completed' ? 'Done' : 'Uploading...';

/** 'Done' means the server holds the whole file; processing then continues on the server. */
const finished = (item: UploadItem) => item.status === 'processing' || item.status === 'completed' || item.status === 'error';

/**
 * Quick upload into one timeline (spec 000, "Upload dialog"): videos go one after another, each
 * row showing the bytes sent; when all are done a toast tells how many really arrived.
 */
export function QuickUploadDialog({ timeline, open, onOpenChange, onUploaded, transport }: QuickUploadDialogProps) {
  const [queue] = useState(
    () => new UploadManager({ timelineId: timeline.id, transport: transport ?? createTusTransport(), gapMs: QUICK_GAP_MS, autoStart: true }),
  );
  const { items } = useUploadSnapshot(queue);
  const [batchDone, setBatchDone] = useState(false);
  const prompts = useAltTextPrompts(timeline.id, items);
  // The dialog stays open while an upload still asks for its description.
  const asking = prompts.pending.length > 0;

  useEffect(() => () => queue.dispose(), [queue]);

  const allFinished = items.length > 0 && items.every(finished);
  const succeeded = items.filter((item) => item.status !== 'error').length;

  useEffect(() => {
    if (!allFinished || batchDone) return;
    const toastTimer = setTimeout(() => {
      setBatchDone(true);
      if (succeeded > 0) {
        toast({ title: 'Upload Complete', description: `${succeeded} ${succeeded === 1 ? 'video' : 'videos'} uploaded successfully` });
        onUploaded();
      } else {
        toast({ title: 'Upload Failed', description: 'None of the videos could be uploaded.', variant: 'destructive' });
      }
    }, QUICK_TOAST_DELAY_MS);
    return () => clearTimeout(toastTimer);
  }, [allFinished, batchDone, succeeded, onUploaded]);

  useEffect(() => {
    if (!batchDone || asking) return;
    const closeTimer = setTimeout(() => {
      for (const item of queue.getSnapshot().items) queue.remove(item.id);
      setBatchDone(false);
      onOpenChange(false);
    }, QUICK_CLOSE_DELAY_MS);
    return () => clearTimeout(closeTimer);
  }, [batchDone, asking, queue, onOpenChange]);

  return (
    <ResponsiveDialog open={open} onOpenChange={onOpenChange} title={items.length > 0 ? 'Uploading Videos...' : `Upload to ${timeline.title}`}>
      <div className="quick-upload">
        {items.length === 0 ? (
          <DropZone
            onFiles={(files) => {
              const videos = files.filter(isVideoFile);
              if (videos.length > 0) queue.add(videos);
            }}
            accept="video/*"
            title="Drop videos here"
            hint="Supports MP4, MOV, AVI and other video formats"
            inputLabel="Choose videos to upload"
          />
        ) : (
          <ul className="quick-upload__rows" aria-label="Uploads">
            {items.map((item) => (
              <li key={item.id} className={`quick-upload__row${item.status === 'error' ? ' quick-upload__row--error' : ''}`}>
                <div className="quick-upload__row-head">
                  <span className="quick-upload__row-name">{item.file.name}</span>
                  <span>{rowStatus(item)}</span>
                </div>
                <progress
                  max={100}
                  value={item.status === 'processing' || item.status === 'completed' ? 100 : item.progress}
                  aria-label={`${item.file.name} upload progress`}
                />
                {item.status === 'error' ? <p className="quick-upload__row-error">{item.error || 'Upload failed'}</p> : null}
              </li>
            ))}
          </ul>
        )}
        {asking ? (
          <Suspense fallback={null}>
            <AltTextPrompt timelineId={timeline.id} items={prompts.pending} onAnswered={prompts.answer} />
          </Suspense>
        ) : null}
      </div>
    </ResponsiveDialog>
  );
}

export default QuickUploadDialog;
