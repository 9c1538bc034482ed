import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { MediaRealtimeMessage } from '../api/types';
import { UploadManager, type UploadCallbacks, type UploadManagerOptions } from './upload-manager';

interface FakeUpload {
  file: File;
  callbacks: UploadCallbacks;
  abort: jest.Mock<(terminate: boolean) => void>;
}

function setup(options: Partial<UploadManagerOptions> = {}) {
  const uploads: FakeUpload[] = [];
  let now = 0;
  let listener: ((message: MediaRealtimeMessage) => void) | undefined;
  const stopListening = jest.fn(() => {
    listener = undefined;
  });
  const manager = new UploadManager({
    timelineId: 't1',
    gapMs: 500,
    autoStart: true,
    transport: (file, _timelineId, callbacks) => {
      const upload = { file, callbacks, abort: jest.fn<(terminate: boolean) => void>() };
      uploads.push(upload);
      return upload;
    },
    listen: (_timelineId, onMessage) => {
      listener = onMessage;
      return stopListening;
    },
    now: () => now,
    ...options,
  });
  return {
    manager,
    uploads,
    items: () => manager.getSnapshot().items,
    item: (index = 0) => manager.getSnapshot().items[index]!,
    tick: (ms: number) => {
      now += ms;
    },
    push: (message: Record<string, unknown>) => listener?.({ timelineId: 't1', ...message } as MediaRealtimeMessage),
    listening: () => listener !== undefined,
    stopListening,
  };
}

const video = (name: string, size = 1000) => new File([new Uint8Array(size)], name, { type: 'video/mp4' });

