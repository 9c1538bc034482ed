import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { ResponsiveDialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast';
import { useAltTextPrompts } from '../hooks/use-alt-text-prompts';
import { useUploadSnapshot } from '../hooks/use-upload-queue';
import { makePreview, revokePreview } from '../lib/preview';
import { createTusTransport } from '../lib/tus-transport';
import { UploadManager, type UploadItem, type UploadTransport } from '../lib/upload-manager';
import { takePickedFiles } from './drop-zone';
import './media.css';

// Asks for alt text or a description once a file is stored; loaded when first needed.
const AltTextPrompt = lazy(() => import('./alt-text-prompt'));

/** Spec 000 section 9: the sheet closes 1.5 s after an upload completes. */
export const SHEET_CLOSE_DELAY_MS = 1500;

export interface AddVideosSheetProps {
  timelineId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** A file is stored on the server. */
  onUploaded: () => void;
  transport?: UploadTransport;
}

/** The sheet queues only files the browser calls videos or images (spec 000, section 5). */
export const isSheetMedia = (file: File) => file.type.startsWith('video/') || file.type.startsWith('image/');

/** A recording's file name: the moment it was made, e.g. recording-2025-03-10T12-30-05-123Z.webm. */
export function recordingName(at: Date = new Date()): string {
  return `recording-${at.toISOString().replace(/[:.]/g, '-')}.webm`;
}

const sheetStatus = (item: UploadItem) =>
  item.status === 'error' ? 'Failed' : item.status === 'processing' || item.status === 'completed' ? 'Uploaded' : item.status === 'pending' ? 'Waiting' : 'Uploading...';

function stopStream(stream: MediaStream | null) {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/**
 * Add Videos (spec 000): pick from the gallery, record with the camera in the page, or use the
 * camera app; each file uploads with its true progress.
 */
export function AddVideosSheet({ timelineId, open, onOpenChange, onUploaded, transport }: AddVideosSheetProps) {
  const [queue] = useState(
    () =>
      new UploadManager({
        timelineId,
        transport: transport ?? createTusTransport(),
        gapMs: 500,
        autoStart: true,
        makePreview,
        revokePreview,
      }),
  );
  const { items } = useUploadSnapshot(queue);
  const gallery = useRef<HTMLInputElement>(null);
  const camera = useRef<HTMLInputElement>(null);
  const preview = useRef<HTMLVideoElement>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [recording, setRecording] = useState(false);
  const [closeAfter, setCloseAfter] = useState(0);
  const prompts = useAltTextPrompts(timelineId, items);
  // The sheet stays open while an upload still asks for its alt text or description.
  const asking = prompts.pending.length > 0;

  useEffect(() => {
    queue.setHooks({
      onUploaded: () => {
        toast({ title: 'Upload Complete', description: 'Video added to timeline successfully.' });
        onUploaded();
        setCloseAfter((count) => count + 1);
      },
      onFailed: (item) =>
        toast({ title: 'Upload Failed', description: item.error || 'Please check your connection and try again.', variant: 'destructive' }),
    });
  }, [queue, onUploaded]);

  useEffect(() => () => queue.dispose(), [queue]);

  useEffect(() => {
    if (closeAfter === 0 || asking) return;
    const timer = setTimeout(() => {
      const busy = queue.getSnapshot().items.some((item) => item.status === 'pending' || item.status === 'uploading');
      if (!busy) onOpenChange(false);
    }, SHEET_CLOSE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [closeAfter, asking, queue, onOpenChange]);

  useEffect(() => {
    if (preview.current) preview.current.srcObject = stream;
    return () => stopStream(stream);
  }, [stream]);

  const addFiles = (files: File[]) => {
    const media = files.filter(isSheetMedia);
    if (media.length > 0) queue.add(media);
  };

  const startRecording = async () => {
    try {
      const media = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: true });
      const chunks: Blob[] = [];
      const mediaRecorder = new MediaRecorder(media, MediaRecorder.isTypeSupported?.('video/webm') ? { mimeType: 'video/webm' } : undefined);
      mediaRecorder.ondataavailable = (event) => {
        if (event.data.size > 0) chunks.push(event.data);
      };
      mediaRecorder.onstop = () => {
        setRecording(false);
        setStream(null);
        const blob = new Blob(chunks, { type: 'video/webm' });
        if (blob.size > 0) queue.add([new File([blob], recordingName(), { type: 'video/webm', lastModified: Date.now() })]);
      };
      recorder.current = mediaRecorder;
      setStream(media);
      mediaRecorder.start(1000);
      setRecording(true);
    } catch (error) {
      console.error('Camera unavailable', error);
      toast({ title: 'Camera Error', description: 'Unable to access camera. Please check permissions.', variant: 'destructive' });
    }
  };

  const stopRecording = () => {
    recorder.current?.stop();
    recorder.current = null;
  };

  return (
    <ResponsiveDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) stopRecording();
        onOpenChange(next);
      }}
      title="Add Videos"
    >
      <div className="sheet-upload">
        <div className="sheet-upload__sources">
          <button type="button" className="button button--secondary sheet-upload__source" onClick={() => gallery.current?.click()}>
            Gallery
          </button>
          {recording ? (
            <button type="button" className="button button--danger sheet-upload__source" onClick={stopRecording}>
              Stop Recording
            </button>
          ) : (
            <button type="button" className="button button--secondary sheet-upload__source" onClick={() => void startRecording()}>
              Record
            </button>
          )}
          <button type="button" className="button button--secondary sheet-upload__source" onClick={() => camera.current?.click()}>
            Camera
          </button>
        </div>
        {stream ? <video ref={preview} className="sheet-upload__camera" autoPlay muted playsInline aria-label="Camera preview" /> : null}
        <input
          ref={gallery}
          type="file"
          className="visually-hidden"
          tabIndex={-1}
          aria-label="Choose videos or images from the gallery"
          accept="video/*,image/*"
          multiple
          onChange={(event) => {
            takePickedFiles(Array.from(event.target.files ?? []), addFiles);
            event.target.value = '';
          }}
        />
        <input
          ref={camera}
          type="file"
          className="visually-hidden"
          tabIndex={-1}
          aria-label="Record a video with the camera app"
          accept="video/*"
          capture="environment"
          onChange={(event) => {
            takePickedFiles(Array.from(event.target.files ?? []), addFiles);
            event.target.value = '';
          }}
        />
        {items.length > 0 ? (
          <ul className="quick-upload__rows" aria-label="Uploads">
            {items.map((item) => (
              <li key={item.id} className={`quick-upload__row${item.status === 'error' ? ' quick-upload__row--error' : ''}`}>
                <div className="quick-upload__row-head">
                  <span className="quick-upload__row-name">{item.file.name}</span>
                  <span>{sheetStatus(item)}</span>
                </div>
                <progress
                  max={100}
                  value={item.status === 'processing' || item.status === 'completed' ? 100 : item.progress}
                  aria-label={`${item.file.name} upload progress`}
                />
              </li>
            ))}
          </ul>
        ) : null}
        {asking ? (
          <Suspense fallback={null}>
            <AltTextPrompt timelineId={timelineId} items={prompts.pending} onAnswered={prompts.answer} />
          </Suspense>
        ) : null}
      </div>
    </ResponsiveDialog>
  );
}

export default AddVideosSheet;
