import { describe, expect, it } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { mockApi } from '../../../testing/api-mocks';
import { videoFixture } from '../../../testing/media-fixtures';
import { createTestQueryClient, jsonResponse } from '../../../testing/test-utils';
import { VideoManagement } from './video-management';

function renderManagement(videos: ReturnType<typeof videoFixture>[], routes: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({ 'GET /api/timelines/t1/videos': jsonResponse(200, videos), ...routes });
  render(
    <MemoryRouter>
      <QueryClientProvider client={createTestQueryClient()}>
        <VideoManagement timelineId="t1" />
      </QueryClientProvider>
    </MemoryRouter>,
  );
  return api;
}

/** Issue 28 item 6 in the studio: the timeline's team marks a single video or image sensitive; an item the moderators removed says so. */
describe('sensitive items in video management', () => {
  it('marks a video sensitive and unmarks it, as the server answers', async () => {
    let sensitive = false;
    const { requests } = renderManagement([videoFixture({ id: 'a', title: 'Alpha' })], {
      'PATCH /api/videos/a/sensitive': (request) => {
        sensitive = (request.body as { sensitive: boolean }).sensitive;
        return jsonResponse(200, videoFixture({ id: 'a', title: 'Alpha', sensitive }));
      },
    });
    const user = userEvent.setup();
    const box = await screen.findByRole('checkbox', { name: 'Sensitive' });
    expect(box).not.toBeChecked();
    await user.click(box);
    await waitFor(() => expect(box).toBeChecked());
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({ sensitive: true });
    await user.click(box);
    await waitFor(() => expect(box).not.toBeChecked());
    expect(requests.filter((r) => r.method === 'PATCH').map((r) => r.body)).toEqual([{ sensitive: true }, { sensitive: false }]);
  });

  it('marks an item the moderators removed, with the way to their notice', async () => {
    renderManagement([videoFixture({ id: 'a', title: 'Alpha', removedByModerators: true }), videoFixture({ id: 'b', title: 'Bravo' })]);
    expect(await screen.findByText('Removed by moderators')).toBeInTheDocument();
    expect(screen.getAllByText('Removed by moderators')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Why?' })).toHaveAttribute('href', '/moderation/notices');
  });
});
