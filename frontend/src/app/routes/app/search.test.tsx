import { describe, expect, it } from '@jest/globals';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Hashtag, SearchResult, SearchTimeline, SearchUser } from '../../../features/search/api/search';
import { mockApi, noContent } from '../../../testing/api-mocks';
import { jsonResponse, renderApp, type RecordedRequest } from '../../../testing/test-utils';

const at = '2026-03-01T10:00:00.000Z';
const creator = { id: '8d1f3c2a-1b2c-4d5e-8f90-1234567890ab', displayName: 'Grace Hopper', username: 'grace', avatar: null };

function timeline(id: string, title: string, overrides: Partial<SearchTimeline> = {}): SearchTimeline {
  return {
    id, title, description: '', hashtags: [], visibility: 'public', status: 'published', videoCount: 2, duration: 60, creatorId: creator.id, creatorName: creator.displayName,
    creator, views: 12, likesCount: 1, commentsCount: 0, activityScore: 1, lastActivityAt: at, createdAt: at, updatedAt: at, coverMediaId: null, coverAltText: null, sensitive: false, ...overrides,
  };
}
const user = (id: string, username: string, displayName: string): SearchUser => ({ id, username, displayName, bio: '', avatar: null, isPrivate: false, followersCount: 3 });

const superman = timeline('0b6f0c3e-6a3f-4d5e-9a52-0d2f8e8d6c11', 'Superman returns', { description: 'A flying hero over Metropolis', hashtags: ['heroes'] });
const popular = timeline('1b6f0c3e-6a3f-4d5e-9a52-0d2f8e8d6c11', 'Popular walk');
const trending: Hashtag[] = [{ name: 'sunsets', usageCount: 40 }];

/** The search API: answers by query and type from `results`; records the calls. */
function searchApi(results: Record<string, Partial<SearchResult>>, options: { history?: Array<{ id: string; query: string }>; pages?: number } = {}) {
  const history = [...(options.history ?? [])].map((entry) => ({ resultType: null, resultId: null, createdAt: at, ...entry }));
  return mockApi({
    'GET /api/search/enhanced': (request: RecordedRequest) => {
      const url = new URL(request.url);
      const q = url.searchParams.get('q') ?? '';
      const found = { timelines: [], users: [], hashtags: [], ...(results[q] ?? {}) };
      const type = url.searchParams.get('type');
      if (type === 'timelines' && options.pages && !url.searchParams.get('cursor')) return jsonResponse(200, found, { headers: { 'X-Next-Cursor': 'page2' } });
      if (type === 'timelines' && url.searchParams.get('cursor') === 'page2') return jsonResponse(200, { ...found, timelines: [timeline('2b6f0c3e-6a3f-4d5e-9a52-0d2f8e8d6c11', 'Superman again')] });
      return jsonResponse(200, found);
    },
    'GET /api/discover/popular/timeline': jsonResponse(200, [popular]),
    'GET /api/hashtags/trending': jsonResponse(200, trending),
    'GET /api/search/history': () => jsonResponse(200, history),
    'DELETE /api/search/history': () => {
      history.length = 0;
      return noContent();
    },
    'POST /api/search/history': noContent(),
  });
}

const box = () => screen.getByRole('searchbox', { name: 'Search timelines, people and hashtags' });
const searchCalls = (requests: RecordedRequest[]) => requests.filter((r) => r.url.includes('/api/search/enhanced')).map((r) => new URL(r.url).searchParams.get('q'));

