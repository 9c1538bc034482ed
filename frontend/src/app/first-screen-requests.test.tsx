import { describe, expect, it } from '@jest/globals';
import { act, screen, waitFor } from '@testing-library/react';
import { jsonResponse, mockFetch, renderApp, signIn, testUser } from '../testing/test-utils';

/**
 * A signed-in API whose session check answers only when the test says: whatever the first screen
 * asks for before that was asked beside the session check, not after it.
 */
function apiWithHeldSession() {
  signIn();
  let answerSession: (() => void) | undefined;
  const { requests } = mockFetch((request) => {
    const path = new URL(request.url).pathname;
    if (path === '/api/auth/me') return new Promise<Response>((resolve) => (answerSession = () => resolve(jsonResponse(200, testUser))));
    if (path === '/api/notifications/unread-count') return jsonResponse(200, { count: 0 });
    if (path === '/api/feed' || path === '/api/timelines') return jsonResponse(200, []);
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

  it('a signed-out visit asks for nothing but the sign-in screen', async () => {
    const { requests } = mockFetch(() => jsonResponse(500, {}));
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });
});
