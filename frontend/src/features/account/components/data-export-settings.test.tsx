import { describe, expect, it } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, mockFetch, renderApp, signIn, testUser } from '../../../testing/test-utils';

const exportRow = (fields: Record<string, unknown>): Record<string, unknown> => ({
  id: '0b6f0c3e-6a3f-4d5e-9a52-0d2f8e8d6c11',
  status: 'queued',
  phase: 'waiting',
  progress: 0,
  fileName: 'timeliner-data-2026-11-28.zip',
  createdAt: '2026-11-28T05:00:00.000Z',
  ...fields,
});

/** The API as the settings page meets it: `states` are what GET /api/account/data-exports answers, one after the other (the last one repeats). */
function answering(states: unknown[], start: { status: number; body: unknown } = { status: 202, body: exportRow({}) }) {
  let asked = 0;
  return mockFetch((request) => {
    const path = new URL(request.url).pathname;
    if (path === '/api/auth/me') return jsonResponse(200, testUser);
    if (path === '/api/account/data-exports' && request.method === 'POST') return jsonResponse(start.status, start.body);
    if (path === '/api/account/data-exports') return jsonResponse(200, states[Math.min(asked++, states.length - 1)]);
    if (path === '/api/media/storage') return jsonResponse(200, { usedBytes: 0, reservedBytes: 0, quotaBytes: 0, remainingBytes: 0 });
    return jsonResponse(200, []);
  });
}

describe('Download your data (settings, Account tab)', () => {
  it('starts an export, shows how far it is, then the download link with its size and expiry', async () => {
    signIn();
    const done = exportRow({
      status: 'completed', phase: 'done', progress: 100, completedAt: '2026-11-28T05:01:00.000Z', expiresAt: '2026-12-05T05:01:00.000Z', sizeBytes: 5 * 1024 * 1024,
      downloadUrl: '/api/account/data-exports/0b6f0c3e-6a3f-4d5e-9a52-0d2f8e8d6c11/file?access=a.b',
    });
    const { requests } = answering([
      { export: null, nextExportAt: null },
      { export: exportRow({ status: 'processing', phase: 'files', progress: 42 }), nextExportAt: '2026-11-29T05:00:00.000Z' },
      { export: done, nextExportAt: '2026-11-29T05:00:00.000Z' },
    ]);
    renderApp('/settings?tab=account');
    expect(await screen.findByRole('heading', { name: 'Download your data' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Delete account' })).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Start export' }));
    expect(requests.some((r) => r.method === 'POST' && new URL(r.url).pathname === '/api/account/data-exports')).toBe(true);
    expect(await screen.findByText('Copying your original files · 42%')).toBeInTheDocument();
    const link = await screen.findByRole('link', { name: 'Download ZIP' }, { timeout: 5_000 });
    expect(link).toHaveAttribute('href', done.downloadUrl);
    expect(screen.getByText(/Your data is ready \(5\.0 MB\)\. The link expires on Dec 5, 2026 at /)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start export' })).toBeDisabled();
    expect(screen.getByText(/You can start one export a day\. Next export possible on Nov 29, 2026 at /)).toBeInTheDocument();
  });

  it('shows why a new export is refused', async () => {
    signIn();
    answering([{ export: null, nextExportAt: null }], { status: 429, body: { statusCode: 429, error: 'Too Many Requests', message: 'You can download your data once a day. You can start a new export on 29 Nov 2026 at 05:00 UTC.' } });
    renderApp('/settings?tab=account');
    await userEvent.click(await screen.findByRole('button', { name: 'Start export' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('You can download your data once a day. You can start a new export on 29 Nov 2026 at 05:00 UTC.'));
  });
});
