import { describe, expect, it, jest } from '@jest/globals';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { analyticsFixture, errorResponse, mockApi, myTimelineFixture, noContent, timelineFixture } from '../../../testing/api-mocks';
import { FakeWebSocket } from '../../../testing/fake-websocket';
import { jsonResponse, renderApp, testUser, type RecordedRequest } from '../../../testing/test-utils';

const soon = (days: number) => new Date(Date.now() + days * 24 * 60 * 60 * 1000 + 60_000).toISOString();

const collaborators = [
  { id: 'c1', userId: testUser.id, userName: 'Ada Lovelace', role: 'owner', status: 'active', joinedAt: '2025-03-01T12:00:00Z' },
  { id: 'c2', userId: 'u2', userName: 'Grace Hopper', role: 'editor', status: 'active', joinedAt: '2025-03-02T12:00:00Z' },
];

const invitations = [
  { id: 'i1', email: 'alan@example.com', role: 'viewer', status: 'pending', inviter_name: 'Ada Lovelace', message: null, expiresAt: soon(5), createdAt: '2025-03-03T12:00:00Z' },
  { id: 'i2', email: 'old@example.com', role: 'editor', status: 'pending', inviter_name: 'Ada Lovelace', message: null, expiresAt: '2020-01-01T00:00:00Z', createdAt: '2019-12-25T12:00:00Z' },
  { id: 'i4', email: 'late@example.com', role: 'viewer', status: 'expired', inviter_name: 'Ada Lovelace', message: null, expiresAt: '2021-01-01T00:00:00Z', createdAt: '2020-12-25T12:00:00Z' },
  { id: 'i3', email: 'done@example.com', role: 'editor', status: 'accepted', inviter_name: 'Ada Lovelace', message: null, expiresAt: soon(3), createdAt: '2025-03-03T12:00:00Z' },
];

const comments = Array.from({ length: 6 }, (_, index) => ({
  id: `m${index}`,
  content: `Comment number ${index + 1}`,
  timestamp: 60 * index + 5,
  userId: 'u2',
  userName: 'Grace Hopper',
  createdAt: new Date(Date.now() - (index + 1) * 60 * 60 * 1000).toISOString(),
  user: { id: 'u2', displayName: 'Grace Hopper', username: 'grace', avatar: null },
}));

type Routes = Parameters<typeof mockApi>[0];

/** A studio API for timeline t1: the caller's role and any answer can be changed per test. */
function studioApi({ timeline = {}, routes = {} }: { timeline?: Record<string, unknown>; routes?: Routes } = {}) {
  return mockApi({
    'GET /api/timelines/t1': jsonResponse(200, timelineFixture(timeline)),
    'GET /api/timelines/t1/analytics': jsonResponse(200, analyticsFixture()),
    'GET /api/timelines/t1/collaborators': jsonResponse(200, collaborators),
    'GET /api/timelines/t1/invitations': jsonResponse(200, invitations),
    'GET /api/timelines/t1/comments': jsonResponse(200, comments),
    ...routes,
  });
}

const find = (requests: RecordedRequest[], method: string, path: string) =>
  requests.find((request) => request.method === method && new URL(request.url).pathname === path);

async function openStudio(path = '/timeline/t1') {
  const view = renderApp(path);
  await screen.findByRole('heading', { name: 'Summer Trip', level: 1 });
  return { ...view, user: userEvent.setup() };
}

