import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, myTimelineFixture, timelineFixture } from '../../testing/api-mocks';
import { jsonResponse, renderApp } from '../../testing/test-utils';

const timelines = [
  myTimelineFixture({ id: 'a', title: 'Summer Trip', description: 'Coastal road trip', videoCount: 1, duration: 65, updatedAt: '2025-03-01T12:00:00Z' }),
  myTimelineFixture({ id: 'b', title: 'Wedding', description: 'The big day', videoCount: 12, imageCount: 3, duration: 3600, updatedAt: '2025-03-05T12:00:00Z', role: 'editor' }),
  myTimelineFixture({ id: 'c', title: 'Watched only', role: 'viewer', updatedAt: '2025-03-06T12:00:00Z' }),
];

async function openPicker(answer = jsonResponse(200, timelines)) {
  const api = mockApi({ 'GET /api/my-timelines': answer, 'GET /api/timelines/a': jsonResponse(200, timelineFixture({ id: 'a' })) });
  const user = userEvent.setup();
  const view = renderApp('/');
  const nav = await screen.findByRole('navigation', { name: 'Main' });
  expect(api.requests.some((request) => new URL(request.url).pathname === '/api/my-timelines')).toBe(false);
  await user.click(within(nav).getByRole('button', { name: 'Create' }));
  const dialog = await screen.findByRole('dialog', { name: 'Select Timeline' });
  return { ...view, ...api, user, dialog };
}

const titles = (dialog: HTMLElement) =>
  within(within(dialog).getByRole('list', { name: 'Your timelines' }))
    .getAllByRole('button')
    .map((button) => button.querySelector('.picker__item-title')?.textContent);

describe('timeline picker', () => {
  it('opens from Create, fetching your timelines only then, newest update first', async () => {
    const { dialog, requests } = await openPicker();
    expect(dialog).toHaveAccessibleDescription('Choose an existing timeline to add your videos to, or create a new one');
    await waitFor(() => expect(titles(dialog)).toEqual(['Wedding', 'Summer Trip']));
    expect(requests.filter((request) => new URL(request.url).pathname === '/api/my-timelines')).toHaveLength(1);
    const wedding = within(dialog).getByRole('button', { name: /Wedding/ });
    // Videos and images apart: a timeline holds both.
    expect(within(wedding).getByText('12 videos')).toBeInTheDocument();
    expect(within(wedding).getByText('3 images')).toBeInTheDocument();
    expect(wedding).toHaveTextContent('60:00');
    expect(wedding).toHaveTextContent('Updated Mar 5, 2025');
    expect(within(dialog).getByRole('button', { name: /Summer Trip/ })).toHaveTextContent('1 video');
    expect(within(dialog).getByRole('button', { name: /Summer Trip/ })).not.toHaveTextContent('image');
  });

  it('gathers every page of your timelines, following the next-page cursor', async () => {
    const { requests } = mockApi({
      'GET /api/my-timelines': (request) => {
        const cursor = new URL(request.url).searchParams.get('cursor');
        if (!cursor) return jsonResponse(200, [timelines[0]], { headers: { 'Content-Type': 'application/json', 'X-Next-Cursor': 'page-2' } });
        return jsonResponse(200, [timelines[1]]);
      },
    });
    const user = userEvent.setup();
    renderApp('/');
    await user.click(within(await screen.findByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Create' }));
    const dialog = await screen.findByRole('dialog', { name: 'Select Timeline' });
    await waitFor(() => expect(titles(dialog)).toEqual(['Wedding', 'Summer Trip']));
    const pages = requests.filter((request) => new URL(request.url).pathname === '/api/my-timelines').map((request) => new URL(request.url).search);
    expect(pages).toEqual(['?limit=100', '?limit=100&cursor=page-2']);
  });

  it('opens from the floating add button too', async () => {
    mockApi({ 'GET /api/my-timelines': jsonResponse(200, timelines) });
    const user = userEvent.setup();
    renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Add videos to a timeline' }));
    expect(await screen.findByRole('dialog', { name: 'Select Timeline' })).toBeInTheDocument();
  });

  it('searches title and description without regard to case, with its own empty state', async () => {
    const { dialog, user } = await openPicker();
    const search = within(dialog).getByRole('searchbox', { name: 'Search your timelines' });
    expect(search).toHaveAttribute('placeholder', 'Search your timelines...');
    await user.type(search, 'COASTAL');
    await waitFor(() => expect(titles(dialog)).toEqual(['Summer Trip']));
    await user.clear(search);
    await user.type(search, 'nothing like this');
    expect(within(dialog).getByText('No timelines match your search')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Clear search' }));
    expect(search).toHaveValue('');
    expect(titles(dialog)).toEqual(['Wedding', 'Summer Trip']);
  });

  it("says 'No timelines found' and offers a first one when there are none", async () => {
    const { dialog, user, router } = await openPicker(jsonResponse(200, [timelines[2]]));
    expect(await within(dialog).findByText('No timelines found')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Create Your First Timeline' }));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/studio?create=true'));
    expect(await screen.findByRole('dialog', { name: 'Create New Timeline' })).toBeInTheDocument();
  });

  it('Create New Timeline goes to /studio?create=true', async () => {
    const { dialog, user, router } = await openPicker();
    await user.click(within(dialog).getByRole('button', { name: /Create New Timeline/ }));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/studio?create=true'));
  });

  it("choosing a timeline opens its studio's upload section", async () => {
    const { dialog, user, router } = await openPicker();
    await user.click(await within(dialog).findByRole('button', { name: /Summer Trip/ }));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/timeline/a?tab=upload'));
    expect(screen.queryByRole('dialog', { name: 'Select Timeline' })).not.toBeInTheDocument();
  });
});
