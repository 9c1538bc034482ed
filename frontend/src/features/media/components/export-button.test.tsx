import { describe, expect, it, jest } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Toaster } from '../../../components/ui/toast';
import { mockApi } from '../../../testing/api-mocks';
import { FakeWebSocket } from '../../../testing/fake-websocket';
import { createTestQueryClient, jsonResponse, testUser } from '../../../testing/test-utils';
import { ExportButton } from './export-button';

const TIMELINE = '4afc471c-42b0-4b2f-a868-b5492b971057';

describe('the player’s download button', () => {
  it('shows how far the export is while it is made, then says the download started', async () => {
    let answer: (response: Response) => void = () => undefined;
    mockApi({ [`POST /api/timelines/${TIMELINE}/export`]: () => new Promise<Response>((resolve) => (answer = resolve)) });
    const clicks: HTMLAnchorElement[] = [];
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this);
    });
    render(
      <QueryClientProvider client={createTestQueryClient()}>
        <ExportButton timeline={{ id: TIMELINE, title: 'Summer Trip' }} />
        <Toaster />
      </QueryClientProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Download timeline' }));
    // At once: the button and a status line say the file is being prepared.
    expect(await screen.findByRole('status')).toHaveTextContent('Preparing your download…');
    expect(screen.getByText('Preparing your download…')).toHaveAttribute('role', 'status');
    expect(screen.getByRole('button', { name: 'Preparing download' })).toBeDisabled();

    // The worker's progress, over the person's own realtime topic.
    const socket = await waitFor(() => {
      const latest = FakeWebSocket.latest();
      if (!latest) throw new Error('no socket yet');
      return latest;
    });
    act(() => {
      socket.open();
      socket.authenticate(testUser.id);
    });
    expect(socket.topics()).toEqual([`user:${testUser.id}`]);
    act(() => socket.receive({ type: 'export_progress', exportId: 'e1', timeline: TIMELINE, status: 'processing', progress: 42 }));
    expect(await screen.findByText('Preparing your download… 42%')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Preparing download, 42%' })).toBeInTheDocument();
    // Another timeline's export is not this one's.
    act(() => socket.receive({ type: 'export_progress', exportId: 'e2', timeline: 'other', status: 'processing', progress: 90 }));
    expect(screen.getByText('Preparing your download… 42%')).toBeInTheDocument();

    await act(async () => answer(jsonResponse(200, { downloadUrl: '/api/exports/e1/file?access=t', fileName: 'Summer_Trip.mp4', exportId: 'e1' })));
    expect(await screen.findByText('Your download has started')).toBeInTheDocument();
    expect(clicks[0]?.getAttribute('href')).toBe('/api/exports/e1/file?access=t');
    expect(clicks[0]?.download).toBe('Summer_Trip.mp4');
    expect(screen.queryByText(/Preparing your download/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download timeline' })).toBeEnabled();
  });
});