describe('the search screen (spec 001, section 2)', () => {
  it('an empty box shows recent searches, popular timelines and trending hashtags', async () => {
    searchApi({}, { history: [{ id: 'c1', query: 'superman' }] });
    renderApp('/search');
    expect(await screen.findByRole('list', { name: 'Popular timelines' })).toHaveTextContent('Popular walk');
    expect(await screen.findByRole('list', { name: 'Trending hashtags' })).toHaveTextContent('#sunsets');
    expect(await screen.findByRole('list', { name: 'Recent searches' })).toHaveTextContent('superman');
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['All', 'Timelines', 'Users', 'Trending']);
  });

  it('an empty box shows its sections together once all have answered, so none moves another', async () => {
    let answerPopular = () => {};
    const popularAnswered = new Promise<void>((resolve) => (answerPopular = resolve));
    mockApi({
      'GET /api/discover/popular/timeline': async () => {
        await popularAnswered;
        return jsonResponse(200, [popular]);
      },
      'GET /api/hashtags/trending': jsonResponse(200, trending),
      'GET /api/search/history': jsonResponse(200, [{ id: 'c1', query: 'superman', resultType: null, resultId: null, createdAt: at }]),
    });
    renderApp('/search');
    expect(await screen.findByText('Loading suggestions...')).toBeInTheDocument();
    // Trending and the history have answered; they wait for the popular timelines above them.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByRole('list', { name: 'Trending hashtags' })).not.toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Recent searches' })).not.toBeInTheDocument();
    answerPopular();
    expect(await screen.findByRole('list', { name: 'Popular timelines' })).toHaveTextContent('Popular walk');
    expect(screen.getByRole('list', { name: 'Trending hashtags' })).toHaveTextContent('#sunsets');
    expect(screen.getByRole('list', { name: 'Recent searches' })).toHaveTextContent('superman');
    expect(screen.queryByText('Loading suggestions...')).not.toBeInTheDocument();
  });

  it('searches 300 ms after typing stops, once, and marks the matches', async () => {
    const { requests } = searchApi({ 'super metro': { timelines: [superman], users: [user('u1', 'superfan', 'Super Fan')] } });
    const userEvents = userEvent.setup();
    const { router } = renderApp('/search');
    await userEvents.type(await screen.findByRole('searchbox', { name: 'Search timelines, people and hashtags' }), 'super metro');
    expect(searchCalls(requests)).toEqual([]);
    await waitFor(() => expect(router.state.location.search).toBe('?q=super+metro'));
    const results = await screen.findByRole('list', { name: 'Timelines' });
    expect(searchCalls(requests)).toEqual(['super metro']);
    const marks = [...results.querySelectorAll('mark')].map((m) => m.textContent);
    expect(marks).toEqual(expect.arrayContaining(['Super', 'Metro']));
    expect(screen.getByRole('list', { name: 'People' })).toHaveTextContent('Super Fan');
  });

  it.each([
    ['all', 'No results found'],
    ['timelines', 'No timelines found'],
    ['users', 'No users found'],
  ])('says when the %s tab finds nothing', async (tab, text) => {
    searchApi({});
    renderApp(`/search?q=zzzz${tab === 'all' ? '' : `&tab=${tab}`}`);
    expect(await screen.findByText(text)).toBeInTheDocument();
  });

  it('switches tabs, keeping the query, and scrolls a tab on to its next page', async () => {
    searchApi({ superman: { timelines: [superman], users: [] } }, { pages: 2 });
    const userEvents = userEvent.setup();
    const { router } = renderApp('/search?q=superman');
    await screen.findByRole('list', { name: 'Timelines' });
    await userEvents.click(screen.getByRole('tab', { name: 'Timelines' }));
    await waitFor(() => expect(router.state.location.search).toBe('?q=superman&tab=timelines'));
    // jsdom has no IntersectionObserver: the list offers a button instead.
    await userEvents.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('link', { name: /Superman again/ })).toBeInTheDocument();
    await userEvents.click(screen.getByRole('tab', { name: 'Users' }));
    expect(await screen.findByText('No users found')).toBeInTheDocument();
    await userEvents.click(screen.getByRole('tab', { name: 'Trending' }));
    expect(await screen.findByRole('list', { name: 'Trending hashtags' })).toHaveTextContent('#sunsets');
  });

  it('a hashtag opens its results', async () => {
    searchApi({ '#sunsets': { timelines: [timeline('3b6f0c3e-6a3f-4d5e-9a52-0d2f8e8d6c11', 'Evening #sunsets')], hashtags: trending } });
    const userEvents = userEvent.setup();
    const { router } = renderApp('/search?tab=trending');
    await userEvents.click(await screen.findByRole('button', { name: /#sunsets/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?q=%23sunsets'));
    expect(box()).toHaveValue('#sunsets');
    expect(await screen.findByRole('list', { name: 'Timelines' })).toHaveTextContent('Evening #sunsets');
  });

  it('moves through the results with the arrow keys and back to the box with Escape', async () => {
    searchApi({ superman: { timelines: [superman] } });
    const userEvents = userEvent.setup();
    renderApp('/search?q=superman');
    const list = await screen.findByRole('list', { name: 'Timelines' });
    box().focus();
    await userEvents.keyboard('{ArrowDown}');
    expect(within(list).getByRole('link', { name: /Superman returns/ })).toHaveFocus();
    await userEvents.keyboard('{ArrowDown}');
    expect(within(list).getByRole('button', { name: '#heroes' })).toHaveFocus();
    await userEvents.keyboard('{ArrowUp}{ArrowUp}');
    expect(box()).toHaveFocus();
    await userEvents.keyboard('{ArrowDown}{Escape}');
    expect(box()).toHaveFocus();
  });

  it('a recent search runs again, and Clear all empties the list', async () => {
    searchApi({ superman: { timelines: [superman] } }, { history: [{ id: 'c1', query: 'superman' }] });
    const userEvents = userEvent.setup();
    const { router } = renderApp('/search');
    await userEvents.click(await screen.findByRole('button', { name: 'superman' }));
    await waitFor(() => expect(router.state.location.search).toBe('?q=superman'));
    await act(() => router.navigate('/search'));
    await userEvents.click(await screen.findByRole('button', { name: 'Clear all' }));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Recent searches' })).not.toBeInTheDocument());
  });
});
