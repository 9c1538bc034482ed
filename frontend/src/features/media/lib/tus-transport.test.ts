import { describe, expect, it, jest } from '@jest/globals';
import type * as tus from 'tus-js-client';
import { CHUNK_SIZE, createTusTransport, RETRY_DELAYS, tusErrorMessage, tusOptions, uploadFingerprint } from './tus-transport';

const callbacks = () => ({ onMediaId: jest.fn(), onProgress: jest.fn(), onSuccess: jest.fn(), onError: jest.fn() });

describe('tus transport', () => {
  it('sends to /api/uploads in 8 MiB chunks with the timeline, name, type and bearer token', async () => {
    localStorage.setItem('authToken', 'tok');
    const file = new File(['abc'], 'clip.mp4', { type: 'video/mp4', lastModified: 42 });
    const options = tusOptions(file, 't1', callbacks());
    expect(options.endpoint).toBe(`${window.location.origin}/api/uploads`);
    expect(options.chunkSize).toBe(CHUNK_SIZE);
    expect(CHUNK_SIZE).toBe(8 * 1024 * 1024);
    expect(options.retryDelays).toEqual(RETRY_DELAYS);
    // Back within two seconds of a restart (several tries in the first 2 s), and ~40 s in all.
    const startsAt = RETRY_DELAYS.map((_, i) => RETRY_DELAYS.slice(0, i + 1).reduce((a, b) => a + b, 0));
    expect(RETRY_DELAYS[0]).toBe(0);
    expect(startsAt.filter((t) => t <= 2000).length).toBeGreaterThanOrEqual(4);
    expect(startsAt.at(-1)).toBeGreaterThanOrEqual(30_000);
    expect(RETRY_DELAYS).toEqual([...RETRY_DELAYS].sort((a, b) => a - b));
    expect(options.metadata).toEqual({ timelineId: 't1', filename: 'clip.mp4', filetype: 'video/mp4' });
    expect(options.headers).toEqual({ Authorization: 'Bearer tok' });
    expect(options.storeFingerprintForResuming).toBe(true);
    expect(options.removeFingerprintOnSuccess).toBe(true);
    await expect(options.fingerprint?.(file, options as tus.UploadOptions)).resolves.toBe(uploadFingerprint(file, 't1'));
    expect(uploadFingerprint(file, 't1')).toBe('timeliner-upload|clip.mp4|3|42|t1');
    expect(uploadFingerprint(file, 't2')).not.toBe(uploadFingerprint(file, 't1'));
  });

  it('passes bytes sent on, and retries only what may succeed later', () => {
    const handlers = callbacks();
    const options = tusOptions(new File(['a'], 'a.mp4'), 't1', handlers);
    options.onProgress?.(10, 100);
    expect(handlers.onProgress).toHaveBeenCalledWith(10, 100);
    const failure = (status: number) => ({ originalResponse: { getStatus: () => status } }) as unknown as tus.DetailedError;
    expect(options.onShouldRetry?.(failure(503), 0, options)).toBe(true);
    expect(options.onShouldRetry?.(failure(409), 0, options)).toBe(true);
    expect(options.onShouldRetry?.(failure(413), 0, options)).toBe(false);
    expect(options.onShouldRetry?.(failure(415), 0, options)).toBe(false);
  });

  it('hands over the media id the creation (or a HEAD) answers, and nothing for answers without one', async () => {
    const handlers = callbacks();
    const options = tusOptions(new File(['a'], 'a.mp4'), 't1', handlers);
    const answer = (headers: Record<string, string>) => ({ getHeader: (name: string) => headers[name] }) as unknown as tus.HttpResponse;
    await options.onAfterResponse?.({} as tus.HttpRequest, answer({ Location: '/api/uploads/s1', 'Upload-Media-Id': 'm1' }));
    await options.onAfterResponse?.({} as tus.HttpRequest, answer({ 'Upload-Offset': '10' }));
    expect(handlers.onMediaId.mock.calls).toEqual([['m1']]);
  });

  it("reads the server's message from a failed answer", () => {
    const failed = { originalResponse: { getBody: () => JSON.stringify({ statusCode: 413, message: 'File too large. Maximum size is 2GB.' }) } };
    expect(tusErrorMessage(failed)).toBe('File too large. Maximum size is 2GB.');
    expect(tusErrorMessage(new Error('network'))).toBe('Upload failed. Please try again.');
  });

  it('continues a stored upload of the same file (after a reload)', async () => {
    const calls: string[] = [];
    const previous = [
      { creationTime: '2025-03-01T10:00:00Z', uploadUrl: 'old' },
      { creationTime: '2025-03-02T10:00:00Z', uploadUrl: 'newest' },
    ];
    class FakeUpload {
      findPreviousUploads() {
        calls.push('find');
        return Promise.resolve(previous as unknown as tus.PreviousUpload[]);
      }
      resumeFromPreviousUpload(upload: { uploadUrl: string }) {
        calls.push(`resume ${upload.uploadUrl}`);
      }
      start() {
        calls.push('start');
      }
      abort(terminate: boolean) {
        calls.push(`abort ${terminate}`);
        return Promise.resolve();
      }
    }
    const transport = createTusTransport(FakeUpload as unknown as Parameters<typeof createTusTransport>[0]);
    const handle = transport(new File(['a'], 'a.mp4'), 't1', callbacks());
    await Promise.resolve();
    await Promise.resolve();
    expect(calls).toEqual(['find', 'resume newest', 'start']);
    await handle.abort(true);
    expect(calls.at(-1)).toBe('abort true');
  });
});
