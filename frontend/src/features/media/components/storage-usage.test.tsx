import { describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import { jsonResponse, mockFetch, renderApp, signIn, testUser } from '../../../testing/test-utils';

const GB = 1024 ** 3;
const MB = 1024 ** 2;

const answering = (storage: Record<string, number>) =>
  mockFetch((request) => {
    const path = new URL(request.url).pathname;
    if (path === '/api/auth/me') return jsonResponse(200, testUser);
    if (path === '/api/media/storage') return jsonResponse(200, storage);
    if (path === '/api/my-timelines') return jsonResponse(200, []);
    return jsonResponse(200, { count: 0 });
  });

describe('storage usage', () => {
  it('shows what is used of the quota and what is left in the settings', async () => {
    signIn();
    const { requests } = answering({ usedBytes: 1141 * MB, reservedBytes: 0, quotaBytes: 10 * GB, remainingBytes: 10 * GB - 1141 * MB });
    renderApp('/settings');
    expect(await screen.findByRole('heading', { name: 'Storage' })).toBeInTheDocument();
    expect(screen.getByText('1.1 GB of 10 GB used · 8.9 GB left')).toBeInTheDocument();
    expect(screen.getByRole('meter', { name: 'Storage used' })).toHaveAttribute('aria-valuetext', '1.1 GB of 10 GB used');
    expect(requests.some((r) => new URL(r.url).pathname === '/api/media/storage')).toBe(true);
  });

  it('says so in the studio when uploads in progress hold space and when it is full', async () => {
    signIn();
    answering({ usedBytes: 9 * GB, reservedBytes: GB, quotaBytes: 10 * GB, remainingBytes: 0 });
    renderApp('/studio');
    expect(await screen.findByText('9 GB of 10 GB used · 0 bytes left')).toBeInTheDocument();
    expect(screen.getByText('1 GB held for uploads in progress')).toBeInTheDocument();
    expect(screen.getByText('Your storage is full. Delete videos or images to upload more.')).toHaveAttribute('role', 'status');
  });
});
