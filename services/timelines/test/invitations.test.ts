import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fromBinary } from '@bufbuild/protobuf';
import { FileMailSender, type BusMessage, type MailMessage, type MailSender } from '@timeliner/platform';
import { CollaboratorRole, InvitationCreatedSchema, TimelinesEvents } from '@timeliner/proto';
import { hashInvitationToken } from '../src/invitations/invitation-token.js';
import { as, linkIn, type Person, PUBLIC_ORIGIN, startHarness, type TimelinesHarness } from './harness.js';

const INVALID = 'This invitation link is invalid or has already been used.';

/** Invitations end to end, on the real NATS: from the e-mail to the new collaborator. */
describe('invitations', () => {
  let h: TimelinesHarness;
  let ada: Person;
  let timelineId: string;
  let mailFails = false;
  const seen: BusMessage[] = [];

  const fileMail = { current: undefined as FileMailSender | undefined };
  const mail: MailSender = {
    kind: 'file',
    send: (message: MailMessage) => (mailFails ? Promise.reject(new Error('relay down')) : fileMail.current!.send(message)),
    close: async () => undefined,
  };
  const invite = (body: Record<string, unknown>, who: Person = ada, id = timelineId) => h.call('post', `/api/timelines/${id}/invite`, as(who)).send(body);
  const lastLink = async () => linkIn((await h.mails()).at(-1)!);

  beforeAll(async () => {
    h = await startHarness('tlinvite', { nats: true, mail });
    fileMail.current = new FileMailSender({ dir: h.mailDir });
    await h.bus.subscribe('timelines.>', (m) => void seen.push(m));
    ada = await h.register({ displayName: 'Ada Lovelace' });
    timelineId = (await h.call('post', '/api/timelines', as(ada)).send({ title: 'Analytical Engine', description: 'Notes' }).expect(201)).body.id;
  });
  afterAll(async () => {
    await h.close();
  });

  it('e-mails a link to a new address, which lets its owner join once signed up', async () => {
    const res = await invite({ email: ' Grace@Example.com ', role: 'viewer', message: 'Come and see' }).expect(201);
    expect(res.body).toEqual({
      userExists: false,
      invitation: {
        id: expect.any(String),
        email: 'grace@example.com',
        role: 'viewer',
        status: 'pending',
        inviter_name: 'Ada Lovelace',
        message: 'Come and see',
        expiresAt: expect.any(String),
        createdAt: expect.any(String),
      },
    });
    const days = (new Date(res.body.invitation.expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);

    // The e-mail holds the link; the database only its hash.
    const mails = await h.mails();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatch(/^To: grace@example\.com$/m);
    const token = linkIn(mails[0]!)!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mails[0]!.replace(/=\r?\n/g, '')).toContain(`${PUBLIC_ORIGIN}/invite/${token}`);
    const [stored] = await h.query<{ invite_token_hash: string }>('SELECT invite_token_hash FROM invitations WHERE id = $1', [res.body.invitation.id]);
    expect(stored!.invite_token_hash).toBe(hashInvitationToken(token));
    expect(JSON.stringify(await h.query('SELECT * FROM invitations'))).not.toContain(token);

    // Anyone holding the link sees the invitation page's data, signed in or not.
    const page = await h.call('get', `/api/invitations/${token}`).expect(200);
    expect(page.body).toEqual({
      invitation: { id: res.body.invitation.id, email: 'grace@example.com', role: 'viewer', status: 'pending', inviter_name: 'Ada Lovelace', message: 'Come and see', expiresAt: res.body.invitation.expiresAt },
      timeline: { id: timelineId, title: 'Analytical Engine', description: 'Notes', creatorName: 'Ada Lovelace' },
    });

    // Grace signs up: the auth service announces her on the bus and the read model learns her address.
    const grace = await h.register({ email: 'grace@example.com', displayName: 'Grace Hopper' });
    const bob = await h.register();
    expect((await h.call('post', `/api/invitations/${token}/accept`, as(bob)).expect(403)).body.message).toBe('This invitation was sent to a different email address');
    await h.call('post', `/api/invitations/${token}/accept`).expect(401);

    const accepted = await h.call('post', `/api/invitations/${token}/accept`, as(grace)).expect(200);
    expect(accepted.body).toEqual({ timeline: { id: timelineId } });
    const team = (await h.call('get', `/api/timelines/${timelineId}/collaborators`, as(grace)).expect(200)).body;
    expect(team).toEqual([
      expect.objectContaining({ userId: ada.userId, role: 'owner' }),
      expect.objectContaining({ userId: grace.userId, userName: 'Grace Hopper', role: 'viewer', status: 'active' }),
    ]);
    const [row] = await h.query('SELECT status, accepted_by_user_id FROM invitations WHERE id = $1', [res.body.invitation.id]);
    expect(row).toEqual({ status: 'accepted', accepted_by_user_id: grace.userId });
    expect((await h.events(TimelinesEvents.InvitationAccepted)).at(-1)).toMatchObject({ invitationId: res.body.invitation.id, timelineId, userId: grace.userId });
    expect((await h.events(TimelinesEvents.CollaboratorAdded)).at(-1)).toMatchObject({ timelineId, userId: grace.userId, role: CollaboratorRole.VIEWER, invitationId: res.body.invitation.id });

    // A used link is spent.
    expect((await h.call('get', `/api/invitations/${token}`).expect(404)).body).toEqual({ statusCode: 404, error: 'Not Found', message: INVALID });
    await h.call('post', `/api/invitations/${token}/accept`, as(grace)).expect(404);
    await h.call('post', `/api/invitations/${token}/decline`).expect(404);
    expect((await h.call('get', `/api/timelines/${timelineId}/invitations`, as(ada)).expect(200)).body).toEqual([]);
  });

  it('publishes InvitationCreated on NATS with the request id of the call', async () => {
    const res = await invite({ email: 'linus@example.com' }).expect(201);
    const requestId = res.headers['x-request-id'];
    await h.waitFor(() => seen.some((m) => m.subject === TimelinesEvents.InvitationCreated.subject && m.meta.requestId === requestId));
    const message = seen.find((m) => m.meta.requestId === requestId)!;
    expect(message.meta).toMatchObject({ type: 'timelines.invitation.created', version: 1, actorUserId: ada.userId });
    expect(fromBinary(InvitationCreatedSchema, message.data)).toMatchObject({ invitationId: res.body.invitation.id, timelineId, email: 'linus@example.com', role: CollaboratorRole.EDITOR, inviterId: ada.userId });
  });

  it('accepts for an account the auth service knows before its registration event arrives', async () => {
    await invite({ email: 'quick@example.com' }).expect(201);
    const token = await lastLink();
    const quick = await h.register({ email: 'quick@example.com' }, { announce: false });
    await h.call('post', `/api/invitations/${token}/accept`, as(quick)).expect(200);
    expect((await h.call('get', `/api/timelines/${timelineId}`, as(quick)).expect(200)).body.role).toBe('editor');
  });

  it('adds an address with an account at once, once', async () => {
    const alan = await h.register({ displayName: 'Alan' });
    const mailsBefore = (await h.mails()).length;
    const res = await invite({ email: alan.email.toUpperCase(), role: 'viewer' }).expect(200);
    expect(res.body).toEqual({
      userExists: true,
      collaborator: { id: expect.any(String), userId: alan.userId, userName: 'Alan', role: 'viewer', status: 'active', joinedAt: expect.any(String) },
    });
    expect((await h.mails()).length).toBe(mailsBefore);
    expect((await invite({ email: alan.email }).expect(409)).body.message).toBe('Already a collaborator');
    expect((await invite({ email: ada.email }).expect(400)).body.message).toBe('You cannot invite yourself');
  });

  it('lets a person added directly leave at once: off the team, the private timeline gone for them, announced', async () => {
    const joan = await h.register({ displayName: 'Joan' });
    const secret = (await h.call('post', '/api/timelines', as(ada)).send({ title: 'Not asked for', visibility: 'private' }).expect(201)).body.id as string;
    await invite({ email: joan.email }, ada, secret).expect(200);
    expect((await h.call('get', `/api/timelines/${secret}`, as(joan)).expect(200)).body.role).toBe('editor');
    await h.call('post', `/api/timelines/${secret}/leave`, as(joan)).expect(204);
    await h.call('get', `/api/timelines/${secret}`, as(joan)).expect(404);
    const team = (await h.call('get', `/api/timelines/${secret}/collaborators`, as(ada)).expect(200)).body as Array<{ userId: string }>;
    expect(team.map((c) => c.userId)).toEqual([ada.userId]);
    await h.waitFor(() => seen.some((m) => m.subject === TimelinesEvents.CollaboratorRemoved.subject && m.meta.actorUserId === joan.userId));
    // Leaving again, or a timeline one cannot see: not found; the owner cannot leave.
    await h.call('post', `/api/timelines/${secret}/leave`, as(joan)).expect(404);
    await h.call('post', `/api/timelines/not-an-id/leave`, as(joan)).expect(404);
    expect((await h.call('post', `/api/timelines/${secret}/leave`, as(ada)).expect(400)).body.message).toBe('The owner cannot leave the timeline; transfer ownership first');
    await h.call('post', `/api/timelines/${secret}/leave`).expect(401);
  });

  it('refreshes an open invitation when the same address is invited again', async () => {
    const first = await invite({ email: 'twice@example.com', role: 'viewer' }).expect(201);
    const oldToken = await lastLink();
    const second = await invite({ email: 'twice@example.com', role: 'editor', message: 'Reminder' }).expect(201);
    const newToken = await lastLink();
    expect(second.body.invitation).toMatchObject({ id: first.body.invitation.id, role: 'editor', message: 'Reminder' });
    expect(newToken).not.toBe(oldToken);
    await h.call('get', `/api/invitations/${oldToken}`).expect(404);
    await h.call('get', `/api/invitations/${newToken}`).expect(200);
    const rows = await h.query('SELECT id FROM invitations WHERE email = $1', ['twice@example.com']);
    expect(rows).toHaveLength(1);
    expect((await h.events(TimelinesEvents.InvitationCreated)).filter((e) => e.email === 'twice@example.com')).toHaveLength(1);
  });

  it('answers 410 with expired: true once the week is over; a resend gives a new link and week', async () => {
    const res = await invite({ email: 'late@example.com' }).expect(201);
    const token = await lastLink();
    await h.query(`UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE id = $1`, [res.body.invitation.id]);
    const gone = await h.call('get', `/api/invitations/${token}`).expect(410);
    expect(gone.body).toEqual({ statusCode: 410, error: 'Gone', message: 'This invitation has expired. Please ask for a new one.', expired: true });
    const late = await h.register({ email: 'late-other@example.com' });
    await h.call('post', `/api/invitations/${token}/accept`, as(late)).expect(410);
    await h.call('post', `/api/invitations/${token}/decline`).expect(410);
    const listed = (await h.call('get', `/api/timelines/${timelineId}/invitations`, as(ada)).expect(200)).body as Array<{ id: string; status: string }>;
    expect(listed.find((i) => i.id === res.body.invitation.id)?.status).toBe('expired');

    const resent = await h.call('post', `/api/invitations/${res.body.invitation.id}/resend`, as(ada)).expect(200);
    expect(resent.body).toMatchObject({ userExists: false, invitation: { id: res.body.invitation.id, status: 'pending' } });
    expect(new Date(resent.body.invitation.expiresAt).getTime()).toBeGreaterThan(Date.now() + 6.9 * 86_400_000);
    const fresh = await lastLink();
    expect(fresh).not.toBe(token);
    await h.call('get', `/api/invitations/${token}`).expect(404);
    await h.call('get', `/api/invitations/${fresh}`).expect(200);
  });

  it('on resend adds the person directly once the address has an account', async () => {
    const res = await invite({ email: 'joined-later@example.com', role: 'viewer' }).expect(201);
    const token = await lastLink();
    const person = await h.register({ email: 'joined-later@example.com', displayName: 'Later' });
    const resent = await h.call('post', `/api/invitations/${res.body.invitation.id}/resend`, as(ada)).expect(200);
    expect(resent.body).toEqual({ userExists: true, collaborator: expect.objectContaining({ userId: person.userId, role: 'viewer' }) });
    await h.call('get', `/api/invitations/${token}`).expect(404);
    expect((await h.call('post', `/api/invitations/${res.body.invitation.id}/resend`, as(ada)).expect(409)).body.message).toBe('This invitation is no longer pending');
  });

  it('cancels and declines', async () => {
    const cancelled = await invite({ email: 'cancel-me@example.com' }).expect(201);
    const cancelToken = await lastLink();
    await h.call('delete', `/api/invitations/${cancelled.body.invitation.id}`, as(ada)).expect(204);
    await h.call('get', `/api/invitations/${cancelToken}`).expect(404);
    expect((await h.call('delete', `/api/invitations/${cancelled.body.invitation.id}`, as(ada)).expect(409)).body.message).toBe('This invitation is no longer pending');
    expect((await h.events(TimelinesEvents.InvitationCancelled)).at(-1)).toMatchObject({ invitationId: cancelled.body.invitation.id, timelineId });

    const declined = await invite({ email: 'no-thanks@example.com' }).expect(201);
    const declineToken = await lastLink();
    await h.call('post', `/api/invitations/${declineToken}/decline`).expect(204);
    await h.call('get', `/api/invitations/${declineToken}`).expect(404);
    const [row] = await h.query('SELECT status FROM invitations WHERE id = $1', [declined.body.invitation.id]);
    expect(row).toEqual({ status: 'declined' });
    expect((await h.events(TimelinesEvents.InvitationDeclined)).at(-1)).toMatchObject({ invitationId: declined.body.invitation.id, timelineId });

    const open = ((await h.call('get', `/api/timelines/${timelineId}/invitations`, as(ada)).expect(200)).body as Array<{ email: string }>).map((i) => i.email);
    expect(open).not.toContain('cancel-me@example.com');
    expect(open).not.toContain('no-thanks@example.com');
  });

  it('changes nothing when the e-mail cannot be sent', async () => {
    const before = await h.query('SELECT (SELECT count(*) FROM invitations) AS i, (SELECT count(*) FROM outbox) AS e');
    mailFails = true;
    try {
      const res = await invite({ email: 'unreachable@example.com' }).expect(503);
      expect(res.body.message).toBe('The invitation e-mail could not be sent. Please try again.');
    } finally {
      mailFails = false;
    }
    expect(await h.query('SELECT (SELECT count(*) FROM invitations) AS i, (SELECT count(*) FROM outbox) AS e')).toEqual(before);
  });
});
