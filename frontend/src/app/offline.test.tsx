import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { act, screen, waitFor, within } from '@testing-library/react';
import { onlineManager } from '@tanstack/react-query';
import { OFFLINE_TEXT } from '../components/ui/offline-banner';
import { createAppQueryClient } from './provider';
import { getAuthToken } from '../lib/auth-token';
import { keepOfflineCache, OFFLINE_CACHE_WRITE_DELAY_MS, restoreOfflineCache } from '../lib/offline-cache';
import { mockApi } from '../testing/api-mocks';
import { createTestQueryClient, jsonResponse, mockFetch, renderApp, testUser } from '../testing/test-utils';

const card = {
  type: 'timeline',
  id: 't1',
  timeline: {
    id: 't1', title: 'Harbour lights', description: null, videoCount: 1, duration: 30, creatorId: 'u2', creatorName: 'Grace Hopper',
    creator: { id: 'u2', displayName: 'Grace Hopper', username: 'grace', avatar: null }, views: 0, likesCount: 0, commentsCount: 0,
    activityScore: 0, lastActivityAt: new Date().toISOString(), createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(),
    coverMediaId: null, isLiked: false, liked: false, isBookmarked: false, bookmarked: false,
  },
};

describe('offline', () => {
  afterEach(() => {
    act(() => onlineManager.setOnline(true));
    jest.useRealTimers();
  });

  it('shows what was seen before, marked offline, instead of "Can\'t reach Timeliner"; back online it says so no more', async () => {
    // A first visit online shows the feed, and its copy is kept.
    mockApi({ 'GET /api/feed': jsonResponse(200, [card]), 'GET /api/timelines': jsonResponse(200, []) });
    const env = { storage: localStorage, version: 'test', getToken: getAuthToken };
    const first = createTestQueryClient();
    const stop = keepOfflineCache(first, env);
    const online = renderApp('/', first);
    await screen.findByRole('article', { name: 'Harbour lights' });
    await act(() => new Promise((resolve) => setTimeout(resolve, OFFLINE_CACHE_WRITE_DELAY_MS + 50)));
    stop();
    online.unmount();

    // The page opened again without a connection: nothing answers.
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    act(() => onlineManager.setOnline(false));
    mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const again = createTestQueryClient();
    restoreOfflineCache(again, env);
    renderApp('/', again);
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(await within(await screen.findByRole('feed')).findByRole('article', { name: 'Harbour lights' })).toBeInTheDocument();
    expect(screen.getByText(OFFLINE_TEXT)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: "Can't reach Timeliner" })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: new RegExp(`account menu for ${testUser.displayName}`) })).toBeInTheDocument();

    mockApi({ 'GET /api/feed': jsonResponse(200, [card]), 'GET /api/timelines': jsonResponse(200, []) });
    act(() => onlineManager.setOnline(true));
    expect(screen.queryByText(OFFLINE_TEXT)).not.toBeInTheDocument();
  });

  it('keeps nothing of a session the server ended for whoever signs in next', async () => {
    mockApi({ 'GET /api/feed': jsonResponse(200, [card]), 'GET /api/timelines': jsonResponse(200, []) });
    const client = createAppQueryClient();
    renderApp('/', client);
    await screen.findByRole('article', { name: 'Harbour lights' });
    expect(client.getQueryData(['feed', 'list', 'for-you'])).toBeDefined();

    // The token is refused from now on: a refetch of the session signs the person out.
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch(() => jsonResponse(401, { statusCode: 401, error: 'Unauthorized', message: 'Unauthorized' }));
    await act(() => client.refetchQueries({ queryKey: ['auth', 'me'] }));
    expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
    await waitFor(() => expect(client.getQueryData(['feed', 'list', 'for-you'])).toBeUndefined());
    expect(client.getQueryData(['auth', 'me'])).toBeNull();
  });
});
