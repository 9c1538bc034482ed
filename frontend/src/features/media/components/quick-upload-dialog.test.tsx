import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Toaster } from '../../../components/ui/toast';
import type { UploadCallbacks } from '../lib/upload-manager';
import { AddVideosSheet, recordingName } from './add-videos-sheet';
import { QuickUploadDialog } from './quick-upload-dialog';

beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  jest.useRealTimers();
});

function fakeTransport() {
  const uploads: { name: string; callbacks: UploadCallbacks }[] = [];
  const transport = (file: File, _timelineId: string, callbacks: UploadCallbacks) => {
    uploads.push({ name: file.name, callbacks });
    return { abort: () => undefined };
  };
  return { uploads, transport };
}

const video = (name: string) => new File(['x'.repeat(100)], name, { type: 'video/mp4' });

describe('quick upload dialog', () => {
  it('uploads in sequence and counts only the files that really arrived', async () => {
    const { uploads, transport } = fakeTransport();
    const onUploaded = jest.fn();
    const onOpenChange = jest.fn();
    render(
      <>
        <QuickUploadDialog timeline={{ id: 't1', title: 'Summer Trip' }} open onOpenChange={onOpenChange} onUploaded={onUploaded} transport={transport} />
        <Toaster />
      </>,
    );
    expect(screen.getByRole('dialog', { name: 'Upload to Summer Trip' })).toBeInTheDocument();
    expect(screen.getByText('Drop videos here')).toBeInTheDocument();
    expect(screen.getByText('Supports MP4, MOV, AVI and other video formats')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Choose Files' })).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Choose videos to upload'), { target: { files: [video('one.mp4'), video('two.mp4'), video('three.mp4')] } });
    expect(screen.getByRole('dialog', { name: 'Uploading Videos...' })).toBeInTheDocument();
    expect(uploads).toHaveLength(1);
    expect(screen.getAllByText('Uploading...')).toHaveLength(3);

    act(() => uploads[0]!.callbacks.onProgress(50, 100));
    expect(screen.getByRole('progressbar', { name: 'one.mp4 upload progress' })).toHaveAttribute('value', '50');
    act(() => uploads[0]!.callbacks.onSuccess());
    expect(screen.getByText('Done')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(500));
    expect(uploads).toHaveLength(2);
    act(() => uploads[1]!.callbacks.onError(new Error('File too large. Maximum size is 2GB.')));
    expect(screen.getByText('Failed')).toBeInTheDocument();
    expect(screen.getByText('File too large. Maximum size is 2GB.')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(500));
    act(() => uploads[2]!.callbacks.onSuccess());

    act(() => jest.advanceTimersByTime(999));
    expect(screen.queryByText('Upload Complete')).not.toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1));
    expect(await screen.findByText('Upload Complete')).toBeInTheDocument();
    expect(screen.getByText('2 videos uploaded successfully')).toBeInTheDocument();
    expect(onUploaded).toHaveBeenCalledTimes(1);
    act(() => jest.advanceTimersByTime(2000));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});

describe('add videos sheet', () => {
  it('queues videos and images only, and tells when one is added', async () => {
    const { uploads, transport } = fakeTransport();
    const onOpenChange = jest.fn();
    render(
      <>
        <AddVideosSheet timelineId="t1" open onOpenChange={onOpenChange} onUploaded={() => undefined} transport={transport} />
        <Toaster />
      </>,
    );
    fireEvent.change(screen.getByLabelText('Choose videos or images from the gallery'), {
      target: { files: [new File(['x'], 'notes.txt', { type: 'text/plain' }), video('clip.mp4')] },
    });
    expect(uploads.map((upload) => upload.name)).toEqual(['clip.mp4']);
    act(() => uploads[0]!.callbacks.onSuccess());
    expect(await screen.findByText('Video added to timeline successfully.')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1500));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('says when the camera cannot be used', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia: () => Promise.reject(new Error('denied')) } });
    render(
      <>
        <AddVideosSheet timelineId="t1" open onOpenChange={() => undefined} onUploaded={() => undefined} transport={fakeTransport().transport} />
        <Toaster />
      </>,
    );
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Record' }));
    });
    expect(await screen.findByText('Camera Error')).toBeInTheDocument();
    expect(screen.getByText('Unable to access camera. Please check permissions.')).toBeInTheDocument();
  });

  it('names recordings by their time, as webm', () => {
    expect(recordingName(new Date('2025-03-10T12:30:05.123Z'))).toBe('recording-2025-03-10T12-30-05-123Z.webm');
  });
});
