import { describe, expect, it, jest } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Toaster } from '../../../components/ui/toast';
import { createTestQueryClient, signIn } from '../../../testing/test-utils';
import { FakeWebSocket } from '../../../testing/fake-websocket';
import { listenToTimeline } from '../hooks/use-upload-queue';
import { UploadManager, type UploadCallbacks } from '../lib/upload-manager';
import { MediaUploadArea } from './media-upload-area';

function setup() {
  signIn();
  const uploads: UploadCallbacks[] = [];
  const queue = new UploadManager({
    timelineId: 't1',
    gapMs: 500,
    autoStart: true,
    listen: listenToTimeline,
    transport: (_file, _timeline, callbacks) => {
      uploads.push(callbacks);
      return { abort: () => undefined };
    },
  });
  const onUploaded = jest.fn();
  const onProcessed = jest.fn();
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <MediaUploadArea timelineId="t1" queue={queue} onUploaded={onUploaded} onProcessed={onProcessed} />
      <Toaster />
    </QueryClientProvider>,
  );
  const choose = (...files: File[]) => fireEvent.change(screen.getByLabelText('Choose videos or images to upload'), { target: { files } });
  return { uploads, choose, onUploaded, onProcessed };
}

describe('media upload area', () => {
  it('refuses files it cannot take, with the reason', async () => {
    const { choose, uploads } = setup();
    choose(new File(['x'], 'notes.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText('Invalid file type. Only video and image files are supported. Received: application/pdf for notes.pdf')).toBeInTheDocument();
    expect(screen.getByText('Upload Failed')).toBeInTheDocument();
    expect(uploads).toHaveLength(0);
  });

  it("says 'Upload Error' when the chosen files cannot be taken in", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    signIn();
    const queue = new UploadManager({
      timelineId: 't1',
      gapMs: 500,
      autoStart: true,
      transport: () => {
        throw new Error('the file cannot be read');
      },
    });
    render(
      <>
        <MediaUploadArea timelineId="t1" queue={queue} />
        <Toaster />
      </>,
    );
    fireEvent.change(screen.getByLabelText('Choose videos or images to upload'), { target: { files: [new File(['x'], 'beach.mp4', { type: 'video/mp4' })] } });
    expect(await screen.findByText('Upload Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to process selected files. Please try again.')).toBeInTheDocument();
  });

  it('shows bytes sent, then processing as the server reports it, then Video ready!', async () => {
    const { choose, uploads, onUploaded, onProcessed } = setup();
    choose(new File([new Uint8Array(2000)], 'beach.mp4', { type: 'video/mp4' }));
    const queue = screen.getByRole('list', { name: 'Upload queue' });
    const row = within(queue).getByText('beach.mp4').closest('li')!;
    expect(within(row).getByText('Uploading')).toBeInTheDocument();

    act(() => {
      uploads[0]!.onMediaId('v1');
      uploads[0]!.onProgress(500, 2000);
    });
    expect(within(row).getByRole('progressbar', { name: 'beach.mp4 upload progress' })).toHaveAttribute('value', '25');

    const socket = FakeWebSocket.latest()!;
    act(() => socket.connect());
    expect(socket.topics()).toEqual(['timeline:t1']);
    act(() => {
      uploads[0]!.onProgress(2000, 2000);
      uploads[0]!.onSuccess();
    });
    expect(onUploaded).toHaveBeenCalledTimes(1);
    act(() => socket.receive({ type: 'video_upload_started', timelineId: 't1', video: { id: 'v1', originalName: 'beach.mp4' } }));
    expect(await screen.findByText('Your image/video is being processed')).toBeInTheDocument();
    expect(screen.getByText('Upload Started')).toBeInTheDocument();
    act(() =>
      socket.receive({ type: 'video_processing_progress', timelineId: 't1', videoId: 'v1', progress: { stage: 'transcoding', progress: 57, message: 'Transcoding 360p' } }),
    );
    expect(within(row).getByText('Processing')).toBeInTheDocument();
    expect(within(row).getByText('Transcoding 360p')).toBeInTheDocument();
    expect(within(row).getByRole('progressbar', { name: 'beach.mp4 processing progress' })).toHaveAttribute('value', '57');

    act(() => socket.receive({ type: 'video_processing_completed', timelineId: 't1', video: { id: 'v1' } }));
    expect(within(row).getByText('Video ready!')).toBeInTheDocument();
    expect(within(row).getByText('Completed')).toBeInTheDocument();
    expect(onProcessed).toHaveBeenCalledTimes(1);

    fireEvent.click(screen.getByRole('button', { name: 'Clear Completed' }));
    expect(screen.queryByRole('list', { name: 'Upload queue' })).not.toBeInTheDocument();
  });

  it('shows a failed upload with its message, and retries it', async () => {
    const { choose, uploads } = setup();
    choose(new File(['x'], 'a.mov', { type: 'video/quicktime' }));
    act(() => uploads[0]!.onError(new Error('At most 5 uploads can be in progress at once')));
    expect(await screen.findByRole('alert')).toHaveTextContent('At most 5 uploads can be in progress at once');
    fireEvent.click(screen.getByRole('button', { name: 'Retry a.mov' }));
    expect(screen.getByText('Waiting')).toBeInTheDocument();
    // The queue keeps its pause between files before trying again.
    await waitFor(() => expect(uploads).toHaveLength(2));
    expect(screen.getByText('Uploading')).toBeInTheDocument();
  });
});
