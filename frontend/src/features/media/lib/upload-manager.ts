import type { MediaRealtimeMessage } from '../api/types';
import { mediaKind } from './file-acceptance';
import { SpeedMeter } from './speed';

/**
 * The upload queue behind the studio's uploaders. Files go one at a time; each item's progress
 * is true at every step: bytes the server confirmed while uploading, then the processing
 * percentage the server pushes over /ws.
 *
 * pending ─► uploading ─► processing ─► completed
 *    ▲          │  ▲           │
 *    │          ▼  │           ▼
 *    │        paused         error ─(retry)─► pending
 *    └──────────────────────────┘
 *
 * An upload's media id is the server's answer to its creation (`Upload-Media-Id`, also on the
 * HEAD of a resumed upload), handed over by the transport before any byte is sent; realtime
 * messages about that id are this item's.
 */

export type UploadStatus = 'pending' | 'uploading' | 'paused' | 'processing' | 'completed' | 'error';

export interface UploadItem {
  id: string;
  file: File;
  kind: 'video' | 'image';
  status: UploadStatus;
  /** Bytes sent so far (tus onProgress). */
  bytesSent: number;
  bytesTotal: number;
  /** Percent of the current phase: bytes while uploading, the server's figure while processing. */
  progress: number;
  /** What is happening, in words. */
  step: string;
  error?: string;
  /** The media id, once the server created the upload. */
  mediaId?: string;
  /** An object URL of a small picture of the file, when one could be made. */
  preview?: string | null;
  /** Measured speed of this upload, bytes per second. */
  speed?: number;
  /** Seconds left for this upload at the measured speed. */
  estimatedSeconds?: number;
}

export interface UploadCallbacks {
  /** The server named the media item the upload becomes (`Upload-Media-Id`). */
  onMediaId: (mediaId: string) => void;
  onProgress: (bytesSent: number, bytesTotal: number) => void;
  onSuccess: () => void;
  onError: (error: Error) => void;
}

/** One upload in flight; `abort(true)` also removes what the server holds of it. */
export interface UploadHandle {
  abort(terminate: boolean): Promise<void> | void;
}

/** The transport the queue uploads with (tus in the app, a fake in tests). */
export type UploadTransport = (file: File, timelineId: string, callbacks: UploadCallbacks) => UploadHandle;

export interface UploadManagerOptions {
  timelineId: string;
  transport: UploadTransport;
  /** Pause between two files, ms. */
  gapMs: number;
  /** Start uploading as soon as files are added (else `start()` does). */
  autoStart: boolean;
  /** Listens to the timeline's realtime messages; returns the function that stops listening. */
  listen?: (timelineId: string, onMessage: (message: MediaRealtimeMessage) => void) => () => void;
  makePreview?: (file: File) => Promise<string | null>;
  revokePreview?: (url: string) => void;
  /** Called when a file's bytes are all stored on the server. */
  onUploaded?: (item: UploadItem) => void;
  /** Called when the server announced the media (video_upload_started). */
  onAnnounced?: (item: UploadItem) => void;
  /** Called when the server finished processing an item. */
  onProcessed?: (item: UploadItem) => void;
  /** Called when an item failed, uploading or processing. */
  onFailed?: (item: UploadItem) => void;
  now?: () => number;
}

export type UploadHooks = Pick<UploadManagerOptions, 'onUploaded' | 'onAnnounced' | 'onProcessed' | 'onFailed'>;

export interface UploadSnapshot {
  items: readonly UploadItem[];
  /** Measured speed of the upload in flight, bytes per second; undefined until measured. */
  speed: number | undefined;
}

const TERMINAL: readonly UploadStatus[] = ['completed', 'error'];
const UPLOADED = 'Uploaded. Waiting for the server to start processing';
const QUEUED = 'Queued for processing';

let nextId = 1;

export class UploadManager {
  private snapshot: UploadSnapshot = { items: [], speed: undefined };
  private readonly listeners = new Set<() => void>();
  private readonly handles = new Map<string, UploadHandle>();
  private readonly meter: SpeedMeter;
  private running: string | null = null;
  private gapTimer: ReturnType<typeof setTimeout> | undefined;
  private started: boolean;
  private stopListening: (() => void) | undefined;
  /** Media ids the server announced (`video_upload_started`). */
  private readonly announced = new Set<string>();
  private readonly now: () => number;

  constructor(private options: UploadManagerOptions) {
    this.started = options.autoStart;
    this.now = options.now ?? (() => Date.now());
    this.meter = new SpeedMeter(this.now);
  }

