import { describe, expect, it, jest } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { Toaster } from '../../../components/ui/toast';
import { errorResponse, mockApi, noContent, timelineFixture } from '../../../testing/api-mocks';
import { videoFixture } from '../../../testing/media-fixtures';
import { createTestQueryClient, jsonResponse, renderApp, type RecordedRequest } from '../../../testing/test-utils';
import { C1, C2, collectionFixture, T1 } from '../test-fixtures';
import { SaveToCollectionButton } from './save-to-collection';

const mine = () => [
  { ...collectionFixture({ id: C1, name: 'Road trips', timelinesCount: 2 }), contains: true },
  { ...collectionFixture({ id: C2, name: 'Cooking', timelinesCount: 0, isPublic: false }), contains: false },
];

function renderOptions() {
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <MemoryRouter>
        <SaveToCollectionButton timelineId={T1} title="Summer Trip" className="player__icon-button" />
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
}

const writes = (requests: RecordedRequest[]) =>
  requests.filter((request) => request.method !== 'GET').map((request) => `${request.method} ${new URL(request.url).pathname}`);

async function openSheet(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Save to collection' }));
  return screen.findByRole('dialog', { name: 'Save to collection' });
}

describe('Save to collection', () => {
  it("lists the caller's collections, ticked where the timeline is", async () => {
    mockApi({ [`GET /api/timelines/${T1}/collections`]: jsonResponse(200, mine()) });
    const user = userEvent.setup();
    renderOptions();
    const sheet = await openSheet(user);
    expect(within(sheet).getByText('Summer Trip')).toBeInTheDocument();
    expect(await within(sheet).findByRole('checkbox', { name: /Road trips/ })).toBeChecked();
    expect(within(sheet).getByRole('checkbox', { name: /Cooking/ })).not.toBeChecked();
    expect(within(sheet).getByRole('checkbox', { name: /Cooking/ })).toHaveAccessibleName(/Private/);
  });

  it('adds and removes at once, before the server answers', async () => {
    const answers: Array<() => void> = [];
    const held = (response: Response) => new Promise<Response>((resolve) => answers.push(() => resolve(response)));
    const { requests } = mockApi({
      [`GET /api/timelines/${T1}/collections`]: jsonResponse(200, mine()),
      [`POST /api/collections/${C2}/timelines`]: () => held(jsonResponse(201, {})),
      [`DELETE /api/collections/${C1}/timelines/${T1}`]: () => held(noContent()),
    });
    const user = userEvent.setup();
    renderOptions();
    const sheet = await openSheet(user);
    const cooking = await within(sheet).findByRole('checkbox', { name: /Cooking/ });
    await user.click(cooking);
    expect(cooking).toBeChecked();
    expect(within(sheet).getByRole('checkbox', { name: /Cooking/ })).toHaveAccessibleName(/1 timeline/);
    await user.click(within(sheet).getByRole('checkbox', { name: /Road trips/ }));
    expect(within(sheet).getByRole('checkbox', { name: /Road trips/ })).not.toBeChecked();
    await waitFor(() => expect(answers).toHaveLength(2));
    expect(writes(requests)).toEqual([`POST /api/collections/${C2}/timelines`, `DELETE /api/collections/${C1}/timelines/${T1}`]);
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({ timelineId: T1 });
    answers.forEach((answer) => answer());
  });

  it('unticks again and says why when the server refuses', async () => {
    mockApi({
      [`GET /api/timelines/${T1}/collections`]: jsonResponse(200, mine()),
      [`POST /api/collections/${C2}/timelines`]: errorResponse(404, 'Timeline not found'),
    });
    const user = userEvent.setup();
    renderOptions();
    const sheet = await openSheet(user);
    await user.click(await within(sheet).findByRole('checkbox', { name: /Cooking/ }));
    expect(await screen.findByText('Timeline not found')).toBeInTheDocument();
    await waitFor(() => expect(within(sheet).getByRole('checkbox', { name: /Cooking/ })).not.toBeChecked());
  });

  it('creates a new collection with the timeline in it', async () => {
    const created = collectionFixture({ id: 'c3c3c3c3-c3c3-4c3c-8c3c-c3c3c3c3c3c3', name: 'Favourites', timelinesCount: 0, description: null });
    let list: unknown[] = [];
    const { requests } = mockApi({
      [`GET /api/timelines/${T1}/collections`]: () => jsonResponse(200, list),
      'POST /api/collections': jsonResponse(201, created),
      [`POST /api/collections/${created.id}/timelines`]: () => {
        list = [{ ...created, timelinesCount: 1, contains: true }];
        return jsonResponse(201, {});
      },
    });
    const user = userEvent.setup();
    renderOptions();
    const sheet = await openSheet(user);
    expect(await within(sheet).findByText('You have no collections yet.')).toBeInTheDocument();
    await user.click(within(sheet).getByRole('button', { name: 'New collection' }));
    await user.click(within(sheet).getByRole('button', { name: 'Create and save' }));
    expect(await within(sheet).findByText('Collection name is required')).toBeInTheDocument();
    await user.type(within(sheet).getByLabelText('Name'), ' Favourites ');
    await user.click(within(sheet).getByRole('button', { name: 'Create and save' }));
    expect(await within(sheet).findByRole('checkbox', { name: /Favourites/ })).toBeChecked();
    expect(writes(requests)).toEqual(['POST /api/collections', `POST /api/collections/${created.id}/timelines`]);
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({ name: 'Favourites', description: null, isPublic: true });
  });

  it('opens from the player for a signed-in viewer', async () => {
    jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
    jest.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
    mockApi({
      'GET /api/timelines/t1': jsonResponse(200, timelineFixture({ visibility: 'public', status: 'published' })),
      'GET /api/timelines/t1/videos': jsonResponse(200, [videoFixture({ id: 'a', title: 'Alpha' })]),
      'GET /api/timelines': jsonResponse(200, []),
      'GET /api/timelines/t1/collections': jsonResponse(200, mine()),
    });
    const user = userEvent.setup();
    renderApp('/watch/t1');
    await screen.findByRole('button', { name: 'Back' });
    await user.click(await screen.findByRole('button', { name: 'Save to collection' }));
    const sheet = await screen.findByRole('dialog', { name: 'Save to collection' });
    expect(await within(sheet).findByRole('checkbox', { name: /Road trips/ })).toBeChecked();
  });
});
