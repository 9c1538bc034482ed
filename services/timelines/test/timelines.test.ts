import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { AuthEvents, CollaboratorRole, SocialEvents, TimelinesEvents, TimelineStatus, Visibility } from '@timeliner/proto';
import { as, type Person, startHarness, type TimelinesHarness } from './harness.js';

interface TimelineJson {
  id: string;
  title: string;
  description: string | null;
  visibility: string;
  status: string;
  isPublic: boolean;
  creatorId: string;
  creatorName: string;
  views: number;
  commentsCount: number;
  lastCommentAt: string | null;
  updatedAt: string;
  lastActivityAt: string;
  activityScore: number;
  role: string | null;
}

describe('timelines', () => {
  let h: TimelinesHarness;
  let ada: Person;
  let bob: Person;

  const create = async (owner: Person, body: Record<string, unknown>) => (await h.call('post', '/api/timelines', as(owner)).send(body).expect(201)).body as TimelineJson;
  const published = async (owner: Person, title: string, visibility = 'public') => {
    const t = await create(owner, { title, visibility });
    return (await h.call('patch', `/api/timelines/${t.id}`, as(owner)).send({ status: 'published' }).expect(200)).body as TimelineJson;
  };
  const listIds = async (who?: Person, query = '') => ((await h.call('get', `/api/timelines${query}`, who ? as(who) : {}).expect(200)).body as TimelineJson[]).map((t) => t.id);

  beforeAll(async () => {
    h = await startHarness('timelines');
    ada = await h.register({ displayName: 'Ada Lovelace' });
    bob = await h.register({ displayName: 'Bob' });
  });
  afterAll(async () => {
    await h.close();
  });

  describe('create', () => {
    it('creates a private draft owned by the caller, named from the users read model', async () => {
      const res = await h.call('post', '/api/timelines', as(ada)).send({ title: '  Lisbon trip  ', description: 'Five days' }).expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        title: 'Lisbon trip',
        description: 'Five days',
        visibility: 'private',
        status: 'draft',
        isPublic: false,
        creatorId: ada.userId,
        creatorName: 'Ada Lovelace',
        views: 0,
        likesCount: 0,
        commentsCount: 0,
        videoCount: 0,
        imageCount: 0,
        duration: 0,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        lastContentAddedAt: null,
        lastCommentAt: null,
        lastLikeAt: null,
        lastActivityAt: res.body.createdAt,
        activityScore: expect.any(Number),
        thumbnailUrl: null,
        sensitive: false,
        removedByModerators: false,
        role: 'owner',
      });
      const [owner] = await h.query('SELECT user_id, user_name, role, status FROM collaborators WHERE timeline_id = $1', [res.body.id]);
      expect(owner).toEqual({ user_id: ada.userId, user_name: 'Ada Lovelace', role: 'owner', status: 'active' });
      const created = (await h.events(TimelinesEvents.TimelineCreated)).find((e) => e.timelineId === res.body.id);
      expect(created).toMatchObject({ creatorId: ada.userId, title: 'Lisbon trip', description: 'Five days', visibility: Visibility.PRIVATE, status: TimelineStatus.DRAFT });
    });

    it("names a creator the read model does not know yet 'Unknown User', until their registration arrives", async () => {
      const newcomer = { userId: '0b9e7f0e-6f7a-4d4b-9c55-3a1d2f9e8a01', sessionId: '0b9e7f0e-6f7a-4d4b-9c55-3a1d2f9e8a02' };
      const t = await h.call('post', '/api/timelines', as(newcomer)).send({ title: 'Early' }).expect(201);
      expect(t.body.creatorName).toBe('Unknown User');
      await h.publish(AuthEvents.UserRegistered, { userId: newcomer.userId, username: 'early_bird', displayName: 'Early Bird', email: 'early@example.com' });
      await h.waitFor(async () => (await h.call('get', `/api/timelines/${t.body.id}`, as(newcomer))).body.creatorName === 'Early Bird');
    });
  });

  describe('read and change', () => {
    it('answers 404 for an unknown or malformed id', async () => {
      expect((await h.call('get', '/api/timelines/00000000-0000-4000-8000-000000000000', as(ada)).expect(404)).body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Timeline not found' });
      await h.call('get', '/api/timelines/not-a-uuid', as(ada)).expect(404);
    });

    it('edits title, description and visibility, keeping isPublic in step, with one event of what changed', async () => {
      const t = await create(ada, { title: 'Draft', description: 'old' });
      const res = await h.call('patch', `/api/timelines/${t.id}`, as(ada)).send({ title: 'Final', description: null, visibility: 'public' }).expect(200);
      expect(res.body).toMatchObject({ title: 'Final', description: null, visibility: 'public', isPublic: true, status: 'draft', role: 'owner' });
      expect(new Date(res.body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(t.updatedAt).getTime());
      const updates = (await h.events(TimelinesEvents.TimelineUpdated)).filter((e) => e.timelineId === t.id);
      expect(updates).toEqual([expect.objectContaining({ title: 'Final', description: '', visibility: Visibility.PUBLIC })]);

      await h.call('patch', `/api/timelines/${t.id}`, as(ada)).send({ visibility: 'unlisted' }).expect(200);
      const [row] = await h.query('SELECT visibility, is_public FROM timelines WHERE id = $1', [t.id]);
      expect(row).toEqual({ visibility: 'unlisted', is_public: false });
      // An empty change changes nothing and says nothing.
      await h.call('patch', `/api/timelines/${t.id}`, as(ada)).send({ visibility: 'unlisted' }).expect(200);
      expect((await h.events(TimelinesEvents.TimelineUpdated)).filter((e) => e.timelineId === t.id)).toHaveLength(2);
    });

    it('publishes and unpublishes with their events', async () => {
      const t = await create(ada, { title: 'Show', visibility: 'public' });
      await h.call('patch', `/api/timelines/${t.id}`, as(ada)).send({ status: 'published' }).expect(200);
      await h.call('patch', `/api/timelines/${t.id}`, as(ada)).send({ status: 'draft' }).expect(200);
      expect((await h.events(TimelinesEvents.TimelinePublished)).filter((e) => e.timelineId === t.id)).toHaveLength(1);
      expect((await h.events(TimelinesEvents.TimelineUnpublished)).filter((e) => e.timelineId === t.id)).toHaveLength(1);
      expect((await h.events(TimelinesEvents.TimelineUpdated)).filter((e) => e.timelineId === t.id)).toHaveLength(0);
      const bad = await h.call('patch', `/api/timelines/${t.id}`, as(ada)).send({ status: 'processing' }).expect(400);
      expect(bad.body.message).toBe('Status must be draft or published');
    });

    it('deletes a timeline with its team and invitations', async () => {
      const t = await create(ada, { title: 'Doomed' });
      await h.call('post', `/api/timelines/${t.id}/invite`, as(ada)).send({ email: bob.email }).expect(200);
      await h.call('post', `/api/timelines/${t.id}/invite`, as(ada)).send({ email: 'nobody-yet@example.com' }).expect(201);
      await h.call('delete', `/api/timelines/${t.id}`, as(ada)).expect(204);
      await h.call('get', `/api/timelines/${t.id}`, as(ada)).expect(404);
      const [left] = await h.query<{ c: string; i: string }>('SELECT (SELECT count(*) FROM collaborators WHERE timeline_id = $1) AS c, (SELECT count(*) FROM invitations WHERE timeline_id = $1) AS i', [t.id]);
      expect(left).toEqual({ c: '0', i: '0' });
      expect((await h.events(TimelinesEvents.TimelineDeleted)).filter((e) => e.timelineId === t.id)).toEqual([expect.objectContaining({ creatorId: ada.userId })]);
    });
  });

  describe('lists', () => {
    let carol: Person;
    let mine: { priv: TimelineJson; unlisted: TimelineJson; pub: TimelineJson; draft: TimelineJson };

    beforeAll(async () => {
      carol = await h.register({ displayName: 'Carol' });
      mine = {
        priv: await published(carol, 'Carol private', 'private'),
        unlisted: await published(carol, 'Carol unlisted', 'unlisted'),
        pub: await published(carol, 'Carol public', 'public'),
        draft: await create(carol, { title: 'Carol draft', visibility: 'public' }),
      };
    });

    it('shows others only published public timelines; the owner and collaborators see theirs too', async () => {
      const forOwner = await listIds(carol);
      expect(forOwner).toEqual(expect.arrayContaining([mine.priv.id, mine.unlisted.id, mine.pub.id, mine.draft.id]));
      for (const other of [undefined, bob]) {
        const ids = await listIds(other);
        expect(ids).toContain(mine.pub.id);
        expect(ids).not.toContain(mine.priv.id);
        expect(ids).not.toContain(mine.unlisted.id);
        expect(ids).not.toContain(mine.draft.id);
      }
      await h.call('post', `/api/timelines/${mine.priv.id}/invite`, as(carol)).send({ email: bob.email, role: 'viewer' }).expect(200);
      expect(await listIds(bob)).toContain(mine.priv.id);
      const entry = ((await h.call('get', '/api/timelines', as(bob))).body as TimelineJson[]).find((t) => t.id === mine.priv.id);
      expect(entry?.role).toBe('viewer');
    });

    it('my-timelines lists owned and shared timelines, most recently updated first', async () => {
      await h.call('patch', `/api/timelines/${mine.unlisted.id}`, as(carol)).send({ title: 'Carol unlisted, renamed' }).expect(200);
      const res = await h.call('get', '/api/my-timelines', as(carol)).expect(200);
      const titles = (res.body as TimelineJson[]).map((t) => t.title);
      expect(titles[0]).toBe('Carol unlisted, renamed');
      expect(titles).toHaveLength(4);
      expect(res.body[0]).toMatchObject({ role: 'owner', videoCount: 0, duration: 0, views: 0 });
      const bobs = (await h.call('get', '/api/my-timelines', as(bob)).expect(200)).body as TimelineJson[];
      expect(bobs.find((t) => t.id === mine.priv.id)?.role).toBe('viewer');
    });

    it('pages with a keyset cursor in the X-Next-Cursor header, in the same order as one page', async () => {
      const all = await listIds(carol, '?limit=100');
      const paged: string[] = [];
      let cursor: string | undefined;
      do {
        const res = await h.call('get', `/api/timelines?limit=2${cursor ? `&cursor=${cursor}` : ''}`, as(carol)).expect(200);
        expect(res.body.length).toBeLessThanOrEqual(2);
        paged.push(...(res.body as TimelineJson[]).map((t) => t.id));
        cursor = res.headers['x-next-cursor'];
      } while (cursor);
      expect(paged).toEqual(all);

      const mineAll = (await h.call('get', '/api/my-timelines', as(carol))).body as TimelineJson[];
      const first = await h.call('get', '/api/my-timelines?limit=3', as(carol)).expect(200);
      const rest = await h.call('get', `/api/my-timelines?limit=3&cursor=${first.headers['x-next-cursor']}`, as(carol)).expect(200);
      expect([...first.body, ...rest.body].map((t: TimelineJson) => t.id)).toEqual(mineAll.map((t) => t.id));
      expect(rest.headers['x-next-cursor']).toBeUndefined();
    });

    it('rejects bad paging parameters', async () => {
      expect((await h.call('get', '/api/timelines?limit=101').expect(400)).body.message).toBe('Limit must be a whole number from 1 to 100');
      expect((await h.call('get', '/api/timelines?limit=abc').expect(400)).body.message).toBe('Limit must be a whole number from 1 to 100');
      expect((await h.call('get', '/api/timelines?cursor=garbage').expect(400)).body.message).toBe('Invalid cursor');
      expect((await h.call('get', '/api/timelines?sort=views').expect(400)).body.message).toBe('Unknown field: sort');
    });
  });

  describe('feed order and activity', () => {
    it('orders by activity score when scores differ, else by newest activity', async () => {
      const dana = await h.register();
      const a = await published(dana, 'A');
      const b = await published(dana, 'B');
      const c = await published(dana, 'C');
      const order = async () => (await listIds(dana, '?limit=100')).filter((id) => [a.id, b.id, c.id].includes(id));
      // Equal engagement: newest activity first.
      expect(await order()).toEqual([c.id, b.id, a.id]);

      // Three views: +2 points for A.
      for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
        await h.call('post', `/api/timelines/${a.id}/views`, { ip }).send({ watchTime: 10, completion: 0.5 }).expect(204);
      }
      expect(await order()).toEqual([a.id, c.id, b.id]);

      // A comment on B: +3 points, and B's activity time moves.
      const at = new Date(Date.now() + 1000);
      await h.publish(SocialEvents.TimelineCommentAdded, { commentId: '7d1f2c3a-0000-4000-8000-000000000001', timelineId: b.id, userId: dana.userId, createdAt: timestampFromDate(at) });
      await h.waitFor(async () => (await order())[0] === b.id);
      const detail = (await h.call('get', `/api/timelines/${b.id}`, as(dana))).body as TimelineJson;
      expect(detail).toMatchObject({ commentsCount: 1, lastCommentAt: at.toISOString(), lastActivityAt: at.toISOString() });
      expect(detail.activityScore).toBeGreaterThan((await h.call('get', `/api/timelines/${a.id}`, as(dana))).body.activityScore);
    });

    it('counts a comment once however often its event arrives, and uncounts it when deleted', async () => {
      const t = await published(ada, 'Talked about');
      const commentId = '7d1f2c3a-0000-4000-8000-000000000002';
      const eventId = '5e0c8a1b-0000-4000-8000-000000000002';
      await h.publish(SocialEvents.TimelineCommentAdded, { commentId, timelineId: t.id, userId: bob.userId, createdAt: timestampFromDate(new Date()) }, eventId);
      await h.publish(SocialEvents.TimelineCommentAdded, { commentId, timelineId: t.id, userId: bob.userId, createdAt: timestampFromDate(new Date()) }, eventId);
      await h.waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [eventId])).length === 1);
      await h.publish(SocialEvents.TimelineCommentAdded, { commentId: '7d1f2c3a-0000-4000-8000-000000000003', timelineId: t.id, userId: bob.userId });
      await h.waitFor(async () => (await h.call('get', `/api/timelines/${t.id}`, as(ada))).body.commentsCount === 2);
      await h.publish(SocialEvents.TimelineCommentDeleted, { commentId, timelineId: t.id });
      await h.waitFor(async () => (await h.call('get', `/api/timelines/${t.id}`, as(ada))).body.commentsCount === 1);
      // A comment on a timeline that is gone changes nothing and does not block the stream.
      await h.publish(SocialEvents.TimelineCommentAdded, { commentId: '7d1f2c3a-0000-4000-8000-000000000004', timelineId: '00000000-0000-4000-8000-000000000000', userId: bob.userId });
    });
  });

  describe('collaborators and ownership', () => {
    it('lists the team owner first, removes collaborators but not the owner', async () => {
      const t = await create(ada, { title: 'Team' });
      const editor = await h.register({ displayName: 'Eddie' });
      const viewer = await h.register({ displayName: 'Vera' });
      await h.call('post', `/api/timelines/${t.id}/invite`, as(ada)).send({ email: editor.email }).expect(200);
      await h.call('post', `/api/timelines/${t.id}/invite`, as(ada)).send({ email: viewer.email.toUpperCase(), role: 'viewer' }).expect(200);
      const team = await h.call('get', `/api/timelines/${t.id}/collaborators`, as(viewer)).expect(200);
      expect(team.body).toEqual([
        { id: expect.any(String), userId: ada.userId, userName: 'Ada Lovelace', role: 'owner', status: 'active', joinedAt: expect.any(String) },
        { id: expect.any(String), userId: editor.userId, userName: 'Eddie', role: 'editor', status: 'active', joinedAt: expect.any(String) },
        { id: expect.any(String), userId: viewer.userId, userName: 'Vera', role: 'viewer', status: 'active', joinedAt: expect.any(String) },
      ]);
      const added = (await h.events(TimelinesEvents.CollaboratorAdded)).filter((e) => e.timelineId === t.id);
      expect(added).toEqual([
        expect.objectContaining({ userId: editor.userId, role: CollaboratorRole.EDITOR, invitationId: '' }),
        expect.objectContaining({ userId: viewer.userId, role: CollaboratorRole.VIEWER }),
      ]);

      expect((await h.call('delete', `/api/timelines/${t.id}/collaborators/${ada.userId}`, as(ada)).expect(400)).body.message).toBe('The owner cannot be removed');
      // The same ids written in upper case are the same people and the same timeline.
      expect((await h.call('delete', `/api/timelines/${t.id.toUpperCase()}/collaborators/${ada.userId.toUpperCase()}`, as(ada)).expect(400)).body.message).toBe('The owner cannot be removed');
      expect((await h.call('get', `/api/timelines/${t.id}/collaborators`, as(ada)).expect(200)).body).toHaveLength(3);
      await h.call('delete', `/api/timelines/${t.id}/collaborators/${viewer.userId.toUpperCase()}`, as(ada)).expect(204);
      expect((await h.call('delete', `/api/timelines/${t.id}/collaborators/${viewer.userId}`, as(ada)).expect(404)).body.message).toBe('Collaborator not found');
      await h.call('get', `/api/timelines/${t.id}`, as(viewer)).expect(404);
      expect((await h.events(TimelinesEvents.CollaboratorRemoved)).filter((e) => e.timelineId === t.id)).toEqual([expect.objectContaining({ userId: viewer.userId })]);
    });

    it('transfers ownership to a collaborator; the previous owner becomes an editor', async () => {
      const t = await create(ada, { title: 'Heirloom' });
      expect((await h.call('post', `/api/timelines/${t.id}/transfer-ownership`, as(ada)).send({ newOwnerId: bob.userId }).expect(400)).body.message).toBe('The new owner must be a collaborator');
      // One's own id in upper case is still one's own id, not a collaborator to hand the timeline to.
      expect((await h.call('post', `/api/timelines/${t.id}/transfer-ownership`, as(ada)).send({ newOwnerId: ada.userId.toUpperCase() }).expect(400)).body.message).toBe('You already own this timeline');
      await h.call('post', `/api/timelines/${t.id}/invite`, as(ada)).send({ email: bob.email }).expect(200);
      const res = await h.call('post', `/api/timelines/${t.id}/transfer-ownership`, as(ada)).send({ newOwnerId: bob.userId.toUpperCase() }).expect(200);
      expect(res.body.timeline).toMatchObject({ id: t.id, creatorId: bob.userId, creatorName: 'Bob', role: 'editor' });
      const team = (await h.call('get', `/api/timelines/${t.id}/collaborators`, as(bob)).expect(200)).body as Array<{ userId: string; role: string }>;
      expect(team.map((c) => [c.userId, c.role])).toEqual([[bob.userId, 'owner'], [ada.userId, 'editor']]);
      // Ada cannot undo it, and Bob now decides.
      await h.call('patch', `/api/timelines/${t.id}`, as(ada)).send({ title: 'Mine again' }).expect(403);
      await h.call('patch', `/api/timelines/${t.id}`, as(bob)).send({ title: 'Bob’s now' }).expect(200);
      expect((await h.events(TimelinesEvents.OwnershipTransferred)).filter((e) => e.timelineId === t.id)).toEqual([
        expect.objectContaining({ previousOwnerId: ada.userId, newOwnerId: bob.userId }),
      ]);
    });
  });

  it('follows renames from the auth service into creator and collaborator names', async () => {
    const t = await create(ada, { title: 'Names' });
    await h.call('post', `/api/timelines/${t.id}/invite`, as(ada)).send({ email: bob.email }).expect(200);
    await h.publish(AuthEvents.UserUpdated, { userId: bob.userId, displayName: 'Robert' });
    await h.publish(AuthEvents.UserUpdated, { userId: ada.userId, displayName: 'Countess Ada' });
    await h.waitFor(async () => (await h.call('get', `/api/timelines/${t.id}`, as(ada))).body.creatorName === 'Countess Ada');
    const team = (await h.call('get', `/api/timelines/${t.id}/collaborators`, as(ada))).body as Array<{ userName: string }>;
    expect(team.map((c) => c.userName)).toEqual(['Countess Ada', 'Robert']);
  });
});
