import { describe, expect, it, jest } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from '../../../components/ui/toast';
import { errorResponse, mockApi, noContent } from '../../../testing/api-mocks';
import { createTestQueryClient, jsonResponse } from '../../../testing/test-utils';
import { videoFixture } from '../../../testing/media-fixtures';
import { VideoManagement } from './video-management';

const videos = [
  videoFixture({ id: 'a', title: 'Alpha', originalName: 'alpha.mp4', position: 0, uploadedAt: '2025-03-10T12:00:00Z', metadata: { createdAt: '2025-01-03T00:00:00Z' } }),
  videoFixture({ id: 'b', title: 'Bravo', originalName: 'bravo.mov', position: 1, uploadedAt: '2025-03-08T12:00:00Z', metadata: { createdAt: null }, status: 'processing' }),
  videoFixture({ id: 'c', title: 'Charlie', originalName: 'charlie.mp4', position: 2, uploadedAt: '2025-03-09T12:00:00Z', metadata: { createdAt: '2025-01-01T00:00:00Z' }, status: 'error', errorReason: 'The video is 2:00:00 long; videos can be at most 1:00:00' }),
];

function renderManagement(routes: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({ 'GET /api/timelines/t1/videos': jsonResponse(200, videos), ...routes });
  const onTimelineChanged = jest.fn();
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <VideoManagement timelineId="t1" onTimelineChanged={onTimelineChanged} />
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...api, onTimelineChanged, user: userEvent.setup() };
}

const titles = (list: HTMLElement) => within(list).getAllByRole('listitem').map((item) => item.querySelector('.video-row__title')?.textContent);

