import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { errorResponse, mockApi, myTimelineFixture, timelineFixture } from '../../../testing/api-mocks';
import { jsonResponse, renderApp } from '../../../testing/test-utils';

const location = (router: ReturnType<typeof renderApp>['router']) => router.state.location.pathname + router.state.location.search;

describe('Creator Studio', () => {
  it('lists the timelines you work on with their real figures, linking to each studio', async () => {
    mockApi({
      'GET /api/my-timelines': jsonResponse(200, [
        myTimelineFixture({ id: 'a', title: 'Older', createdAt: '2025-01-01T12:00:00Z', visibility: 'public', videoCount: 1, imageCount: 1, views: 1 }),
        myTimelineFixture({ id: 'b', title: 'Newer', createdAt: '2025-02-01T12:00:00Z', role: 'editor' }),
        myTimelineFixture({ id: 'c', title: 'Only watching', role: 'viewer' }),
      ]),
    });
    renderApp('/studio');
    expect(await screen.findByRole('heading', { name: 'Creator Studio', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Feed' })).toHaveAttribute('href', '/');
    const list = await screen.findByRole('list', { name: 'Your timelines' });
    const cards = within(list).getAllByRole('listitem');
    expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual(['Newer', 'Older']);
    expect(within(list).getByRole('link', { name: 'Older' })).toHaveAttribute('href', '/timeline/a');
    expect(within(cards[1]!).getByText('Public')).toBeInTheDocument();
    expect(within(cards[1]!).getByText('1 video')).toBeInTheDocument();
    expect(within(cards[1]!).getByText('1 image')).toBeInTheDocument();
    expect(within(cards[0]!).queryByText(/image/)).not.toBeInTheDocument();
    expect(within(cards[1]!).getByText('1 view')).toBeInTheDocument();
    expect(within(cards[1]!).getByText('Created Jan 1, 2025')).toBeInTheDocument();
    expect(within(cards[0]!).getByText('Shared with you · Editor')).toBeInTheDocument();
    expect(within(list).queryByText('Only watching')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New Timeline' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it('lists the timelines an invitation lets you watch, opening the player, with what a viewer may do', async () => {
    mockApi({
      'GET /api/my-timelines': jsonResponse(200, [
        myTimelineFixture({ id: 'w1', title: 'Grandma turns 90', role: 'viewer', createdAt: '2025-01-01T12:00:00Z' }),
        myTimelineFixture({ id: 'w2', title: 'Team offsite', role: 'viewer', createdAt: '2025-03-01T12:00:00Z' }),
      ]),
    });
    renderApp('/studio');
    const section = await screen.findByRole('region', { name: 'Shared with you to watch' });
    expect(within(section).getByText('You were invited as a viewer: you can watch these timelines and comment on them.')).toBeInTheDocument();
    const list = within(section).getByRole('list', { name: 'Timelines shared with you to watch' });
    const cards = within(list).getAllByRole('listitem');
    expect(cards.map((card) => within(card).getByRole('heading', { level: 3 }).textContent)).toEqual(['Team offsite', 'Grandma turns 90']);
    expect(within(list).getByRole('link', { name: 'Grandma turns 90' })).toHaveAttribute('href', '/watch/w1');
    expect(within(cards[0]!).getByText('Shared with you · Viewer')).toBeInTheDocument();
    // A viewer does not upload.
    expect(within(section).queryByRole('button', { name: /Upload videos/ })).not.toBeInTheDocument();
    // Nothing of their own yet: they may still create one.
    expect(screen.getByRole('heading', { name: 'No timelines of your own yet' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'No timelines yet' })).not.toBeInTheDocument();
  });

  it("shows the first video's thumbnail on the card (fetched with the session), else the placeholder", async () => {
    const { requests } = mockApi({
      'GET /api/my-timelines': jsonResponse(200, [
        myTimelineFixture({ id: 'a', title: 'With videos', thumbnailUrl: '/api/videos/v1/thumbnail', createdAt: '2025-02-01T12:00:00Z' }),
        myTimelineFixture({ id: 'b', title: 'Empty', thumbnailUrl: null, createdAt: '2025-01-01T12:00:00Z' }),
      ]),
      'GET /api/videos/v1/thumbnail': new Response(new Blob(['jpeg'], { type: 'image/jpeg' }), { status: 200, headers: { 'Content-Type': 'image/jpeg' } }),
    });
    renderApp('/studio');
    const list = await screen.findByRole('list', { name: 'Your timelines' });
    const [withVideos, empty] = within(list).getAllByRole('listitem');
    await waitFor(() => expect(withVideos!.querySelector('img.studio-card__image')).not.toBeNull());
    expect(within(withVideos!).queryByTestId('thumbnail-placeholder')).not.toBeInTheDocument();
    expect(within(empty!).getByTestId('thumbnail-placeholder')).toBeInTheDocument();
    const thumbnail = requests.find((request) => request.url.endsWith('/api/videos/v1/thumbnail'));
    expect(thumbnail?.headers.get('Authorization')).toBe('Bearer test-token');
  });

  it('loads a signed thumbnail straight from its URL, the first cards first, and falls back to the placeholder when it fails', async () => {
    const signed = (id: string) => `/api/videos/${id}/thumbnail?access=token-${id}`;
    const { requests } = mockApi({
      'GET /api/my-timelines': jsonResponse(200, [
        myTimelineFixture({ id: 'a', title: 'First', thumbnailUrl: signed('v1'), createdAt: '2025-03-01T12:00:00Z' }),
        myTimelineFixture({ id: 'b', title: 'Second', thumbnailUrl: signed('v2'), createdAt: '2025-02-01T12:00:00Z' }),
        myTimelineFixture({ id: 'c', title: 'Third', thumbnailUrl: signed('v3'), createdAt: '2025-01-01T12:00:00Z' }),
      ]),
    });
    renderApp('/studio');
    const list = await screen.findByRole('list', { name: 'Your timelines' });
    const images = within(list).getAllByRole('listitem').map((item) => item.querySelector('img.studio-card__image')!);
    expect(images.map((image) => image.getAttribute('src'))).toEqual([signed('v1'), signed('v2'), signed('v3')]);
    expect(images.map((image) => image.getAttribute('fetchpriority'))).toEqual(['high', 'high', 'auto']);
    expect(images.map((image) => image.getAttribute('loading'))).toEqual(['eager', 'eager', 'lazy']);
    // No script fetch: the browser loads them.
    expect(requests.some((request) => request.url.includes('/thumbnail'))).toBe(false);
    fireEvent.error(images[2]!);
    const third = within(list).getAllByRole('listitem')[2]!;
    expect(within(third).getByTestId('thumbnail-placeholder')).toBeInTheDocument();
  });

  it("puts each card's Upload videos button inside the card", async () => {
    mockApi({ 'GET /api/my-timelines': jsonResponse(200, [myTimelineFixture({ id: 'a', title: 'Mine' })]) });
    renderApp('/studio');
    const upload = await screen.findByRole('button', { name: 'Upload videos to Mine' });
    expect(upload.closest('article')).toContainElement(screen.getByRole('link', { name: 'Mine' }));
  });

  it("offers 'Create Your First Timeline' when there are none, opening the dialog", async () => {
    mockApi({ 'GET /api/my-timelines': jsonResponse(200, []) });
    const user = userEvent.setup();
    const { router } = renderApp('/studio');
    await user.click(await screen.findByRole('button', { name: 'Create Your First Timeline' }));
    expect(await screen.findByRole('dialog', { name: 'Create New Timeline' })).toBeInTheDocument();
    expect(location(router)).toBe('/studio?create=true');
    expect(screen.queryByRole('button', { name: 'New Timeline' })).not.toBeInTheDocument();
  });

  it('opens the create dialog from ?create=true with its fields and defaults', async () => {
    mockApi({ 'GET /api/my-timelines': jsonResponse(200, []) });
    renderApp('/studio?create=true');
    const dialog = await screen.findByRole('dialog', { name: 'Create New Timeline' });
    expect(within(dialog).getByLabelText('Timeline Title')).toHaveValue('');
    expect(within(dialog).getByLabelText('Description')).toHaveValue('');
    const visibility = within(dialog).getByLabelText('Visibility');
    expect(visibility).toHaveValue('private');
    expect(within(visibility).getAllByRole('option').map((option) => option.textContent)).toEqual(['Private', 'Public', 'Unlisted']);
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Create Timeline' })).toBeInTheDocument();
  });

  it("requires a title ('Timeline title is required') and sends nothing without one", async () => {
    const { requests } = mockApi({ 'GET /api/my-timelines': jsonResponse(200, []) });
    const user = userEvent.setup();
    renderApp('/studio?create=true');
    const dialog = await screen.findByRole('dialog', { name: 'Create New Timeline' });
    await user.type(within(dialog).getByLabelText('Timeline Title'), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Create Timeline' }));
    expect(within(dialog).getByText('Timeline title is required')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Timeline Title')).toHaveAccessibleDescription('Timeline title is required');
    expect(requests.some((request) => request.method === 'POST')).toBe(false);
  });

  it('creates the timeline, says so, and opens its studio', async () => {
    const created = timelineFixture({ id: 'new-1', title: 'Road Trip', description: 'Summer', visibility: 'unlisted', videoCount: 0 });
    const { requests } = mockApi({
      'GET /api/my-timelines': jsonResponse(200, []),
      'POST /api/timelines': jsonResponse(201, created),
      'GET /api/timelines/new-1': jsonResponse(200, created),
    });
    const user = userEvent.setup();
    const { router } = renderApp('/studio?create=true');
    const dialog = await screen.findByRole('dialog', { name: 'Create New Timeline' });
    await user.type(within(dialog).getByLabelText('Timeline Title'), '  Road Trip ');
    await user.type(within(dialog).getByLabelText('Description'), 'Summer');
    await user.selectOptions(within(dialog).getByLabelText('Visibility'), 'unlisted');
    await user.click(within(dialog).getByRole('button', { name: 'Create Timeline' }));

    expect(await screen.findByText('Timeline created successfully')).toBeInTheDocument();
    expect(screen.getByText('"Road Trip" has been created.')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({ title: 'Road Trip', description: 'Summer', visibility: 'unlisted' });
    await waitFor(() => expect(location(router)).toBe('/timeline/new-1'));
    expect(await screen.findByRole('heading', { name: 'Road Trip', level: 1 })).toBeInTheDocument();
  });

  it("shows 'Creating...' while the request runs", async () => {
    let finish: (response: Response) => void = () => undefined;
    mockApi({
      'GET /api/my-timelines': jsonResponse(200, []),
      'POST /api/timelines': () => new Promise<Response>((resolve) => (finish = resolve)),
    });
    const user = userEvent.setup();
    renderApp('/studio?create=true');
    const dialog = await screen.findByRole('dialog', { name: 'Create New Timeline' });
    await user.type(within(dialog).getByLabelText('Timeline Title'), 'Slow');
    await user.click(within(dialog).getByRole('button', { name: 'Create Timeline' }));
    expect(await within(dialog).findByRole('button', { name: 'Creating...' })).toBeDisabled();
    finish(errorResponse(500, 'Database unavailable'));
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await screen.findByText('Error creating timeline')).toBeInTheDocument();
  });

  it("shows the server's message on failure, else 'Failed to create timeline. Please try again.'", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let answer = errorResponse(400, 'Title must be at most 200 characters');
    mockApi({ 'GET /api/my-timelines': jsonResponse(200, []), 'POST /api/timelines': () => answer });
    const user = userEvent.setup();
    renderApp('/studio?create=true');
    const dialog = await screen.findByRole('dialog', { name: 'Create New Timeline' });
    await user.type(within(dialog).getByLabelText('Timeline Title'), 'Too long');
    await user.click(within(dialog).getByRole('button', { name: 'Create Timeline' }));
    expect(await screen.findByText('Error creating timeline')).toBeInTheDocument();
    expect(screen.getByText('Title must be at most 200 characters')).toBeInTheDocument();
    // The form keeps what was typed so the person can fix it.
    expect(within(dialog).getByLabelText('Timeline Title')).toHaveValue('Too long');

    answer = new Response('<html>Bad Gateway</html>', { status: 502 });
    await user.click(within(dialog).getByRole('button', { name: 'Create Timeline' }));
    expect(await screen.findByText('Failed to create timeline. Please try again.')).toBeInTheDocument();
  });

  it('resets the form when cancelled and closes the dialog', async () => {
    mockApi({ 'GET /api/my-timelines': jsonResponse(200, [myTimelineFixture()]) });
    const user = userEvent.setup();
    const { router } = renderApp('/studio');
    await user.click(await screen.findByRole('button', { name: 'New Timeline' }));
    let dialog = await screen.findByRole('dialog', { name: 'Create New Timeline' });
    await user.type(within(dialog).getByLabelText('Timeline Title'), 'Draft title');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(location(router)).toBe('/studio');

    await user.click(screen.getByRole('button', { name: 'New Timeline' }));
    dialog = await screen.findByRole('dialog', { name: 'Create New Timeline' });
    expect(within(dialog).getByLabelText('Timeline Title')).toHaveValue('');
  });
});
