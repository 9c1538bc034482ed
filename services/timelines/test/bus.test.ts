import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { type BusMessage, requestRpc } from '@timeliner/platform';
import { randomUUID } from 'node:crypto';
import { AuthEvents, CollaboratorRole, SocialEvents, TimelinesEvents, TimelinesRpc, Visibility } from '@timeliner/proto';
import { as, type Person, startHarness, type TimelinesHarness } from './harness.js';

/** The service on the real NATS: the access check others ask, events in and out. */
describe('timelines service on NATS', () => {
  let h: TimelinesHarness;
  let owner: Person;
  let editor: Person;
  let viewer: Person;
  let stranger: Person;
  const seen: BusMessage[] = [];

  const timeline = async (visibility: string, status: 'draft' | 'published') => {
    const { id } = (await h.call('post', '/api/timelines', as(owner)).send({ title: `${visibility} ${status}`, visibility }).expect(201)).body;
    if (status === 'published') await h.call('patch', `/api/timelines/${id}`, as(owner)).send({ status }).expect(200);
    await h.call('post', `/api/timelines/${id}/invite`, as(owner)).send({ email: editor.email, role: 'editor' }).expect(200);
    await h.call('post', `/api/timelines/${id}/invite`, as(owner)).send({ email: viewer.email, role: 'viewer' }).expect(200);
    return id as string;
  };
  const check = (timelineId: string, userId = '') => requestRpc(h.bus, TimelinesRpc.CheckAccess, { timelineId, userId }, { timeoutMs: 2_000 });

  beforeAll(async () => {
    h = await startHarness('tlbus', { nats: true });
    await h.bus.subscribe('timelines.>', (m) => void seen.push(m));
    owner = await h.register();
    editor = await h.register();
    viewer = await h.register();
    stranger = await h.register();
  });
  afterAll(async () => {
    await h.close();
  });

  it('answers CheckAccess from the same policy as the routes', async () => {
    const priv = await timeline('private', 'published');
    const unlisted = await timeline('unlisted', 'published');
    const draft = await timeline('public', 'draft');

    // With what a service announcing something on it puts in its event (visibility, title).
    expect(await check(priv, owner.userId)).toMatchObject({ canView: true, canEdit: true, role: CollaboratorRole.OWNER, ownerId: owner.userId, visibility: Visibility.PRIVATE, title: 'private published' });
    expect(await check(priv, editor.userId)).toMatchObject({ canView: true, canEdit: true, role: CollaboratorRole.EDITOR });
    expect(await check(priv, viewer.userId)).toMatchObject({ canView: true, canEdit: false, role: CollaboratorRole.VIEWER });
    expect(await check(priv, stranger.userId)).toMatchObject({ canView: false, canEdit: false, role: CollaboratorRole.UNSPECIFIED, ownerId: '' });
    expect(await check(priv)).toMatchObject({ canView: false, ownerId: '', visibility: Visibility.UNSPECIFIED });
    expect((await check(priv)).title).toBeUndefined();
    expect(await check(unlisted)).toMatchObject({ canView: true, canEdit: false, ownerId: owner.userId, visibility: Visibility.UNLISTED });
    expect(await check(unlisted, stranger.userId)).toMatchObject({ canView: true, canEdit: false });
    expect(await check(draft, stranger.userId)).toMatchObject({ canView: false });
    expect(await check(draft, viewer.userId)).toMatchObject({ canView: true, canEdit: false });
    expect(await check('00000000-0000-4000-8000-000000000000', owner.userId)).toMatchObject({ canView: false });
    expect(await check("'; DROP TABLE timelines; --", 'not-a-uuid')).toMatchObject({ canView: false });
  });

  it('publishes its events through the outbox with their metadata', async () => {
    const res = await h.call('post', '/api/timelines', as(owner)).send({ title: 'Announced' }).expect(201);
    const requestId = res.headers['x-request-id'];
    await h.waitFor(() => seen.some((m) => m.subject === TimelinesEvents.TimelineCreated.subject && m.meta.requestId === requestId));
    expect(seen.find((m) => m.meta.requestId === requestId)!.meta).toMatchObject({ type: 'timelines.timeline.created', version: 1, actorUserId: owner.userId });
    await h.waitFor(async () => (await h.query('SELECT 1 FROM outbox WHERE dispatched_at IS NULL')).length === 0);
  });

  it('counts comments from the social service delivered through JetStream', async () => {
    const id = await timeline('public', 'published');
    const at = new Date();
    await h.publish(SocialEvents.TimelineCommentAdded, { commentId: '1c0a9b8e-0000-4000-8000-000000000001', timelineId: id, userId: viewer.userId, createdAt: timestampFromDate(at) });
    await h.waitFor(async () => (await h.call('get', `/api/timelines/${id}`)).body.commentsCount === 1);
    expect((await h.call('get', `/api/timelines/${id}`)).body.lastCommentAt).toBe(at.toISOString());
  });

  it('applies a profile change that comes before the registration once the registration is in', async () => {
    const userId = randomUUID();
    const update = await h.publish(AuthEvents.UserUpdated, { userId, displayName: 'Later Name' });
    await new Promise((r) => setTimeout(r, 300));
    expect(await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [update])).toHaveLength(0);
    await h.publish(AuthEvents.UserRegistered, { userId, username: 'early', displayName: 'First Name', email: 'early@example.com' });
    await h.waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [update])).length === 1);
    const [row] = await h.query<{ display_name: string }>('SELECT display_name FROM users WHERE id = $1', [userId]);
    expect(row?.display_name).toBe('Later Name');
  });
});
