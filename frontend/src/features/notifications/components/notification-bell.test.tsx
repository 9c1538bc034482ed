import { describe, expect, it, jest } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createTestQueryClient, jsonResponse, mockFetch } from '../../../testing/test-utils';
import { getUnreadCountQueryOptions } from '../api/get-unread-count';
import { formatBadge, NotificationBell } from './notification-bell';

function renderBell() {
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <NotificationBell />
    </QueryClientProvider>,
  );
}

describe('unread badge', () => {
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
    const { requests } = mockFetch(() => jsonResponse(200, { count: 150 }));
    renderBell();
    expect(await screen.findByText('99+')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: '150 unread notifications' })).toBeInTheDocument();
    expect(requests[0]?.url).toBe('http://localhost/api/notifications/unread-count');
  });

  it('hides the badge at 0 and when the call fails', async () => {
    mockFetch(() => jsonResponse(200, { count: 0 }));
    renderBell();
    expect(await screen.findByRole('img', { name: 'No unread notifications' })).toBeInTheDocument();
    expect(screen.queryByTestId('unread-badge')).not.toBeInTheDocument();
  });

  it('counts a failed call as 0', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { requests } = mockFetch(() => new Response('', { status: 500 }));
    renderBell();
    await screen.findByRole('img', { name: 'No unread notifications' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByTestId('unread-badge')).not.toBeInTheDocument();
    expect(requests).toHaveLength(1);
  });
});