describe('timeline studio: access', () => {
  it.each([['viewer'], [null]])('sends a signed-in user whose role is %s to the player', async (role) => {
    studioApi({ timeline: { role } });
    const { router } = renderApp('/timeline/t1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/watch/t1'));
    expect(await screen.findByRole('heading', { name: 'Summer Trip' })).toBeInTheDocument();
  });

  it("says 'Timeline not found' with a way home when the server has none (or hides it)", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi({ 'GET /api/timelines/nope': errorResponse(404, 'Timeline not found') });
    renderApp('/creator/nope');
    expect(await screen.findByRole('heading', { name: 'Timeline not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });

  it('also opens at /creator/{id}, with the header links', async () => {
    studioApi();
    await openStudio('/creator/t1');
    const nav = screen.getByRole('navigation', { name: 'Timeline studio' });
    expect(within(nav).getByRole('link', { name: 'Back to Feed' })).toHaveAttribute('href', '/');
    expect(within(nav).getByRole('link', { name: 'All Timelines' })).toHaveAttribute('href', '/studio');
    expect(within(nav).getByRole('link', { name: 'Preview Timeline' })).toHaveAttribute('href', '/watch/t1');
    expect(within(nav).getByRole('button', { name: 'Add Videos' })).toBeInTheDocument();
  });
});

describe('timeline studio: summary and sections', () => {
  it('shows the real counts, with shares from the analytics', async () => {
    studioApi();
    await openStudio();
    const summary = screen.getByRole('region', { name: 'Summer Trip' });
    const stat = (label: string) => within(summary).getByText(label).parentElement?.querySelector('dd')?.textContent;
    expect(within(summary).getByText('Our road trip along the coast')).toBeInTheDocument();
    expect(within(summary).getByText('Draft')).toBeInTheDocument();
    expect(stat('Videos')).toBe('3');
    expect(stat('Comments')).toBe('7');
    expect(stat('Views')).toBe('1,234');
    expect(stat('Likes')).toBe('56');
    await waitFor(() => expect(stat('Shares')).toBe('12'));
  });

  it('offers both ways to upload, lists the videos, and folds its sections', async () => {
    studioApi({ timeline: { videoCount: 0 }, routes: { 'GET /api/timelines/t1/videos': jsonResponse(200, []) } });
    const { user } = await openStudio();
    const upload = screen.getByRole('region', { name: 'Add Content' });
    expect(within(upload).getByRole('tab', { name: 'Quick Upload' })).toHaveAttribute('aria-selected', 'true');
    expect(within(upload).getByRole('tab', { name: 'Batch Upload' })).toBeInTheDocument();
    expect(within(upload).getByRole('button', { name: 'Choose Files' })).toBeInTheDocument();
    expect(await screen.findByText('No videos uploaded yet.')).toBeVisible();
    const toggle = screen.getByRole('button', { name: 'Video Management' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByText('No videos uploaded yet.')).not.toBeVisible();
    expect(screen.getByRole('button', { name: 'Recent Activity & Processing' })).toBeInTheDocument();
  });

  it('scrolls to and highlights the upload section for ?tab=upload', async () => {
    studioApi();
    await openStudio('/timeline/t1?tab=upload');
    const upload = screen.getByRole('region', { name: 'Add Content' });
    await waitFor(() => expect(upload).toHaveClass('is-highlighted'));
    expect(upload).toHaveFocus();
  });

  it('charts the real analytics, or says there are no views yet', async () => {
    studioApi();
    await openStudio();
    const performance = screen.getByRole('region', { name: 'Timeline Performance' });
    expect(await within(performance).findByText('United Kingdom')).toBeInTheDocument();
    expect(within(performance).getByRole('img', { name: /Views by day over the last 3 days: 39 in all, most on Mar 9 with 25/ })).toBeInTheDocument();
    expect(within(performance).getByText('62%')).toBeInTheDocument();
    expect(within(performance).getByText('1:35')).toBeInTheDocument();
  });

  it('says one view, not one views', async () => {
    studioApi({ routes: { 'GET /api/timelines/t1/analytics': jsonResponse(200, analyticsFixture({ totalViews: 1, topRegions: [{ region: 'Europe', views: 1, percentage: 100 }] })) } });
    await openStudio();
    const performance = screen.getByRole('region', { name: 'Timeline Performance' });
    expect(await within(performance).findByText('1 view · 100%')).toBeInTheDocument();
  });

  it("says 'No views yet' when the timeline has no analytics data", async () => {
    studioApi({ routes: { 'GET /api/timelines/t1/analytics': jsonResponse(200, analyticsFixture({ hasData: false, totalViews: 0, shares: 0, viewsByDay: [], topRegions: [] })) } });
    await openStudio();
    const performance = screen.getByRole('region', { name: 'Timeline Performance' });
    expect(await within(performance).findByText('No views yet')).toBeInTheDocument();
  });
});

describe('timeline studio: realtime', () => {
  it('refetches the videos when an upload starts, and the timeline with its videos when processing completes', async () => {
    const { requests } = studioApi({ routes: { 'GET /api/timelines/t1/videos': jsonResponse(200, []) } });
    await openStudio();
    await screen.findByText('No videos uploaded yet.');
    const count = (path: string) => requests.filter((request) => request.method === 'GET' && new URL(request.url).pathname === path).length;
    const socket = FakeWebSocket.latest()!;
    act(() => socket.connect());
    expect(socket.sent[0]).toEqual({ type: 'auth', token: 'test-token' });
    // The timeline's topic, beside the signed-in person's own (their notifications).
    expect(socket.topics()).toEqual([`user:${testUser.id}`, 'timeline:t1']);

    const videosBefore = count('/api/timelines/t1/videos');
    const timelineBefore = count('/api/timelines/t1');
    act(() => socket.receive({ type: 'video_upload_started', timelineId: 't1', video: { id: 'v1', originalName: 'a.mp4' } }));
    await waitFor(() => expect(count('/api/timelines/t1/videos')).toBe(videosBefore + 1));
    expect(count('/api/timelines/t1')).toBe(timelineBefore);

    act(() => socket.receive({ type: 'video_processing_complete', timelineId: 't1', video: { id: 'v1' } }));
    await waitFor(() => expect(count('/api/timelines/t1/videos')).toBe(videosBefore + 2));
    await waitFor(() => expect(count('/api/timelines/t1')).toBe(timelineBefore + 1));
    // Messages about other timelines are not ours.
    act(() => socket.receive({ type: 'video_upload_started', timelineId: 't2', video: { id: 'v2', originalName: 'b.mp4' } }));
    expect(count('/api/timelines/t1/videos')).toBe(videosBefore + 2);
  });
});

describe('timeline studio: suggestions', () => {
  it('works them out from the timeline and refreshes them from refetched data', async () => {
    let timeline = timelineFixture({ description: null, videoCount: 0 });
    let team = [collaborators[0]];
    const { requests } = studioApi({
      routes: {
        'GET /api/timelines/t1': () => jsonResponse(200, timeline),
        'GET /api/timelines/t1/collaborators': () => jsonResponse(200, team),
        'GET /api/timelines/t1/invitations': jsonResponse(200, []),
      },
    });
    const { user } = await openStudio();
    const panel = screen.getByRole('region', { name: 'Suggestions' });
    const titles = () => within(panel).queryAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    await waitFor(() => expect(titles()).toEqual(['No videos yet: upload your first video', 'Add a description', 'Invite an editor']));

    timeline = timelineFixture({ description: 'Now described', videoCount: 0 });
    team = collaborators;
    const before = requests.length;
    await user.click(within(panel).getByRole('button', { name: 'Refresh suggestions' }));
    await waitFor(() => expect(titles()).toEqual(['No videos yet: upload your first video']));
    const refetched = requests.slice(before).map((request) => new URL(request.url).pathname);
    expect(refetched).toEqual(
      expect.arrayContaining(['/api/timelines/t1', '/api/timelines/t1/analytics', '/api/timelines/t1/collaborators', '/api/timelines/t1/invitations']),
    );
  });
});

describe('timeline studio: team collaboration', () => {
  it('gives the owner Transfer and Remove on other rows only, and confirms a transfer', async () => {
    const { requests } = studioApi({
      routes: { 'POST /api/timelines/t1/transfer-ownership': jsonResponse(200, { timeline: timelineFixture({ role: 'editor', creatorName: 'Grace Hopper' }) }) },
    });
    const { user } = await openStudio();
    const list = await screen.findByRole('list', { name: 'Collaborators' });
    const [ownerRow, editorRow] = within(list).getAllByRole('listitem');
    expect(within(ownerRow!).getByText('Owner')).toBeInTheDocument();
    expect(within(ownerRow!).queryByRole('button')).not.toBeInTheDocument();
    expect(within(editorRow!).getByRole('button', { name: 'Remove Grace Hopper' })).toBeInTheDocument();

    await user.click(within(editorRow!).getByRole('button', { name: 'Transfer ownership to Grace Hopper' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Transfer Ownership' });
    expect(confirm).toHaveTextContent('Are you sure you want to transfer ownership? This action cannot be undone.');
    expect(find(requests, 'POST', '/api/timelines/t1/transfer-ownership')).toBeUndefined();
    await user.click(within(confirm).getByRole('button', { name: 'Transfer Ownership' }));
    expect(await screen.findByText('Ownership Transferred')).toBeInTheDocument();
    expect(find(requests, 'POST', '/api/timelines/t1/transfer-ownership')?.body).toEqual({ newOwnerId: 'u2' });
  });

  it('shows an editor the team without owner controls or settings', async () => {
    studioApi({ timeline: { role: 'editor' } });
    await openStudio();
    const list = await screen.findByRole('list', { name: 'Collaborators' });
    expect(within(list).queryByRole('button', { name: /Transfer|Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Timeline Settings' })).not.toBeInTheDocument();
    // Inviting and the invitation list are the owner's.
    expect(screen.queryByRole('button', { name: 'Invite Collaborator' })).not.toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Pending invitations' })).not.toBeInTheDocument();
  });

  it('removes a collaborator after asking, and reports a failure', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    studioApi({ routes: { 'DELETE /api/timelines/t1/collaborators/u2': errorResponse(403, 'Only the owner can remove collaborators') } });
    const { user } = await openStudio();
    await user.click(await screen.findByRole('button', { name: 'Remove Grace Hopper' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Remove Collaborator' })).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Failed to Remove Collaborator')).toBeInTheDocument();
    expect(screen.getByText('Only the owner can remove collaborators')).toBeInTheDocument();
  });

  it('lists pending invitations with their expiry, and resends or cancels them', async () => {
    const { requests } = studioApi({
      routes: { 'POST /api/invitations/i1/resend': jsonResponse(200, { userExists: false }), 'DELETE /api/invitations/i2': noContent() },
    });
    const { user } = await openStudio();
    const list = await screen.findByRole('list', { name: 'Pending invitations' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('alan@example.com');
    expect(rows[0]).toHaveTextContent('Expires in 5 days');
    expect(rows[1]).toHaveTextContent('Expired');
    expect(rows[2]).toHaveTextContent('late@example.com');
    expect(rows[2]).toHaveTextContent('Expired');
    expect(screen.queryByText('done@example.com')).not.toBeInTheDocument();

    await user.click(within(rows[0]!).getByRole('button', { name: 'Resend invitation to alan@example.com' }));
    expect(await screen.findByText('Invitation Resent')).toBeInTheDocument();
    await user.click(within(rows[1]!).getByRole('button', { name: 'Cancel invitation to old@example.com' }));
    expect(await screen.findByText('Invitation Cancelled')).toBeInTheDocument();
    expect(find(requests, 'DELETE', '/api/invitations/i2')).toBeDefined();
  });
});

describe('timeline studio: invite dialog', () => {
  async function openInvite() {
    const context = await openStudio();
    await context.user.click(await screen.findByRole('button', { name: 'Invite Collaborator' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite Collaborator' });
    return { ...context, dialog };
  }

  it('checks the address with toasts before sending anything', async () => {
    const { requests } = studioApi();
    const { user, dialog } = await openInvite();
    expect(within(dialog).getByLabelText('Role')).toHaveValue('editor');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText('Email Required')).toBeInTheDocument();
    expect(screen.getByText('Please enter an email address')).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('Email'), 'not-an-address');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText('Invalid Email')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(find(requests, 'POST', '/api/timelines/t1/invite')).toBeUndefined();
  });

  it('sends role and message, and says the person was added when they already have an account', async () => {
    const { requests } = studioApi({
      routes: { 'POST /api/timelines/t1/invite': jsonResponse(200, { userExists: true, collaborator: { ...collaborators[1], userName: 'Alan Turing' } }) },
    });
    const { user, dialog } = await openInvite();
    await user.type(within(dialog).getByLabelText('Email'), ' alan@example.com ');
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'viewer');
    await user.type(within(dialog).getByLabelText('Message (optional)'), 'Join us!');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText('Collaborator Added')).toBeInTheDocument();
    expect(screen.getByText('alan@example.com already has an account and was added as a viewer.')).toBeInTheDocument();
    expect(find(requests, 'POST', '/api/timelines/t1/invite')?.body).toEqual({ email: 'alan@example.com', role: 'viewer', message: 'Join us!' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Invite Collaborator' })).not.toBeInTheDocument());
  });

  it("shows the server's message when inviting fails, else 'Please try again'", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let answer = errorResponse(409, 'alan@example.com is already invited');
    studioApi({ routes: { 'POST /api/timelines/t1/invite': () => answer } });
    const { user, dialog } = await openInvite();
    await user.type(within(dialog).getByLabelText('Email'), 'alan@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText('Failed to Send Invitation')).toBeInTheDocument();
    expect(screen.getByText('alan@example.com is already invited')).toBeInTheDocument();
    answer = new Response('', { status: 503 });
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText('Please try again')).toBeInTheDocument();
  });
});

describe('timeline studio: comments', () => {
  it('shows the five newest comments with their m:ss moment', async () => {
    studioApi();
    await openStudio();
    const list = await screen.findByRole('list', { name: 'Recent comments' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(5);
    expect(items[0]).toHaveTextContent('Comment number 1');
    expect(items[1]).toHaveTextContent('at 1:05');
    expect(screen.queryByText('Comment number 6')).not.toBeInTheDocument();
  });

  it('posts trimmed content with a minutes:seconds timestamp; blank content cannot be sent', async () => {
    const { requests } = studioApi({ routes: { 'POST /api/timelines/t1/comments': jsonResponse(201, comments[0]) } });
    const { user } = await openStudio();
    const form = screen.getByRole('form', { name: 'Add a comment' });
    const button = within(form).getByRole('button', { name: 'Add Comment' });
    expect(button).toBeDisabled();
    await user.type(within(form).getByLabelText('Comment'), '   ');
    expect(button).toBeDisabled();

    await user.type(within(form).getByLabelText('Comment'), ' Great cut here ');
    await user.type(within(form).getByLabelText('Minutes'), '1');
    await user.type(within(form).getByLabelText('Seconds'), '75');
    await user.click(button);
    expect(within(form).getByText('Seconds must be between 0 and 59')).toBeInTheDocument();
    expect(find(requests, 'POST', '/api/timelines/t1/comments')).toBeUndefined();

    await user.clear(within(form).getByLabelText('Seconds'));
    await user.type(within(form).getByLabelText('Seconds'), '15');
    await user.click(button);
    await waitFor(() => expect(find(requests, 'POST', '/api/timelines/t1/comments')?.body).toEqual({ content: 'Great cut here', timestamp: 75 }));
    await waitFor(() => expect(within(form).getByLabelText('Comment')).toHaveValue(''));
  });

  it("counts the creator's own comment in the summary at once, though the server's count follows a moment later", async () => {
    const stored = [...comments];
    studioApi({
      // The timeline's count is kept from an event: right after a comment the server still says 7.
      timeline: { commentsCount: 7 },
      routes: {
        'GET /api/timelines/t1/comments': () => jsonResponse(200, stored),
        'POST /api/timelines/t1/comments': (request: RecordedRequest) => {
          const comment = { ...comments[0]!, id: `new${stored.length}`, content: (request.body as { content: string }).content, userId: testUser.id, userName: testUser.displayName };
          stored.unshift(comment);
          return jsonResponse(201, comment);
        },
      },
    });
    const { user } = await openStudio();
    const summary = screen.getByRole('region', { name: 'Summer Trip' });
    const stat = (label: string) => within(summary).getByText(label).parentElement?.querySelector('dd')?.textContent;
    expect(stat('Comments')).toBe('7');
    const form = screen.getByRole('form', { name: 'Add a comment' });
    for (const [index, text] of ['First note', 'Second note'].entries()) {
      await user.type(within(form).getByLabelText('Comment'), text);
      await user.click(within(form).getByRole('button', { name: 'Add Comment' }));
      await waitFor(() => expect(within(form).getByLabelText('Comment')).toHaveValue(''));
      await waitFor(() => expect(within(screen.getByRole('list', { name: 'Recent comments' })).getAllByRole('listitem')[0]).toHaveTextContent(text));
      expect(stat('Comments')).toBe(String(8 + index));
    }
    // Nothing asks for the timeline again and puts the old count back.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(stat('Comments')).toBe('9');
  });

  it("says 'Failed to Add Comment' when posting fails", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    studioApi({ routes: { 'POST /api/timelines/t1/comments': errorResponse(500, 'boom') } });
    const { user } = await openStudio();
    const form = screen.getByRole('form', { name: 'Add a comment' });
    await user.type(within(form).getByLabelText('Comment'), 'Hello');
    await user.click(within(form).getByRole('button', { name: 'Add Comment' }));
    expect(await screen.findByText('Failed to Add Comment')).toBeInTheDocument();
    expect(screen.getByText('Please try again')).toBeInTheDocument();
    expect(within(form).getByLabelText('Comment')).toHaveValue('Hello');
  });
});

describe('timeline settings', () => {
  async function openSettings(routes: Routes = {}, timeline: Record<string, unknown> = {}) {
    const api = studioApi({ routes, timeline });
    const context = await openStudio();
    await context.user.click(screen.getByRole('button', { name: 'Timeline Settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Timeline Settings' });
    return { ...context, ...api, dialog };
  }

  it('saves General changes', async () => {
    const { user, dialog, requests } = await openSettings({
      'PATCH /api/timelines/t1': jsonResponse(200, timelineFixture({ title: 'Winter Trip' })),
    });
    expect(within(dialog).getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['General', 'Privacy', 'Sharing', 'Advanced']);
    const title = within(dialog).getByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'Winter Trip');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Timeline Updated')).toBeInTheDocument();
    expect(screen.getByText('Your changes have been saved successfully.')).toBeInTheDocument();
    expect(find(requests, 'PATCH', '/api/timelines/t1')?.body).toEqual({ title: 'Winter Trip' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(await screen.findByRole('heading', { name: 'Winter Trip', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Timeline Settings' })).toHaveFocus();
  });

  it('reports a failed update', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, dialog } = await openSettings({ 'PATCH /api/timelines/t1': errorResponse(500, 'boom') });
    await user.type(within(dialog).getByLabelText('Description'), ' and hills');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Failed to update timeline. Please try again.')).toBeInTheDocument();
  });

  it('sets a visibility only when its switch is turned on', async () => {
    const { user, dialog, requests } = await openSettings({
      'PATCH /api/timelines/t1': jsonResponse(200, timelineFixture({ visibility: 'unlisted' })),
    });
    await user.click(within(dialog).getByRole('tab', { name: 'Privacy' }));
    const privateSwitch = within(dialog).getByRole('switch', { name: 'Private' });
    expect(privateSwitch).toHaveAttribute('aria-checked', 'true');
    await user.click(privateSwitch);
    expect(find(requests, 'PATCH', '/api/timelines/t1')).toBeUndefined();

    await user.click(within(dialog).getByRole('switch', { name: 'Unlisted' }));
    await waitFor(() => expect(find(requests, 'PATCH', '/api/timelines/t1')?.body).toEqual({ visibility: 'unlisted' }));
    await waitFor(() => expect(within(dialog).getByRole('switch', { name: 'Unlisted' })).toHaveAttribute('aria-checked', 'true'));
    expect(within(dialog).getByRole('switch', { name: 'Private' })).toHaveAttribute('aria-checked', 'false');
  });

  it('offers no embed code for a private timeline, whose embed could only say it is unavailable', async () => {
    const { user, dialog } = await openSettings({}, { visibility: 'private', status: 'published' });
    await user.click(within(dialog).getByRole('tab', { name: 'Sharing' }));
    expect(within(dialog).getByLabelText('Share link')).toHaveValue('http://localhost/timeline/t1');
    expect(within(dialog).queryByLabelText('Embed code')).not.toBeInTheDocument();
    expect(within(dialog).getByText('An embed code is offered once the timeline is public or unlisted.')).toBeInTheDocument();
  });

  it('copies the share link, watch link and embed code, counting each share', async () => {
    const { user, dialog, requests } = await openSettings({ 'POST /api/timelines/t1/shares': noContent() }, { visibility: 'unlisted', status: 'published' });
    await user.click(within(dialog).getByRole('tab', { name: 'Sharing' }));
    expect(within(dialog).getByLabelText('Share link')).toHaveValue('http://localhost/timeline/t1');
    expect(within(dialog).getByLabelText('Watch link')).toHaveValue('http://localhost/watch/t1');
    expect(within(dialog).getByLabelText('Embed code')).toHaveValue(
      '<iframe src="http://localhost/embed/timeline/t1" width="800" height="600" title="Summer Trip" frameborder="0" allowfullscreen></iframe>',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Copy share link' }));
    expect(await screen.findByText('Link copied!')).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe('http://localhost/timeline/t1');
    await user.click(within(dialog).getByRole('button', { name: 'Copy embed code' }));
    expect(await screen.findByText('Embed code copied!')).toBeInTheDocument();
    await waitFor(() =>
      expect(requests.filter((request) => request.url.endsWith('/shares')).map((request) => request.body)).toEqual([{ channel: 'link' }, { channel: 'embed' }]),
    );
  });

  it('publishes and unpublishes', async () => {
    const { user, dialog, requests } = await openSettings({
      'PATCH /api/timelines/t1': jsonResponse(200, timelineFixture({ status: 'published' })),
    });
    await user.click(within(dialog).getByRole('tab', { name: 'Advanced' }));
    await user.click(within(dialog).getByRole('button', { name: 'Publish Timeline' }));
    await waitFor(() => expect(find(requests, 'PATCH', '/api/timelines/t1')?.body).toEqual({ status: 'published' }));
    expect(await within(dialog).findByRole('button', { name: 'Unpublish Timeline' })).toBeInTheDocument();
  });

  it('deletes after confirmation, says so and returns to the studio list', async () => {
    const { user, dialog, router } = await openSettings({
      'DELETE /api/timelines/t1': noContent(),
      'GET /api/my-timelines': jsonResponse(200, [myTimelineFixture({ id: 'other', title: 'Other' })]),
    });
    await user.click(within(dialog).getByRole('tab', { name: 'Advanced' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete Timeline' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this timeline?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Your timeline and all its videos have been removed.')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/studio'));
  });

  it('reports a failed delete and stays', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, dialog, router } = await openSettings({ 'DELETE /api/timelines/t1': errorResponse(500, 'boom') });
    await user.click(within(dialog).getByRole('tab', { name: 'Advanced' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete Timeline' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete timeline. Please try again.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/timeline/t1');
  });

  it('has a Go to Creator Studio link to the timeline’s studio', async () => {
    const { dialog } = await openSettings();
    expect(within(dialog).getByRole('link', { name: 'Go to Creator Studio' })).toHaveAttribute('href', '/timeline/t1');
  });
});
