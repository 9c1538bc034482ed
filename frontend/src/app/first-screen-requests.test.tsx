import { describe, expect, it } from '@jest/globals';
import { act, screen, waitFor } from '@testing-library/react';
import { myTimelineFixture } from '../testing/api-mocks';
import { jsonResponse, mockFetch, renderApp, signIn, testUser } from '../testing/test-utils';

/**
 * A signed-in API whose session check answers only when the test says: whatever the first screen
 * asks for before that was asked beside the session check, not after it.
 */
function apiWithHeldSession(myTimelines: unknown[] = []) {
  signIn();
  let answerSession: (() => void) | undefined;
  const { requests } = mockFetch((request) => {
    const path = new URL(request.url).pathname;
    if (path === '/api/auth/me') return new Promise<Response>((resolve) => (answerSession = () => resolve(jsonResponse(200, testUser))));
    if (path === '/api/notifications/unread-count') return jsonResponse(200, { count: 0 });
    if (path === '/api/feed' || path === '/api/timelines') return jsonResponse(200, []);
    if (path === '/api/my-timelines') return jsonResponse(200, myTimelines);
    return jsonResponse(404, { statusCode: 404, error: 'Not Found', message: 'Not found' });
  });
  const paths = () => requests.map((request) => new URL(request.url).pathname);
  return { paths, answerSession: () => act(() => answerSession?.()) };
}

describe('the first screen’s data', () => {
  it('home asks for the feed’s first page and the trending list while the session is being checked', async () => {
    const api = apiWithHeldSession();
    renderApp('/');
    await waitFor(() => expect(api.paths()).toEqual(expect.arrayContaining(['/api/auth/me', '/api/feed', '/api/timelines'])));
    api.answerSession();
    expect(await screen.findByText('No posts or timelines yet. Create your first timeline or share a post!')).toBeInTheDocument();
    // Asked once: the page reads what the route started.
    expect(api.paths().filter((path) => path === '/api/feed')).toHaveLength(1);
  });

  it('the player asks for the timeline, its videos and the list it swipes through while the session is being checked', async () => {
    const id = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
    const api = apiWithHeldSession();
    renderApp(`/watch/${id}`);
    await waitFor(() =>
      expect(api.paths()).toEqual(expect.arrayContaining(['/api/auth/me', `/api/timelines/${id}`, `/api/timelines/${id}/videos`, '/api/timelines'])),
    );
  });

  it('the studio starts its first cards’ pictures as soon as its list arrives, before anything is drawn', async () => {
    const signed = (id: string) => `/api/videos/${id}/thumbnail?access=token-${id}`;
    const api = apiWithHeldSession([
      myTimelineFixture({ id: 'a', title: 'Oldest', thumbnailUrl: signed('v1'), createdAt: '2025-01-01T12:00:00Z' }),
      myTimelineFixture({ id: 'b', title: 'Newest', thumbnailUrl: signed('v2'), createdAt: '2025-03-01T12:00:00Z' }),
      myTimelineFixture({ id: 'c', title: 'Middle', thumbnailUrl: signed('v3'), createdAt: '2025-02-01T12:00:00Z' }),
      myTimelineFixture({ id: 'd', title: 'Shared to watch', thumbnailUrl: signed('v4'), createdAt: '2025-04-01T12:00:00Z', role: 'viewer' }),
      myTimelineFixture({ id: 'e', title: 'Unsigned', thumbnailUrl: '/api/videos/v5/thumbnail', createdAt: '2025-05-01T12:00:00Z' }),
    ]);
    renderApp('/studio');
    // The session check has not answered: no card is drawn, yet the pictures are on their way.
    const preloads = () => [...document.head.querySelectorAll('link[rel="preload"][as="image"]')];
    // The list's first own cards (newest first), signed ones only: the unsigned one is fetched by script.
    await waitFor(() => expect(preloads().map((link) => link.getAttribute('href'))).toEqual([signed('v2')]));
    expect(preloads()[0]).toHaveAttribute('fetchpriority', 'high');
    expect(screen.queryByRole('list', { name: 'Your timelines' })).not.toBeInTheDocument();
    api.answerSession();
    expect(await screen.findByRole('list', { name: 'Your timelines' })).toBeInTheDocument();
  });

  it('a signed-out visit asks for nothing but the sign-in screen', async () => {
    const { requests } = mockFetch(() => jsonResponse(500, {}));
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });
});
