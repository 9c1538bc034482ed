import { describe, expect, it } from '@jest/globals';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { errorResponse, mockApi, noContent } from '../../../testing/api-mocks';
import { jsonResponse, mockFetch, renderApp } from '../../../testing/test-utils';
import { C1, C2, collectionFixture } from '../test-fixtures';

describe('My Collections', () => {
  it('shows an empty state that creates the first collection, trimmed, public by default', async () => {
    const created = collectionFixture({ id: C2, name: 'Road trips', description: null, timelinesCount: 0 });
    let list: unknown[] = [];
    const { requests } = mockApi({
      'GET /api/collections': () => jsonResponse(200, list),
      'POST /api/collections': () => {
        list = [created];
        return jsonResponse(201, created);
      },
    });
    const user = userEvent.setup();
    renderApp('/collections');
    expect(await screen.findByRole('heading', { name: 'My Collections', level: 1 })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'No collections yet' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create Your First Collection' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Collection' });
    await user.type(within(dialog).getByLabelText('Name'), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Create Collection' }));
    expect(await within(dialog).findByText('Collection name is required')).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Name'), 'Road trips  ');
    expect(within(dialog).getByRole('switch', { name: 'Public' })).toHaveAttribute('aria-checked', 'true');
    await user.click(within(dialog).getByRole('button', { name: 'Create Collection' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New Collection' })).not.toBeInTheDocument());
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({ name: 'Road trips', description: null, isPublic: true });
    const grid = await screen.findByRole('list', { name: 'Your collections' });
    expect(within(grid).getByRole('link', { name: /Road trips/ })).toHaveAttribute('href', `/collections/${C2}`);
    expect(within(grid).getByText('0 timelines')).toBeInTheDocument();
  });

  it('edits a collection: name, description and privacy', async () => {
    const collection = collectionFixture();
    const { requests } = mockApi({
      'GET /api/collections': jsonResponse(200, [collection]),
      [`PUT /api/collections/${C1}`]: (request) => jsonResponse(200, { ...collection, ...(request.body as object) }),
    });
    const user = userEvent.setup();
    renderApp('/collections');
    await user.click(await screen.findByRole('button', { name: 'Edit Road trips' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Collection' });
    const name = within(dialog).getByLabelText('Name');
    expect(name).toHaveValue('Road trips');
    await user.clear(name);
    await user.type(name, ' Best drives ');
    await user.clear(within(dialog).getByLabelText('Description'));
    await user.click(within(dialog).getByRole('switch', { name: 'Public' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Collection' })).not.toBeInTheDocument());
    expect(requests.find((request) => request.method === 'PUT')?.body).toEqual({ name: 'Best drives', description: null, isPublic: false });
    const grid = screen.getByRole('list', { name: 'Your collections' });
    expect(await within(grid).findByText('Best drives')).toBeInTheDocument();
    expect(within(grid).getByText('Private')).toBeInTheDocument();
  });

  it('deletes a collection only once confirmed', async () => {
    let list = [collectionFixture(), collectionFixture({ id: C2, name: 'Cooking' })];
    const { requests } = mockApi({
      'GET /api/collections': () => jsonResponse(200, list),
      [`DELETE /api/collections/${C1}`]: () => {
        list = list.filter((item) => item.id !== C1);
        return noContent();
      },
    });
    const user = userEvent.setup();
    renderApp('/collections');
    await user.click(await screen.findByRole('button', { name: 'Delete Road trips' }));
    let confirm = await screen.findByRole('alertdialog', { name: 'Delete this collection?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(requests.filter((request) => request.method === 'DELETE')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete Road trips' }));
    confirm = await screen.findByRole('alertdialog', { name: 'Delete this collection?' });
    expect(within(confirm).getByText(/"Road trips" will be deleted/)).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Road trips', { selector: '.collection-card__name' })).not.toBeInTheDocument());
    expect(requests.filter((request) => request.method === 'DELETE').map((request) => new URL(request.url).pathname)).toEqual([`/api/collections/${C1}`]);
    expect(screen.getByText('Cooking')).toBeInTheDocument();
  });

  it('shows the server message when deleting fails and keeps the collection', async () => {
    mockApi({
      'GET /api/collections': jsonResponse(200, [collectionFixture()]),
      [`DELETE /api/collections/${C1}`]: errorResponse(403, 'Only the owner can change this collection'),
    });
    const user = userEvent.setup();
    renderApp('/collections');
    await user.click(await screen.findByRole('button', { name: 'Delete Road trips' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Only the owner can change this collection')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Road trips/ })).toBeInTheDocument();
  });

  it('loads the next page with the X-Next-Cursor cursor', async () => {
    const { requests } = mockApi({
      'GET /api/collections': (request) =>
        new URL(request.url).searchParams.get('cursor') === 'page2'
          ? jsonResponse(200, [collectionFixture({ id: C2, name: 'Cooking' })])
          : jsonResponse(200, [collectionFixture()], { headers: { 'Content-Type': 'application/json', 'X-Next-Cursor': 'page2' } }),
    });
    const user = userEvent.setup();
    renderApp('/collections');
    await screen.findByText('Road trips');
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Cooking')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(requests.filter((request) => request.url.includes('/api/collections')).map((request) => new URL(request.url).searchParams.get('cursor'))).toEqual([null, 'page2']);
  });

  it('tells a signed-out visitor Access Denied, with a login link that comes back here', async () => {
    const { requests } = mockFetch(() => jsonResponse(500, {}));
    const user = userEvent.setup();
    const { router } = renderApp('/collections');
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    expect(requests).toHaveLength(0);
    await user.click(screen.getByRole('link', { name: 'Log in' }));
    expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(sessionStorage.getItem('auth-return-path')).toBe('/collections');
    await act(() => router.navigate(`/collections/${C1}`));
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
  });
});