describe('upload manager', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });

  it('shows bytes sent as progress, with a measured speed and time left', () => {
    const { manager, uploads, item, tick } = setup();
    manager.add([video('a.mp4', 1000)]);
    expect(item().status).toBe('uploading');
    tick(500);
    uploads[0]!.callbacks.onProgress(100, 1000);
    expect(item().progress).toBe(10);
    // Under a second of measurement there is no speed to tell yet.
    expect(item().estimatedSeconds).toBeUndefined();
    tick(1500);
    uploads[0]!.callbacks.onProgress(400, 1000);
    expect(item().progress).toBe(40);
    expect(item().speed).toBe(200);
    expect(item().estimatedSeconds).toBe(3);
  });

  it('uploads one file at a time, with the pause between files', () => {
    const { manager, uploads, items } = setup();
    manager.add([video('a.mp4'), video('b.mp4')]);
    expect(uploads).toHaveLength(1);
    expect(items().map((entry) => entry.status)).toEqual(['uploading', 'pending']);
    uploads[0]!.callbacks.onSuccess();
    expect(items()[0]!.status).toBe('processing');
    jest.advanceTimersByTime(499);
    expect(uploads).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(uploads).toHaveLength(2);
    expect(uploads[1]!.file.name).toBe('b.mp4');
  });

  it('follows processing from the server: started, progress, ready', () => {
    const onProcessed = jest.fn();
    const { manager, uploads, item, push, listening, stopListening } = setup({ onProcessed });
    manager.add([video('My clip.mp4')]);
    expect(listening()).toBe(true);
    uploads[0]!.callbacks.onMediaId('v1');
    expect(item().mediaId).toBe('v1');
    uploads[0]!.callbacks.onProgress(1000, 1000);
    uploads[0]!.callbacks.onSuccess();
    expect(item()).toMatchObject({ status: 'processing', progress: 0, step: 'Uploaded. Waiting for the server to start processing' });

    push({ type: 'video_upload_started', video: { id: 'v1', originalName: 'My clip.mp4' } });
    expect(item()).toMatchObject({ mediaId: 'v1', step: 'Queued for processing' });
    push({ type: 'video_processing_progress', videoId: 'v1', progress: { stage: 'transcoding', progress: 42, message: 'Transcoding 720p' } });
    expect(item()).toMatchObject({ status: 'processing', progress: 42, step: 'Transcoding 720p' });
    // Another video's messages change nothing here.
    push({ type: 'video_processing_progress', videoId: 'other', progress: { stage: 'transcoding', progress: 90, message: 'x' } });
    expect(item().progress).toBe(42);
    push({ type: 'video_processing_completed', video: { id: 'v1' } });
    expect(item()).toMatchObject({ status: 'completed', progress: 100, step: 'Video ready!' });
    expect(onProcessed).toHaveBeenCalledTimes(1);
    expect(stopListening).toHaveBeenCalled();
  });

  it('also completes on video_processing_complete, and says Image ready! for images', () => {
    const { manager, uploads, items, push } = setup();
    manager.add([video('a.mp4'), new File(['x'], 'b.png', { type: 'image/png' })]);
    uploads[0]!.callbacks.onMediaId('v1');
    uploads[0]!.callbacks.onProgress(1000, 1000);
    uploads[0]!.callbacks.onSuccess();
    push({ type: 'video_upload_started', video: { id: 'v1', originalName: 'a.mp4' } });
    push({ type: 'video_processing_complete', video: { id: 'v1' } });
    jest.advanceTimersByTime(500);
    uploads[1]!.callbacks.onMediaId('i1');
    uploads[1]!.callbacks.onProgress(1, 1);
    push({ type: 'video_upload_started', video: { id: 'i1', originalName: 'b.png' } });
    uploads[1]!.callbacks.onSuccess();
    push({ type: 'media_processing_completed', mediaId: 'i1', mediaType: 'image' });
    expect(items().map((entry) => [entry.status, entry.step])).toEqual([
      ['completed', 'Video ready!'],
      ['completed', 'Image ready!'],
    ]);
  });

  it('follows its upload by the id the creation answered: another upload of the same name is not it', () => {
    const onAnnounced = jest.fn();
    const { manager, uploads, item, push } = setup({ onAnnounced });
    manager.add([video('clip.mp4')]);
    uploads[0]!.callbacks.onMediaId('v9');
    uploads[0]!.callbacks.onProgress(1000, 1000);
    // Someone else's upload of a file with the same name, finished meanwhile.
    push({ type: 'video_upload_started', video: { id: 'theirs', originalName: 'clip.mp4' } });
    push({ type: 'video_processing_progress', videoId: 'theirs', progress: { stage: 'probing', progress: 50, message: 'Reading the file' } });
    expect(item()).toMatchObject({ mediaId: 'v9', status: 'uploading' });
    expect(onAnnounced).not.toHaveBeenCalled();
    // The worker may start before the announcement goes out, and both before the last answer arrives.
    push({ type: 'video_processing_progress', videoId: 'v9', progress: { stage: 'probing', progress: 3, message: 'Reading the file' } });
    push({ type: 'video_upload_started', video: { id: 'v9', originalName: 'clip.mp4' } });
    expect(item()).toMatchObject({ mediaId: 'v9', status: 'processing', progress: 3, step: 'Reading the file' });
    expect(onAnnounced).toHaveBeenCalledTimes(1);
    uploads[0]!.callbacks.onSuccess();
    expect(item()).toMatchObject({ mediaId: 'v9', status: 'processing', progress: 3 });
    push({ type: 'video_processing_progress', videoId: 'v9', progress: { stage: 'thumbnail', progress: 8, message: 'Making the thumbnail' } });
    expect(item()).toMatchObject({ progress: 8, step: 'Making the thumbnail' });
  });

  it('an announcement that came before the answer to the last chunk leaves it queued for processing', () => {
    const { manager, uploads, item, push } = setup();
    manager.add([video('late.mp4')]);
    uploads[0]!.callbacks.onMediaId('v5');
    uploads[0]!.callbacks.onProgress(1000, 1000);
    push({ type: 'video_upload_started', video: { id: 'v5', originalName: 'late.mp4' } });
    expect(item()).toMatchObject({ mediaId: 'v5', status: 'uploading' });
    uploads[0]!.callbacks.onSuccess();
    expect(item()).toMatchObject({ mediaId: 'v5', status: 'processing', progress: 0, step: 'Queued for processing' });
    push({ type: 'video_processing_completed', video: { id: 'v5' } });
    expect(item()).toMatchObject({ status: 'completed', step: 'Video ready!' });
  });

  it('marks processing errors, and retries from the start', () => {
    const onFailed = jest.fn();
    const { manager, uploads, item, push } = setup({ onFailed });
    manager.add([video('a.mp4')]);
    uploads[0]!.callbacks.onMediaId('v1');
    uploads[0]!.callbacks.onProgress(1000, 1000);
    uploads[0]!.callbacks.onSuccess();
    push({ type: 'video_upload_started', video: { id: 'v1', originalName: 'a.mp4' } });
    push({ type: 'video_processing_error', videoId: 'v1', error: 'The file is damaged' });
    expect(item()).toMatchObject({ status: 'error', error: 'The file is damaged' });
    expect(onFailed).toHaveBeenCalledTimes(1);

    jest.advanceTimersByTime(500);
    manager.retry(item().id);
    expect(item()).toMatchObject({ status: 'uploading', progress: 0, bytesSent: 0, error: undefined, mediaId: undefined });
    expect(uploads).toHaveLength(2);
  });

  it('marks upload errors with the message, and the queue moves on', () => {
    const { manager, uploads, items } = setup();
    manager.add([video('a.mp4'), video('b.mp4')]);
    uploads[0]!.callbacks.onError(new Error('File too large. Maximum size is 2GB.'));
    expect(items()[0]).toMatchObject({ status: 'error', error: 'File too large. Maximum size is 2GB.' });
    jest.advanceTimersByTime(500);
    expect(items()[1]!.status).toBe('uploading');
  });

  it('pauses without losing the server copy and resumes from where it was', () => {
    const { manager, uploads, item } = setup();
    manager.add([video('a.mp4')]);
    uploads[0]!.callbacks.onProgress(600, 1000);
    manager.pause(item().id);
    expect(uploads[0]!.abort).toHaveBeenCalledWith(false);
    expect(item()).toMatchObject({ status: 'paused', bytesSent: 600, progress: 60 });
    // Late callbacks of the stopped upload change nothing.
    uploads[0]!.callbacks.onProgress(700, 1000);
    expect(item().bytesSent).toBe(600);

    manager.resume(item().id);
    jest.advanceTimersByTime(500);
    expect(uploads).toHaveLength(2);
    expect(item()).toMatchObject({ status: 'uploading', step: 'Resuming upload', bytesSent: 600 });
    uploads[1]!.callbacks.onProgress(800, 1000);
    expect(item().progress).toBe(80);
  });

  it('cancels an unfinished upload on the server when removed', () => {
    const { manager, uploads, items } = setup();
    manager.add([video('a.mp4')]);
    manager.remove(items()[0]!.id);
    expect(uploads[0]!.abort).toHaveBeenCalledWith(true);
    expect(items()).toHaveLength(0);
  });

  it('waits for start() when not auto-starting, and clears completed items', () => {
    const revokePreview = jest.fn();
    const { manager, uploads, items, push } = setup({ autoStart: false, revokePreview });
    manager.add([video('a.mp4')]);
    expect(uploads).toHaveLength(0);
    manager.start();
    uploads[0]!.callbacks.onMediaId('v1');
    uploads[0]!.callbacks.onProgress(1000, 1000);
    uploads[0]!.callbacks.onSuccess();
    push({ type: 'video_upload_started', video: { id: 'v1', originalName: 'a.mp4' } });
    push({ type: 'video_processing_progress', videoId: 'v1', progress: { stage: 'completed', progress: 100, message: '' } });
    expect(items()[0]!.status).toBe('completed');
    manager.clearCompleted();
    expect(items()).toHaveLength(0);
  });
});
