import { describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AUTH_TOKEN_KEY } from '../../lib/auth-token';
import { errorResponse, mockApi, noContent, timelineFixture } from '../../testing/api-mocks';
import { jsonResponse, renderApp, testUser } from '../../testing/test-utils';

const inDays = (days: number) => new Date(Date.now() + days * 24 * 60 * 60 * 1000 + 60_000).toISOString();

function invitationAnswer(overrides: Record<string, unknown> = {}) {
  return {
    invitation: {
      id: 'inv-1',
      email: 'ada@example.com',
      role: 'editor',
      status: 'pending',
      inviter_name: 'Grace Hopper',
      message: 'Would love your eye on the edit!',
      expiresAt: inDays(3),
      ...overrides,
    },
    timeline: { id: 't1', title: 'Summer Trip', description: 'Our road trip along the coast', creatorName: 'Grace Hopper' },
  };
}

describe('invitation page', () => {
  it("says 'Invalid Invitation Link' without a token", async () => {
    renderApp('/invite');
    expect(await screen.findByRole('heading', { name: 'Invalid Invitation Link' })).toBeInTheDocument();
  });

  it('shows the invitation to a signed-out visitor: timeline, creator, role, message and expiry', async () => {
    mockApi({ 'GET /api/invitations/tok-1': jsonResponse(200, invitationAnswer()) }, { signedIn: false });
    renderApp('/invite/tok-1');
    expect(await screen.findByRole('heading', { name: 'Summer Trip' })).toBeInTheDocument();
    expect(screen.getByText('Grace Hopper invited you to collaborate on')).toBeInTheDocument();
    expect(screen.getByText('Our road trip along the coast')).toBeInTheDocument();
    expect(screen.getByText('Created by').nextElementSibling).toHaveTextContent('Grace Hopper');
    expect(screen.getByText('Editor')).toBeInTheDocument();
    expect(screen.getByText('Can edit the timeline and upload videos.')).toBeInTheDocument();
    expect(screen.getByText('Would love your eye on the edit!')).toBeInTheDocument();
    expect(screen.getByText('Expires in 3 days')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Accept Invitation' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Decline' })).toBeEnabled();
    expect(screen.queryByRole('heading', { name: 'Welcome Back' })).not.toBeInTheDocument();
  });

  it("says 'Invitation Expired' for a 410 answer", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi(
      { 'GET /api/invitations/old': errorResponse(410, 'This invitation has expired', { expired: true }) },
      { signedIn: false },
    );
    renderApp('/invite/old');
    expect(await screen.findByRole('heading', { name: 'Invitation Expired' })).toBeInTheDocument();
    expect(screen.getByText('This invitation has expired. Please ask for a new one.')).toBeInTheDocument();
  });

  it("says 'Invalid Invitation' for an unknown or used link", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi({ 'GET /api/invitations/bad': errorResponse(404, 'Invitation not found') }, { signedIn: false });
    renderApp('/invite/bad');
    expect(await screen.findByRole('heading', { name: 'Invalid Invitation' })).toBeInTheDocument();
    expect(screen.getByText('This invitation link is invalid or has already been used.')).toBeInTheDocument();
  });

  it('warns and hides Accept and Decline when the expiry date has passed', async () => {
    mockApi({ 'GET /api/invitations/late': jsonResponse(200, invitationAnswer({ expiresAt: '2020-01-01T00:00:00Z' })) }, { signedIn: false });
    renderApp('/invite/late');
    expect(await screen.findByRole('alert')).toHaveTextContent('This invitation has expired. Please ask for a new one.');
    expect(screen.getByText('Expired')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept Invitation' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Decline' })).not.toBeInTheDocument();
  });

  it('signed out, Accept leads to sign-in and back to the invitation, which then accepts', async () => {
    const { requests } = mockApi(
      {
        'GET /api/invitations/tok-1': jsonResponse(200, invitationAnswer()),
        'POST /api/auth/login': jsonResponse(200, { user: testUser, session: { token: 'new-token', expiresAt: '2030-01-01T00:00:00Z' } }),
        'POST /api/invitations/tok-1/accept': jsonResponse(200, { timeline: { id: 't1' } }),
        'GET /api/timelines/t1': jsonResponse(200, timelineFixture({ role: 'editor' })),
      },
      { signedIn: false },
    );
    const user = userEvent.setup();
    const { router } = renderApp('/invite/tok-1');
    expect(await screen.findByText("You'll be asked to sign in or create an account to accept.")).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Accept Invitation' }));

    expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
    expect(requests.some((request) => request.url.endsWith('/accept'))).toBe(false);
    await user.type(screen.getByLabelText('Email or Username'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/invite/tok-1'));
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('new-token');
    await user.click(await screen.findByRole('button', { name: 'Accept Invitation' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/timeline/t1'));
    expect(await screen.findByText('Invitation Accepted')).toBeInTheDocument();
    const accept = requests.find((request) => request.url.endsWith('/api/invitations/tok-1/accept'));
    expect(accept?.headers.get('Authorization')).toBe('Bearer new-token');
  });

  it("says 'Failed to Accept Invitation' with the server's message", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi({
      'GET /api/invitations/tok-1': jsonResponse(200, invitationAnswer()),
      'POST /api/invitations/tok-1/accept': errorResponse(403, 'This invitation was sent to another address'),
    });
    const user = userEvent.setup();
    renderApp('/invite/tok-1');
    await user.click(await screen.findByRole('button', { name: 'Accept Invitation' }));
    expect(await screen.findByText('Failed to Accept Invitation')).toBeInTheDocument();
    expect(screen.getByText('This invitation was sent to another address')).toBeInTheDocument();
  });

  it('declines, or says it could not', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let answer: Response = errorResponse(500, 'boom');
    mockApi({ 'GET /api/invitations/tok-1': jsonResponse(200, invitationAnswer()), 'POST /api/invitations/tok-1/decline': () => answer }, { signedIn: false });
    const user = userEvent.setup();
    renderApp('/invite/tok-1');
    await user.click(await screen.findByRole('button', { name: 'Decline' }));
    expect(await screen.findByText('Failed to Decline Invitation')).toBeInTheDocument();
    answer = noContent();
    await user.click(screen.getByRole('button', { name: 'Decline' }));
    expect(await screen.findByRole('heading', { name: 'Invitation Declined' })).toBeInTheDocument();
  });
});