  /** Replaces the completion callbacks (the screen showing the queue changed). */
  setHooks(hooks: UploadHooks): void {
    this.options = { ...this.options, ...hooks };
  }

  get timelineId(): string {
    return this.options.timelineId;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): UploadSnapshot => this.snapshot;

  /** Queues files (already accepted by the caller); returns the new items' ids. */
  add(files: readonly File[]): string[] {
    const added = files.map<UploadItem>((file) => ({
      id: `upload-${nextId++}`,
      file,
      kind: mediaKind(file),
      status: 'pending',
      bytesSent: 0,
      bytesTotal: file.size,
      progress: 0,
      step: 'Waiting to upload',
    }));
    this.setItems([...this.snapshot.items, ...added]);
    for (const item of added) this.preview(item);
    this.pump();
    return added.map((item) => item.id);
  }

  /** Starts a queue made with `autoStart: false`. */
  start(): void {
    this.started = true;
    this.pump();
  }

  pause(id: string): void {
    const item = this.find(id);
    if (item?.status !== 'uploading') return;
    const handle = this.handles.get(id);
    this.handles.delete(id);
    void handle?.abort(false);
    this.update(id, { status: 'paused', step: 'Paused', speed: undefined, estimatedSeconds: undefined });
    this.finishRunning(id);
  }

  resume(id: string): void {
    if (this.find(id)?.status !== 'paused') return;
    this.update(id, { status: 'pending', step: 'Waiting to upload' });
    this.started = true;
    this.pump();
  }

  /** An item that failed goes back to the queue from the start (spec 001, section 4). */
  retry(id: string): void {
    const item = this.find(id);
    if (item?.status !== 'error') return;
    this.update(id, { status: 'pending', progress: 0, bytesSent: 0, step: 'Waiting to upload', error: undefined, mediaId: undefined });
    this.started = true;
    this.pump();
  }

  retryFailed(): void {
    for (const item of this.snapshot.items) if (item.status === 'error') this.retry(item.id);
  }

  /** Removes an item; an unfinished upload is cancelled on the server too. */
  remove(id: string): void {
    const item = this.find(id);
    if (!item) return;
    const handle = this.handles.get(id);
    this.handles.delete(id);
    if (handle && (item.status === 'uploading' || item.status === 'paused' || item.status === 'pending')) void handle.abort(true);
    if (item.preview) this.options.revokePreview?.(item.preview);
    this.setItems(this.snapshot.items.filter((other) => other.id !== id));
    this.finishRunning(id);
    this.syncListening();
  }

  clearCompleted(): void {
    for (const item of this.snapshot.items) if (item.status === 'completed') this.remove(item.id);
  }

  /** Applies a realtime message about this timeline's media. */
  handleMessage = (message: MediaRealtimeMessage): void => {
    if (message.timelineId !== this.options.timelineId) return;
    const mediaId = 'videoId' in message ? message.videoId : 'mediaId' in message ? message.mediaId : message.video.id;
    const item = this.snapshot.items.find((candidate) => candidate.mediaId === mediaId);
    if (!item) return;
    if (message.type === 'video_upload_started') this.announce(item, mediaId);
    else this.applyProcessing(item, message);
  };

  /** Stops listening and cancels nothing on the server: uploads can resume later. */
  dispose(): void {
    clearTimeout(this.gapTimer);
    for (const handle of this.handles.values()) void handle.abort(false);
    this.handles.clear();
    this.stopListening?.();
    this.stopListening = undefined;
    for (const item of this.snapshot.items) if (item.preview) this.options.revokePreview?.(item.preview);
  }

  /** The server stored the upload and made its media item; the processing news follows. */
  private announce(item: UploadItem, mediaId: string): void {
    if (this.announced.has(mediaId)) return;
    this.announced.add(mediaId);
    if (item.status !== 'uploading' && item.status !== 'processing') return;
    if (item.status === 'processing' && item.step === UPLOADED) this.update(item.id, { step: QUEUED, progress: 0 });
    const announced = this.find(item.id);
    if (announced) this.options.onAnnounced?.(announced);
  }

