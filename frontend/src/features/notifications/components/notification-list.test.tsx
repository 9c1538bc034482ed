import { describe, expect, it, jest } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createTestQueryClient, jsonResponse, mockFetch, renderApp, signIn } from '../../../testing/test-utils';
import { NotificationList } from './notification-list';

const USER = '5f0c8a52-0a3e-4a8e-9d8c-2b4f0e6c1a11';
const TIMELINE = '4afc471c-42b0-4b2f-a868-b5492b971057';
const VIDEO = '0b6f0c3e-6a3f-4d5e-9a52-0d2f8e8d6c11';
const POST = '9d1e4c57-8f0a-4b57-a1b3-6c2d0e9f4a21';
const EXPORT = 'c3a1f0d2-7b6e-4d5c-8a9b-1e2f3a4b5c6d';

const entry = (over: Record<string, unknown>) => ({
  id: 'n1',
  type: 'like',
  kind: 'like',
  userId: USER,
  actorId: null,
  targetType: 'timeline',
  targetId: TIMELINE,
  count: 1,
  actors: [],
  read: false,
  link: `/watch/${TIMELINE}`,
  target: { type: 'timeline', id: TIMELINE, timelineId: TIMELINE, title: 'Trip' },
  text: '',
  message: '',
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  ...over,
});

const ENTRIES = [
  entry({ id: 'processed', type: 'video_processed', kind: 'video_processed', count: 3, text: '3 of your videos in "Trip" are ready to watch', link: `/watch/${TIMELINE}?video=${VIDEO}` }),
  entry({ id: 'failed', type: 'video_failed', kind: 'video_failed', text: 'Your video "bad.mp4" could not be processed', link: `/watch/${TIMELINE}?video=${VIDEO}` }),
  entry({ id: 'export', type: 'export_ready', kind: 'export_ready', text: 'Your export "Trip" is ready to download', link: `/exports/${EXPORT}`, target: { type: 'export', id: EXPORT, timelineId: TIMELINE, title: 'Trip' } }),
  entry({
    id: 'liked-post',
    actorId: 'a1',
    actors: [{ id: 'a1', displayName: 'Ana Lopez', username: 'ana', avatar: null }],
    text: 'Ana Lopez liked your post',
    link: `/post/${POST}`,
    target: { type: 'post', id: POST, timelineId: null, title: null },
  }),
];

function renderList() {
  signIn();
  const fetched = mockFetch((request) => (request.method === 'POST' ? jsonResponse(200, { ...ENTRIES[0], read: true }) : jsonResponse(200, ENTRIES)));
  const router = createMemoryRouter(
    [
      { path: '/', element: <NotificationList /> },
      { path: '/watch/:id', element: <p>Watching</p> },
      { path: '/exports/:id', element: <p>Export page</p> },
      { path: '/post/:id', element: <p>Post page</p> },
    ],
    { initialEntries: ['/'] },
  );
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...fetched, router };
}

describe('notification list', () => {
  it('draws what an entry without anyone is about instead of an empty picture; people get their avatars', async () => {
    renderList();
    const items = await screen.findAllByTestId('notification');
    expect(items).toHaveLength(4);
    const iconOf = (item: HTMLElement) => item.querySelector('[data-testid="notification-icon"]');
    for (const [i, type] of ['video_processed', 'video_failed', 'export_ready'].entries()) {
      const icon = iconOf(items[i]!);
      expect(icon).not.toBeNull();
      expect(icon).toHaveClass(`notification__system--${type}`);
      expect(icon!.querySelector('svg')).not.toBeNull();
    }
    expect(iconOf(items[3]!)).toBeNull();
    expect(items[3]!.querySelector('.avatar')).not.toBeNull();
  });

  it('leads to the video, the post and the export download page', async () => {
    const { router } = renderList();
    const items = await screen.findAllByTestId('notification');
    expect(items[0]).toHaveAttribute('href', `/watch/${TIMELINE}?video=${VIDEO}`);
    expect(items[2]).toHaveAttribute('href', `/exports/${EXPORT}`);
    expect(items[3]).toHaveAttribute('href', `/post/${POST}`);
    fireEvent.click(items[2]!);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/exports/${EXPORT}`));
  });
});

describe('export download page', () => {
  it('asks for the signed link and starts the download, offering it again', async () => {
    signIn();
    const clicked: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(`${this.getAttribute('href')} as ${this.download}`);
    });
    const url = `/api/exports/${EXPORT}/file?access=abc.def`;
    mockFetch((request) => {
      if (request.url.endsWith(`/api/exports/${EXPORT}`)) return jsonResponse(200, { exportId: EXPORT, status: 'completed', fileName: 'Trip.mp4', downloadUrl: url });
      if (request.url.endsWith('/api/auth/me')) return jsonResponse(200, { id: USER, username: 'me', displayName: 'Me', email: 'me@example.com', avatar: null });
      return jsonResponse(200, []);
    });
    renderApp(`/exports/${EXPORT}`);
    expect(await screen.findByRole('heading', { name: 'Your Export' })).toBeInTheDocument();
    await waitFor(() => expect(clicked).toEqual([`${url} as Trip.mp4`]));
    expect(screen.getByRole('link', { name: 'Download again' })).toHaveAttribute('href', url);
    click.mockRestore();
  });

  it('says when an export no longer exists', async () => {
    signIn();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch((request) => {
      if (request.url.endsWith(`/api/exports/${EXPORT}`)) return jsonResponse(404, { statusCode: 404, error: 'Not Found', message: 'Export not found' });
      if (request.url.endsWith('/api/auth/me')) return jsonResponse(200, { id: USER, username: 'me', displayName: 'Me', email: 'me@example.com', avatar: null });
      return jsonResponse(200, []);
    });
    renderApp(`/exports/${EXPORT}`);
    expect(await screen.findByRole('heading', { name: 'Export Not Available' })).toBeInTheDocument();
  });
});
