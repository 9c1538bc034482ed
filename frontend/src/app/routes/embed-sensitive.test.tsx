import { describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, timelineFixture } from '../../testing/api-mocks';
import { videoFixture } from '../../testing/media-fixtures';
import { jsonResponse, renderApp } from '../../testing/test-utils';

function embed(timeline: Record<string, unknown>, videos: ReturnType<typeof videoFixture>[]) {
  jest.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
  jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
  return mockApi(
    {
      'GET /api/timelines/t1': jsonResponse(200, timelineFixture({ visibility: 'public', status: 'published', role: null, ...timeline })),
      'GET /api/timelines/t1/videos': jsonResponse(200, videos),
    },
    { signedIn: false },
  );
}

/** Issue 28 item 6 on the embed page: another site's visitor sees what is marked sensitive behind a cover with Show. */
describe('the embed page and sensitive media', () => {
  it('covers a sensitive timeline until Show', async () => {
    embed({ sensitive: true }, [videoFixture({ id: 'a', title: 'Alpha' })]);
    renderApp('/embed/timeline/t1');
    const cover = await screen.findByRole('group', { name: 'Sensitive content' });
    expect(document.querySelector('video')).toBeNull();
    await userEvent.setup().click(within(cover).getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(document.querySelector('video')).not.toBeNull());
  });

  it('covers a sensitive video of a timeline that is not, until Show', async () => {
    embed({ sensitive: false }, [videoFixture({ id: 'a', title: 'Alpha', sensitive: true })]);
    renderApp('/embed/timeline/t1');
    const cover = await screen.findByRole('group', { name: 'Sensitive content' });
    expect(within(cover).getByText(/This video was marked sensitive/)).toBeInTheDocument();
    expect(document.querySelector('video')).toBeNull();
    await userEvent.setup().click(within(cover).getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(document.querySelector('video')).not.toBeNull());
  });
});