describe('video management', () => {
  it('says so when there are no videos', async () => {
    renderManagement({ 'GET /api/timelines/t1/videos': jsonResponse(200, []) });
    expect(await screen.findByText('No videos uploaded yet.')).toBeInTheDocument();
  });

  it('shows each status in words, and opens only completed videos', async () => {
    renderManagement();
    const list = await screen.findByRole('list', { name: 'Videos in manual order' });
    const row = (title: string) => within(list).getByText(title).closest('li')!;
    expect(within(row('Alpha')).getByText('Complete')).toBeInTheDocument();
    expect(within(row('Bravo')).getByText('Processing...')).toBeInTheDocument();
    expect(within(row('Charlie')).getByText('Error')).toBeInTheDocument();
    // Why it failed (or was refused), as the worker said.
    expect(within(row('Charlie')).getByText('The video is 2:00:00 long; videos can be at most 1:00:00')).toBeInTheDocument();
    expect(within(row('Alpha')).getByRole('link', { name: 'Open Alpha in a new tab' })).toHaveAttribute('href', '/api/videos/a/stream');
    expect(within(row('Alpha')).getByRole('link', { name: 'Open Alpha in a new tab' })).toHaveAttribute('target', '_blank');
    expect(within(row('Bravo')).queryByRole('link', { name: /Open/ })).not.toBeInTheDocument();
    expect(within(row('Charlie')).queryByRole('link', { name: /Open/ })).not.toBeInTheDocument();
  });

  it('orders by upload or recording time, and Apply Order makes it permanent', async () => {
    const byCreated = [videos[2]!, videos[0]!, videos[1]!].map((video, position) => ({ ...video, position }));
    const { requests, user } = renderManagement({ 'POST /api/timelines/t1/videos/order-by-timestamp': jsonResponse(200, byCreated) });
    expect(titles(await screen.findByRole('list', { name: 'Videos in manual order' }))).toEqual(['Alpha', 'Bravo', 'Charlie']);
    expect(screen.queryByRole('button', { name: 'Apply Order' })).not.toBeInTheDocument();
    // Drag handles are there in manual order.
    expect(await screen.findByRole('button', { name: 'Reorder Alpha' })).toBeInTheDocument();

    const sort = screen.getByRole('combobox', { name: 'Sort by' });
    await user.selectOptions(sort, 'Upload Time');
    expect(titles(screen.getByRole('list', { name: 'Videos by upload time' }))).toEqual(['Bravo', 'Charlie', 'Alpha']);
    await user.selectOptions(sort, 'Created Time');
    // No recording time: its upload time stands in.
    expect(titles(screen.getByRole('list', { name: 'Videos by created time' }))).toEqual(['Charlie', 'Alpha', 'Bravo']);
    expect(screen.queryByRole('button', { name: 'Reorder Alpha' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Apply Order' }));
    await waitFor(() => expect(sort).toHaveValue('manual'));
    const apply = requests.find((request) => request.url.endsWith('/order-by-timestamp'));
    expect(apply?.body).toEqual({ orderType: 'created' });
    expect(titles(screen.getByRole('list', { name: 'Videos in manual order' }))).toEqual(['Charlie', 'Alpha', 'Bravo']);
  });

  it("says 'Failed to reorder videos' when Apply Order fails", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderManagement({ 'POST /api/timelines/t1/videos/order-by-timestamp': errorResponse(500, 'boom') });
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Sort by' }), 'Upload Time');
    await user.click(screen.getByRole('button', { name: 'Apply Order' }));
    expect(await screen.findByText('Failed to reorder videos')).toBeInTheDocument();
  });

  it('renames with Enter, cancels with Escape, and says when saving fails', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let fail = false;
    let current = videos;
    const { requests, user } = renderManagement({
      'GET /api/timelines/t1/videos': () => jsonResponse(200, current),
      'PATCH /api/videos/a/title': (request) => {
        if (fail) return errorResponse(500, 'boom');
        current = current.map((video) => (video.id === 'a' ? { ...video, title: (request.body as { title: string }).title } : video));
        return noContent();
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Rename Alpha' }));
    const field = screen.getByRole('textbox', { name: 'Video title' });
    expect(field).toHaveFocus();
    await user.clear(field);
    await user.type(field, 'Something else{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Video title' })).not.toBeInTheDocument();
    expect(screen.getByText('Alpha')).toBeInTheDocument();
    expect(requests.some((request) => request.method === 'PATCH')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Rename Alpha' }));
    await user.clear(screen.getByRole('textbox', { name: 'Video title' }));
    await user.type(screen.getByRole('textbox', { name: 'Video title' }), '  Morning light  {Enter}');
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Video title' })).not.toBeInTheDocument());
    expect(requests.find((request) => request.method === 'PATCH')?.body).toEqual({ title: 'Morning light' });
    expect(await screen.findByText('Morning light')).toBeInTheDocument();

    fail = true;
    await user.click(screen.getByRole('button', { name: 'Rename Morning light' }));
    await user.type(screen.getByRole('textbox', { name: 'Video title' }), '!{Enter}');
    expect(await screen.findByText('Failed to update title')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Video title' })).toHaveValue('Morning light!');
  });

  it('asks before deleting, naming the file, then deletes', async () => {
    const { requests, user, onTimelineChanged } = renderManagement({ 'DELETE /api/videos/b': noContent() });
    await user.click(await screen.findByRole('button', { name: 'Delete Bravo' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveTextContent('Are you sure you want to delete "bravo.mov"? This action cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(requests.some((request) => request.method === 'DELETE' && request.url.endsWith('/api/videos/b'))).toBe(true);
    expect(onTimelineChanged).toHaveBeenCalled();
  });

  it('says so when a delete fails', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderManagement({ 'DELETE /api/videos/a': errorResponse(500, 'boom') });
    await user.click(await screen.findByRole('button', { name: 'Delete Alpha' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete video. Please try again.')).toBeInTheDocument();
  });

  it('reorders with the keyboard and saves the new order', async () => {
    // jsdom lays nothing out: each row gets a 100 px slot so the keyboard sensor can move between them.
    jest.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      const row = this.closest('li');
      const index = row?.parentElement ? Array.from(row.parentElement.children).indexOf(row) : 0;
      return { x: 0, y: index * 100, top: index * 100, left: 0, bottom: index * 100 + 100, right: 500, width: 500, height: 100, toJSON: () => ({}) } as DOMRect;
    });
    const { requests, user } = renderManagement({ 'POST /api/timelines/t1/videos/reorder': noContent() });
    const handle = await screen.findByRole('button', { name: 'Reorder Alpha' });
    handle.focus();
    await user.keyboard('[Space]');
    await user.keyboard('[ArrowDown]');
    await user.keyboard('[Space]');
    await waitFor(() => expect(requests.find((request) => request.url.endsWith('/videos/reorder'))).toBeDefined());
    expect(requests.find((request) => request.url.endsWith('/videos/reorder'))?.body).toEqual({ videoIds: ['b', 'a', 'c'] });
  });

  describe('with images', () => {
    const photo = videoFixture({
      id: 'i1', title: 'Beach photo', originalName: 'beach.jpg', mediaType: 'image', position: 1, duration: 0, fileSize: 200_000,
      uploadedAt: '2025-03-11T12:00:00Z', metadata: { width: 640, height: 360, createdAt: null }, streamUrl: '/api/videos/i1/stream?access=tok',
    });
    const mixed = [videos[0]!, photo, { ...videos[1]!, position: 2 }];
    const picture = () => new Response(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), { status: 200, headers: { 'Content-Type': 'image/jpeg' } });
    const renderMixed = (routes: Parameters<typeof mockApi>[0] = {}) =>
      renderManagement({ 'GET /api/timelines/t1/videos': jsonResponse(200, mixed), 'GET /api/media/i1/file': picture, ...routes });

    it('lists the images among the videos in timeline order, each with its picture', async () => {
      const { requests } = renderMixed();
      const list = await screen.findByRole('list', { name: 'Videos in manual order' });
      expect(titles(list)).toEqual(['Alpha', 'Beach photo', 'Bravo']);
      const listRequest = requests.find((request) => request.url.includes('/api/timelines/t1/videos'));
      expect(new URL(listRequest!.url).searchParams.get('include')).toBe('images');
      const row = within(list).getByText('Beach photo').closest('li')!;
      expect(within(row).getByText('Image')).toBeInTheDocument();
      expect(within(row).getByText('Complete')).toBeInTheDocument();
      expect(within(row).getByRole('link', { name: 'Open Beach photo in a new tab' })).toHaveAttribute('href', '/api/media/i1/file?variant=web&access=tok');
      await waitFor(() => expect(row.querySelector('img.video-thumb')).not.toBeNull());
      const fetched = requests.find((request) => request.url.includes('/api/media/i1/file'));
      expect(fetched?.headers.get('Authorization')).toBe('Bearer test-token');
      expect(within(row).getByRole('button', { name: 'Reorder Beach photo' })).toBeInTheDocument();
    });

    it('renames and deletes an image', async () => {
      let current = mixed;
      const { requests, user } = renderMixed({
        'GET /api/timelines/t1/videos': () => jsonResponse(200, current),
        'PATCH /api/videos/i1/title': (request) => {
          current = current.map((item) => (item.id === 'i1' ? { ...item, title: (request.body as { title: string }).title } : item));
          return noContent();
        },
        'DELETE /api/videos/i1': noContent(),
      });
      await user.click(await screen.findByRole('button', { name: 'Rename Beach photo' }));
      const field = screen.getByRole('textbox', { name: 'Image title' });
      await user.clear(field);
      await user.type(field, 'Dunes{Enter}');
      await waitFor(() => expect(requests.find((request) => request.method === 'PATCH')?.body).toEqual({ title: 'Dunes' }));
      await user.click(await screen.findByRole('button', { name: 'Delete Dunes' }));
      const dialog = screen.getByRole('alertdialog', { name: 'Delete image?' });
      expect(dialog).toHaveTextContent('Are you sure you want to delete "beach.jpg"?');
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
      await waitFor(() => expect(requests.some((request) => request.method === 'DELETE' && request.url.endsWith('/api/videos/i1'))).toBe(true));
    });

    it('reorders images with the videos, naming them all', async () => {
      jest.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
        const row = this.closest('li');
        const index = row?.parentElement ? Array.from(row.parentElement.children).indexOf(row) : 0;
        return { x: 0, y: index * 100, top: index * 100, left: 0, bottom: index * 100 + 100, right: 500, width: 500, height: 100, toJSON: () => ({}) } as DOMRect;
      });
      const { requests, user } = renderMixed({ 'POST /api/timelines/t1/videos/reorder': noContent() });
      const handle = await screen.findByRole('button', { name: 'Reorder Beach photo' });
      handle.focus();
      await user.keyboard('[Space]');
      await user.keyboard('[ArrowUp]');
      await user.keyboard('[Space]');
      await waitFor(() => expect(requests.find((request) => request.url.endsWith('/videos/reorder'))).toBeDefined());
      expect(requests.find((request) => request.url.endsWith('/videos/reorder'))?.body).toEqual({ videoIds: ['i1', 'a', 'b'] });
    });

    it('orders images by time with the videos, and keeps them after Apply Order', async () => {
      // The server answers the videos only; the list it gives afterwards has the image last.
      const answer = [{ ...videos[1]!, position: 0 }, { ...videos[0]!, position: 1 }];
      let current = mixed;
      let listed = 0;
      const { user } = renderMixed({
        'GET /api/timelines/t1/videos': () => {
          listed += 1;
          return jsonResponse(200, current);
        },
        'POST /api/timelines/t1/videos/order-by-timestamp': () => {
          current = [...answer, { ...photo, position: 2 }];
          return jsonResponse(200, answer);
        },
      });
      const sort = await screen.findByRole('combobox', { name: 'Sort by' });
      await user.selectOptions(sort, 'Upload Time');
      expect(titles(screen.getByRole('list', { name: 'Videos by upload time' }))).toEqual(['Bravo', 'Alpha', 'Beach photo']);
      await user.click(screen.getByRole('button', { name: 'Apply Order' }));
      await waitFor(() => expect(sort).toHaveValue('manual'));
      expect(titles(screen.getByRole('list', { name: 'Videos in manual order' }))).toEqual(['Bravo', 'Alpha', 'Beach photo']);
      // The list is read again (the answer did not name the image).
      await waitFor(() => expect(listed).toBe(2));
      expect(titles(screen.getByRole('list', { name: 'Videos in manual order' }))).toEqual(['Bravo', 'Alpha', 'Beach photo']);
    });
  });
});