  private applyProcessing(item: UploadItem, message: MediaRealtimeMessage): void {
    if (item.status === 'completed' || item.status === 'error') return;
    const ready = item.kind === 'image' ? 'Image ready!' : 'Video ready!';
    switch (message.type) {
      case 'video_processing_progress': {
        const { stage, progress, message: text } = message.progress;
        if (stage === 'completed') {
          this.complete(item.id, ready);
          return;
        }
        this.update(item.id, { status: 'processing', progress, step: text || `Processing (${stage})` });
        return;
      }
      case 'video_processing_completed':
      case 'video_processing_complete':
        this.complete(item.id, ready);
        return;
      case 'media_processing_completed':
        this.complete(item.id, message.mediaType === 'image' ? 'Image ready!' : 'Video ready!');
        return;
      case 'video_processing_error':
        this.fail(item.id, message.error || 'Processing failed');
        return;
      case 'media_processing_error':
        this.fail(item.id, message.error || 'Processing failed');
        return;
      default:
        return;
    }
  }

  private complete(id: string, step: string): void {
    this.update(id, { status: 'completed', progress: 100, step, error: undefined });
    const item = this.find(id);
    if (item) this.options.onProcessed?.(item);
    this.syncListening();
  }

  private fail(id: string, error: string): void {
    this.update(id, { status: 'error', step: 'Failed', error, speed: undefined, estimatedSeconds: undefined });
    const item = this.find(id);
    if (item) this.options.onFailed?.(item);
    this.syncListening();
  }

  private pump(): void {
    this.syncListening();
    if (!this.started || this.running || this.gapTimer !== undefined) return;
    const next = this.snapshot.items.find((item) => item.status === 'pending');
    if (!next) return;
    this.running = next.id;
    this.meter.reset(next.bytesSent);
    this.update(next.id, { status: 'uploading', step: next.bytesSent > 0 ? 'Resuming upload' : 'Uploading...' });
    const id = next.id;
    const handle = this.options.transport(next.file, this.options.timelineId, {
      onMediaId: (mediaId) => {
        if (this.running === id) this.update(id, { mediaId });
      },
      onProgress: (sent, total) => {
        if (this.running !== id) return;
        const speed = this.meter.sample(sent);
        const remaining = Math.max(0, total - sent);
        this.snapshot = { ...this.snapshot, speed };
        this.update(id, {
          bytesSent: sent,
          bytesTotal: total,
          progress: total > 0 ? Math.floor((sent / total) * 100) : 0,
          step: 'Uploading...',
          speed,
          estimatedSeconds: speed ? remaining / speed : undefined,
        });
      },
      onSuccess: () => {
        if (this.running !== id) return;
        this.handles.delete(id);
        const item = this.find(id);
        // Processing news may have come in before the last answer did; it stays.
        const processing = item?.status === 'processing';
        this.update(id, {
          status: 'processing',
          bytesSent: item?.bytesTotal ?? 0,
          speed: undefined,
          estimatedSeconds: undefined,
          ...(processing ? {} : { progress: 0, step: item?.mediaId && this.announced.has(item.mediaId) ? QUEUED : UPLOADED }),
        });
        const uploaded = this.find(id);
        if (uploaded) this.options.onUploaded?.(uploaded);
        this.finishRunning(id);
      },
      onError: (error) => {
        if (this.running !== id) return;
        this.handles.delete(id);
        this.fail(id, error.message || 'Upload failed. Please try again.');
        this.finishRunning(id);
      },
    });
    if (this.running === id) this.handles.set(id, handle);
  }

  private finishRunning(id: string): void {
    if (this.running !== id) return;
    this.running = null;
    this.snapshot = { ...this.snapshot, speed: undefined };
    this.emit();
    clearTimeout(this.gapTimer);
    this.gapTimer = setTimeout(() => {
      this.gapTimer = undefined;
      this.pump();
    }, this.options.gapMs);
  }

  /** Listens to realtime messages while anything may still get one. */
  private syncListening(): void {
    const needed = this.snapshot.items.some((item) => !TERMINAL.includes(item.status));
    if (needed && !this.stopListening && this.options.listen) {
      this.stopListening = this.options.listen(this.options.timelineId, this.handleMessage);
    } else if (!needed && this.stopListening) {
      this.stopListening();
      this.stopListening = undefined;
    }
  }

  private preview(item: UploadItem): void {
    if (!this.options.makePreview) return;
    this.options
      .makePreview(item.file)
      .then((url) => {
        if (!url) return;
        if (this.find(item.id)) this.update(item.id, { preview: url });
        else this.options.revokePreview?.(url);
      })
      .catch(() => undefined);
  }

  private find(id: string): UploadItem | undefined {
    return this.snapshot.items.find((item) => item.id === id);
  }

  private update(id: string, changes: Partial<UploadItem>): void {
    this.setItems(this.snapshot.items.map((item) => (item.id === id ? { ...item, ...changes } : item)));
  }

  private setItems(items: UploadItem[]): void {
    this.snapshot = { ...this.snapshot, items };
    this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}
