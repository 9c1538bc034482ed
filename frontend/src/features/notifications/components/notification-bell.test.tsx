import { describe, expect, it, jest } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { FakeWebSocket } from '../../../testing/fake-websocket';
import { createTestQueryClient, jsonResponse, mockFetch, type RecordedRequest, signIn } from '../../../testing/test-utils';
import { getUnreadCountQueryOptions } from '../api/get-unread-count';
import { formatBadge, NotificationBell } from './notification-bell';

const USER = '5f0c8a52-0a3e-4a8e-9d8c-2b4f0e6c1a11';
const TIMELINE = '4afc471c-42b0-4b2f-a868-b5492b971057';

const entry = (over: Record<string, unknown> = {}) => ({
  id: 'n1',
  kind: 'like',
  count: 3,
  actors: [
    { id: 'a1', displayName: 'Ana', username: 'ana', avatar: null },
    { id: 'a2', displayName: 'Ben', username: 'ben', avatar: null },
  ],
  read: false,
  link: `/watch/${TIMELINE}`,
  target: { type: 'timeline', id: TIMELINE, timelineId: TIMELINE, title: 'Trip' },
  text: 'Ana, Ben and 1 other liked your timeline "Trip"',
  createdAt: new Date().toISOString(),
  updatedAt: new Date(Date.now() - 5 * 60_000).toISOString(),
  ...over,
});

function renderBell(answer: (request: RecordedRequest) => Response) {
  signIn();
  const fetched = mockFetch(answer);
  const router = createMemoryRouter(
    [
      { path: '/', element: <NotificationBell userId={USER} /> },
      { path: '/watch/:id', element: <p>Watching</p> },
      { path: '/notifications', element: <p>All notifications</p> },
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

const unreadAnswer = (count: number) => (request: RecordedRequest) =>
  request.url.endsWith('/unread-count') ? jsonResponse(200, { count }) : jsonResponse(200, [entry()]);

describe('notification bell', () => {
  it("shows the count, '99+' above 99, and nothing at 0", () => {
    expect(formatBadge(0)).toBeNull();
    expect(formatBadge(1)).toBe('1');
    expect(formatBadge(99)).toBe('99');
    expect(formatBadge(100)).toBe('99+');
    expect(formatBadge(5000)).toBe('99+');
  });

  it('polls the unread count every 30 s without retrying', () => {
    const options = getUnreadCountQueryOptions();
    expect(options.refetchInterval).toBe(30_000);
    expect(options.retry).toBe(false);
  });

  it("renders '99+' for 150 unread", async () => {
    const { requests } = renderBell(unreadAnswer(150));
    expect(await screen.findByText('99+')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Notifications, 150 unread' })).toBeInTheDocument();
    expect(requests[0]?.url).toBe('http://localhost/api/notifications/unread-count');
  });

  it('counts a failed call as 0', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { requests } = renderBell(() => new Response('', { status: 500 }));
    await screen.findByRole('button', { name: 'Notifications, none unread' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByTestId('unread-badge')).not.toBeInTheDocument();
    expect(requests).toHaveLength(1);
  });

  it('rises and falls live from the person\'s own realtime topic', async () => {
    renderBell(unreadAnswer(0));
    await screen.findByRole('button', { name: 'Notifications, none unread' });
    const socket = FakeWebSocket.latest()!;
    act(() => {
      socket.open();
      socket.authenticate(USER);
    });
    expect(socket.topics()).toEqual([`user:${USER}`]);
    act(() => socket.receive({ type: 'notification', notification: entry(), unreadCount: 4 }));
    expect(await screen.findByTestId('unread-badge')).toHaveTextContent('4');
    act(() => socket.receive({ type: 'notification_count', unreadCount: 0 }));
    await waitFor(() => expect(screen.queryByTestId('unread-badge')).not.toBeInTheDocument());
  });

  it('opens the grouped list on desktop; an entry is marked read and opens its target', async () => {
    const { requests, router } = renderBell((request) => {
      if (request.url.endsWith('/unread-count')) return jsonResponse(200, { count: 1 });
      if (request.method === 'POST') return jsonResponse(200, { ...entry(), read: true });
      return jsonResponse(200, [entry(), entry({ id: 'n2', read: true, kind: 'follow', actors: [], text: 'Your video "a.mp4" is ready to watch', link: '/' })]);
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    const popover = await screen.findByRole('dialog', { name: 'Notifications' });
    const items = await within(popover).findAllByTestId('notification');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Ana, Ben and 1 other liked your timeline "Trip"');
    expect(items[0]).toHaveTextContent('5 minutes ago');
    expect(within(items[0]!).getByLabelText('Unread')).toBeInTheDocument();
    expect(within(items[1]!).queryByLabelText('Unread')).not.toBeInTheDocument();

    fireEvent.click(items[0]!);
    expect(router.state.location.pathname).toBe(`/watch/${TIMELINE}`);
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(requests.some((r) => r.method === 'POST' && r.url.endsWith('/api/notifications/n1/read'))).toBe(true);
  });

  it('moves focus into the popover, and back to the bell on Escape', async () => {
    renderBell(unreadAnswer(1));
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    fireEvent.click(bell);
    const popover = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(popover).toHaveFocus();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(bell).toHaveFocus();
  });

  it('marks all read from the list', async () => {
    const { requests } = renderBell((request) => {
      if (request.url.endsWith('/unread-count')) return jsonResponse(200, { count: 1 });
      if (request.url.endsWith('/read-all')) return jsonResponse(200, { count: 0 });
      return jsonResponse(200, [entry()]);
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    await screen.findByTestId('notification');
    fireEvent.click(screen.getByRole('button', { name: 'Mark all read' }));
    await screen.findByRole('button', { name: 'Notifications, none unread' });
    expect(requests.some((r) => r.method === 'POST' && r.url.endsWith('/api/notifications/read-all'))).toBe(true);
  });

  it('goes to the full-screen list on a phone', async () => {
    window.matchMedia = ((query: string) => ({ matches: query.includes('max-width'), media: query, addEventListener: () => undefined, removeEventListener: () => undefined })) as unknown as typeof window.matchMedia;
    try {
      const { router } = renderBell(unreadAnswer(2));
      fireEvent.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
      expect(router.state.location.pathname).toBe('/notifications');
    } finally {
      // @ts-expect-error jsdom has no matchMedia of its own
      delete window.matchMedia;
    }
  });
});
