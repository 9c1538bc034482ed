import { describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { errorResponse, mockApi, myTimelineFixture, noContent } from '../../../testing/api-mocks';
import { jsonResponse, renderApp } from '../../../testing/test-utils';

const timelines = [
  myTimelineFixture({ id: 'a', title: 'Summer Trip', description: 'Coastal road trip', status: 'published', views: 1200, duration: 125, createdAt: '2025-03-01T12:00:00Z' }),
  myTimelineFixture({ id: 'b', title: 'Wedding', description: 'The big day', status: 'draft', views: 34, duration: 3600, createdAt: '2025-03-05T12:00:00Z' }),
  myTimelineFixture({ id: 'c', title: 'Concert', description: null, status: 'processing', views: 0, duration: 59, createdAt: '2025-02-01T12:00:00Z', role: 'editor' }),
];

function summaryValue(label: string): string | null | undefined {
  const region = screen.getByRole('region', { name: 'Summary' });
  return within(region).getByText(label).parentElement?.querySelector('dd')?.textContent;
}

const cardTitles = () =>
  within(screen.getByRole('list', { name: 'Timelines' }))
    .getAllByRole('heading')
    .map((heading) => heading.textContent);

describe('experiences dashboard', () => {
  it('shows 6 skeleton cards while loading', async () => {
    mockApi({ 'GET /api/my-timelines': () => new Promise<Response>(() => undefined) });
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Experiences Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Manage your video timelines and projects')).toBeInTheDocument();
    expect(screen.getByTestId('dashboard-skeletons').children).toHaveLength(6);
    expect(screen.getByRole('status')).toHaveTextContent('Loading timelines...');
  });

  it('totals timelines, published ones, views and whole minutes, and shows a card per timeline', async () => {
    mockApi({ 'GET /api/my-timelines': jsonResponse(200, timelines) });
    renderApp('/dashboard');
    await screen.findByRole('list', { name: 'Timelines' });
    expect(summaryValue('Total Timelines')).toBe('3');
    expect(summaryValue('Published')).toBe('1');
    expect(summaryValue('Total Views')).toBe('1,234');
    expect(summaryValue('Total Duration')).toBe('63 min');

    expect(cardTitles()).toEqual(['Wedding', 'Summer Trip', 'Concert']);
    const card = screen.getByRole('article', { name: 'Summer Trip' });
    expect(within(card).getByText('Published')).toBeInTheDocument();
    expect(within(card).getByText('Coastal road trip')).toBeInTheDocument();
    expect(within(card).getByText('1,200')).toBeInTheDocument();
    expect(within(card).getByText('2:05')).toBeInTheDocument();
    expect(within(card).getByText('Mar 1, 2025')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Open Timeline Summer Trip' })).toHaveAttribute('href', '/timeline/a');
  });

  it('filters by search and status, with the filtered empty state', async () => {
    mockApi({ 'GET /api/my-timelines': jsonResponse(200, timelines) });
    const user = userEvent.setup();
    renderApp('/dashboard');
    await screen.findByRole('list', { name: 'Timelines' });

    const status = screen.getByLabelText('Status');
    expect(within(status).getAllByRole('option').map((option) => option.textContent)).toEqual(['All Timelines', 'Draft', 'Processing', 'Published']);
    await user.selectOptions(status, 'draft');
    expect(cardTitles()).toEqual(['Wedding']);
    await user.selectOptions(status, 'all');

    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'ROAD');
    expect(cardTitles()).toEqual(['Summer Trip']);
    await user.selectOptions(status, 'draft');
    expect(screen.getByRole('heading', { name: 'No timelines found' })).toBeInTheDocument();
    expect(screen.getByText('Try adjusting your search or filters')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Your First Timeline' })).not.toBeInTheDocument();
    // The totals describe every timeline, not just the filtered ones.
    expect(summaryValue('Total Timelines')).toBe('3');
  });

  it('invites a first timeline when there are none', async () => {
    mockApi({ 'GET /api/my-timelines': jsonResponse(200, []) });
    const user = userEvent.setup();
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: 'No timelines found' })).toBeInTheDocument();
    expect(screen.getByText('Get started by creating your first timeline')).toBeInTheDocument();
    expect(summaryValue('Total Duration')).toBe('0 min');
    await user.click(screen.getByRole('button', { name: 'Create Your First Timeline' }));
    expect(await screen.findByRole('dialog', { name: 'Create New Timeline' })).toBeInTheDocument();
  });

  it("offers Open Timeline, Settings, Share and Delete; Delete asks first and says 'Timeline Deleted'", async () => {
    let list = timelines;
    const { requests } = mockApi({
      'GET /api/my-timelines': () => jsonResponse(200, list),
      'DELETE /api/timelines/a': () => {
        list = timelines.filter((timeline) => timeline.id !== 'a');
        return noContent();
      },
    });
    const user = userEvent.setup();
    renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Actions for Summer Trip' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Open Timeline', 'Settings', 'Share', 'Delete']);
    await user.click(within(menu).getByRole('menuitem', { name: 'Delete' }));

    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this timeline?' });
    expect(confirm).toHaveTextContent('"Summer Trip" and all its videos will be permanently deleted. This action cannot be undone.');
    expect(requests.some((request) => request.method === 'DELETE')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Timeline Deleted')).toBeInTheDocument();
    await waitFor(() => expect(cardTitles()).toEqual(['Wedding', 'Concert']));
  });

  it("says when deleting fails instead of staying silent", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi({ 'GET /api/my-timelines': jsonResponse(200, timelines), 'DELETE /api/timelines/a': errorResponse(500, 'boom') });
    const user = userEvent.setup();
    renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Actions for Summer Trip' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete timeline. Please try again.')).toBeInTheDocument();
  });

  it('offers only Open Timeline and Share on a timeline you edit but do not own', async () => {
    mockApi({ 'GET /api/my-timelines': jsonResponse(200, timelines) });
    const user = userEvent.setup();
    renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Actions for Concert' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Open Timeline', 'Share']);
  });

  it('shares: copies the timeline link, says so and counts the share', async () => {
    const { requests } = mockApi({ 'GET /api/my-timelines': jsonResponse(200, timelines), 'POST /api/timelines/a/shares': noContent() });
    const user = userEvent.setup();
    renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Actions for Summer Trip' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Share' }));
    expect(await screen.findByText('Link copied!')).toBeInTheDocument();
    expect(screen.getByText('Timeline link has been copied to your clipboard.')).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe('http://localhost/timeline/a');
    await waitFor(() => expect(requests.find((request) => request.url.endsWith('/api/timelines/a/shares'))).toMatchObject({ method: 'POST', body: { channel: 'link' } }));
  });

  it('opens Timeline Settings from the menu for an owned timeline', async () => {
    mockApi({ 'GET /api/my-timelines': jsonResponse(200, timelines) });
    const user = userEvent.setup();
    renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Actions for Wedding' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Timeline Settings' });
    expect(within(dialog).getByRole('tab', { name: 'General' })).toHaveAttribute('aria-selected', 'true');
    expect(within(dialog).getByLabelText('Title')).toHaveValue('Wedding');
  });
});
