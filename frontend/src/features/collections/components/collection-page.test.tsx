import { describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { errorResponse, mockApi, noContent } from '../../../testing/api-mocks';
import { jsonResponse, renderApp } from '../../../testing/test-utils';
import { C1, collectionFixture, collectionTimelineFixture, STRANGER, T1, T2, T3 } from '../test-fixtures';

const timelines = [
  collectionTimelineFixture({ id: T1, title: 'Alpha', position: 0 }),
  collectionTimelineFixture({ id: T2, title: 'Bravo', position: 1 }),
  collectionTimelineFixture({ id: T3, title: 'Charlie', position: 2, creatorName: 'Grace Hopper' }),
];

const titles = () => within(screen.getByRole('list', { name: 'Timelines in this collection' })).getAllByRole('link').map((link) => link.textContent);

describe('a collection page', () => {
  it('shows its timelines in order, each opening the player', async () => {
    mockApi({
      [`GET /api/collections/${C1}`]: jsonResponse(200, collectionFixture({ timelinesCount: 3 })),
      [`GET /api/collections/${C1}/timelines`]: jsonResponse(200, timelines),
    });
    renderApp(`/collections/${C1}`);
    expect(await screen.findByRole('heading', { name: 'Road trips', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Long drives')).toBeInTheDocument();
    expect(screen.getByText('3 timelines')).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Timelines in this collection' });
    expect(titles()).toEqual([expect.stringContaining('Alpha'), expect.stringContaining('Bravo'), expect.stringContaining('Charlie')]);
    expect(within(list).getByRole('link', { name: /Charlie/ })).toHaveAttribute('href', `/watch/${T3}`);
    expect(within(list).getByText(/Grace Hopper · 3 videos · 3:05/)).toBeInTheDocument();
  });

  it('reorders by keyboard drag and saves the new order', async () => {
    // jsdom lays nothing out: each card gets a 100 px slot so the keyboard sensor can move between them.
    jest.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      const row = this.closest('li');
      const index = row?.parentElement ? Array.from(row.parentElement.children).indexOf(row) : 0;
      return { x: 0, y: index * 100, top: index * 100, left: 0, bottom: index * 100 + 100, right: 500, width: 500, height: 100, toJSON: () => ({}) } as DOMRect;
    });
    const { requests } = mockApi({
      [`GET /api/collections/${C1}`]: jsonResponse(200, collectionFixture({ timelinesCount: 3 })),
      [`GET /api/collections/${C1}/timelines`]: jsonResponse(200, timelines),
      [`PUT /api/collections/${C1}/timelines/order`]: (request) => {
        const ids = (request.body as { timelineIds: string[] }).timelineIds;
        return jsonResponse(200, ids.map((id, position) => ({ ...timelines.find((item) => item.id === id), position })));
      },
    });
    const user = userEvent.setup();
    renderApp(`/collections/${C1}`);
    const handle = await screen.findByRole('button', { name: 'Reorder Alpha' });
    handle.focus();
    await user.keyboard('[Space]');
    await user.keyboard('[ArrowDown]');
    await user.keyboard('[Space]');
    await waitFor(() => expect(requests.find((request) => request.method === 'PUT')).toBeDefined());
    expect(requests.find((request) => request.method === 'PUT')?.body).toEqual({ timelineIds: [T2, T1, T3] });
    await waitFor(() => expect(titles()).toEqual([expect.stringContaining('Bravo'), expect.stringContaining('Alpha'), expect.stringContaining('Charlie')]));
  });

  it('puts the old order back when saving it fails', async () => {
    jest.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      const row = this.closest('li');
      const index = row?.parentElement ? Array.from(row.parentElement.children).indexOf(row) : 0;
      return { x: 0, y: index * 100, top: index * 100, left: 0, bottom: index * 100 + 100, right: 500, width: 500, height: 100, toJSON: () => ({}) } as DOMRect;
    });
    mockApi({
      [`GET /api/collections/${C1}`]: jsonResponse(200, collectionFixture({ timelinesCount: 3 })),
      [`GET /api/collections/${C1}/timelines`]: jsonResponse(200, timelines),
      [`PUT /api/collections/${C1}/timelines/order`]: errorResponse(400, 'The order must list every timeline of the collection once'),
    });
    const user = userEvent.setup();
    renderApp(`/collections/${C1}`);
    const handle = await screen.findByRole('button', { name: 'Reorder Charlie' });
    handle.focus();
    await user.keyboard('[Space]');
    await user.keyboard('[ArrowUp]');
    await user.keyboard('[Space]');
    expect(await screen.findByText('The order must list every timeline of the collection once')).toBeInTheDocument();
    await waitFor(() => expect(titles()).toEqual([expect.stringContaining('Alpha'), expect.stringContaining('Bravo'), expect.stringContaining('Charlie')]));
  });

  it('removes a timeline from the collection', async () => {
    let list = timelines;
    const { requests } = mockApi({
      [`GET /api/collections/${C1}`]: () => jsonResponse(200, collectionFixture({ timelinesCount: list.length })),
      [`GET /api/collections/${C1}/timelines`]: () => jsonResponse(200, list),
      [`DELETE /api/collections/${C1}/timelines/${T2}`]: () => {
        list = list.filter((item) => item.id !== T2);
        return noContent();
      },
    });
    const user = userEvent.setup();
    renderApp(`/collections/${C1}`);
    await user.click(await screen.findByRole('button', { name: 'Remove Bravo from this collection' }));
    await waitFor(() => expect(titles()).toEqual([expect.stringContaining('Alpha'), expect.stringContaining('Charlie')]));
    expect(requests.some((request) => request.method === 'DELETE' && request.url.endsWith(`/timelines/${T2}`))).toBe(true);
    expect(await screen.findByText('2 timelines')).toBeInTheDocument();
  });

  it('deletes the collection after confirmation and goes back to My Collections', async () => {
    const { requests } = mockApi({
      [`GET /api/collections/${C1}`]: jsonResponse(200, collectionFixture()),
      [`GET /api/collections/${C1}/timelines`]: jsonResponse(200, timelines),
      [`DELETE /api/collections/${C1}`]: noContent(),
      'GET /api/collections': jsonResponse(200, []),
    });
    const user = userEvent.setup();
    const { router } = renderApp(`/collections/${C1}`);
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Delete this collection?' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/collections'));
    expect(await screen.findByRole('heading', { name: 'My Collections' })).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'DELETE')).toHaveLength(1);
  });

  it("shows someone else's public collection without the owner's controls", async () => {
    mockApi({
      [`GET /api/collections/${C1}`]: jsonResponse(200, collectionFixture({ userId: STRANGER })),
      [`GET /api/collections/${C1}/timelines`]: jsonResponse(200, timelines),
    });
    renderApp(`/collections/${C1}`);
    expect(await screen.findByRole('link', { name: /Alpha/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Reorder/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it("shows not found for someone else's private collection", async () => {
    const { requests } = mockApi({ [`GET /api/collections/${C1}`]: errorResponse(404, 'Collection not found') });
    renderApp(`/collections/${C1}`);
    expect(await screen.findByRole('heading', { name: 'Collection Not Found' })).toBeInTheDocument();
    expect(requests.some((request) => request.url.endsWith('/timelines'))).toBe(false);
  });
});
