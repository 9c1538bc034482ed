import { describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { mockApi, timelineFixture } from '../../../testing/api-mocks';
import { videoFixture } from '../../../testing/media-fixtures';
import { jsonResponse, renderApp } from '../../../testing/test-utils';

function watch(sensitive: boolean, alwaysShowSensitive: boolean) {
  jest.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
  jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
  return mockApi({
    'GET /api/timelines/t1': jsonResponse(200, timelineFixture({ sensitive, status: 'published' })),
    'GET /api/timelines/t1/videos': jsonResponse(200, [videoFixture({ id: 'a', title: 'Alpha' })]),
    'GET /api/timelines': jsonResponse(200, []),
    'GET /api/videos/a/liked': jsonResponse(200, { isLiked: false, liked: false, likesCount: 0 }),
    'GET /api/auth/preferences': jsonResponse(200, { alwaysShowSensitive }),
  });
}

describe('sensitive media on the player', () => {
  it('covers a sensitive timeline with a blurred cover and Show; nothing plays until then', async () => {
    watch(true, false);
    renderApp('/watch/t1');
    const cover = await screen.findByTestId('sensitive-cover');
    expect(within(cover).getByText('Sensitive content')).toBeInTheDocument();
    expect(document.querySelector('video')).toBeNull();
    act(() => fireEvent.click(within(cover).getByRole('button', { name: 'Show' })));
    expect(screen.queryByTestId('sensitive-cover')).not.toBeInTheDocument();
    expect(await screen.findByRole('button', { name: /^Comments, / })).toBeInTheDocument();
  });

  it('shows it at once to someone who always shows sensitive media, and never covers the rest', async () => {
    watch(true, true);
    renderApp('/watch/t1');
    expect(await screen.findByRole('button', { name: /^Comments, / })).toBeInTheDocument();
    expect(screen.queryByTestId('sensitive-cover')).not.toBeInTheDocument();
  });

  it('does not cover a timeline that is not sensitive', async () => {
    const { requests } = watch(false, false);
    renderApp('/watch/t1');
    expect(await screen.findByRole('button', { name: /^Comments, / })).toBeInTheDocument();
    expect(screen.queryByTestId('sensitive-cover')).not.toBeInTheDocument();
    expect(requests.some((r) => r.url.endsWith('/api/auth/preferences'))).toBe(false);
  });
});
