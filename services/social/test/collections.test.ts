import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { randomUUID } from 'node:crypto';
import { TimelinesEvents, type TimelineSnapshot, TimelineStatus, Visibility } from '@timeliner/proto';
import { type As, type SocialHarness, startHarness, waitFor, type World } from './harness.js';

/** Collections and saved items against a real Postgres, with the stand-in timelines service of harness.ts. */
describe('collections and bookmarks', () => {
  let h: SocialHarness;
  let w: World;
  let owner: As;
  let stranger: As;

  beforeAll(async () => {
    h = await startHarness('socialcollections');
    w = h.world;
    owner = { userId: w.owner };
    stranger = { userId: w.stranger };
    await h.register(w.owner, 'owner', 'Olga Owner');
    await h.register(w.stranger, 'stranger', 'Sam Stranger');
    await h.register(w.collaborator, 'collab', 'Cleo Collaborator');
    await snapshot(w.publicTimeline, { title: 'Lisbon', videoCount: 3, duration: 95 });
    await snapshot(w.privateTimeline, { title: 'Secret', visibility: Visibility.PRIVATE });
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => {
    h.setTimelines('answer');
  });

  let revision = 0;
  /** Delivers a TimelineSnapshot (by default public and published, by the owner) and waits until it is applied. */
  async function snapshot(timelineId: string, changes: Partial<Omit<TimelineSnapshot, '$typeName' | '$unknown'>> = {}): Promise<void> {
    revision += 1;
    const id = await h.publish(TimelinesEvents.TimelineSnapshot, {
      timelineId, creatorId: w.owner, creatorName: 'Olga Owner', title: 'A timeline', description: 'About it', visibility: Visibility.PUBLIC,
      status: TimelineStatus.PUBLISHED, videoCount: 1, duration: 10, views: 0n, likesCount: 0, commentsCount: 0, activityScore: 1,
      lastActivityAt: timestampFromDate(new Date()), createdAt: timestampFromDate(new Date()), updatedAt: timestampFromDate(new Date()),
      coverMediaId: '', revision: BigInt(revision), ...changes,
    });
    await waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [id])).length === 1);
  }
  /** A public, published timeline in the read model that everyone may see. */
  const publicTimeline = async (title = 'Open') => {
    const id = randomUUID();
    h.override(id, true);
    await snapshot(id, { title });
    return id;
  };
  const create = async (body: Record<string, unknown> = {}, as: As = owner) =>
    (await h.call('post', '/api/collections', as).send({ name: 'Trips', ...body }).expect(201)).body as { id: string; timelinesCount: number; isPublic: boolean };
  const add = (collectionId: string, timelineId: string, as: As = owner) => h.call('post', `/api/collections/${collectionId}/timelines`, as).send({ timelineId });
  const items = async (collectionId: string, as: As = owner) =>
    ((await h.call('get', `/api/collections/${collectionId}/timelines`, as).expect(200)).body as Array<{ id: string; position: number }>);
  const countOf = async (collectionId: string) =>
    (await h.query<{ count: number; rows: number }>(
      'SELECT timelines_count AS count, (SELECT count(*)::int FROM collection_timelines WHERE collection_id = $1) AS rows FROM collections WHERE id = $1',
      [collectionId],
    ))[0];

  describe('a collection itself', () => {
    it('is made with a trimmed name, public by default, and read back', async () => {
      const res = await h.call('post', '/api/collections', owner).send({ name: '  Road trips  ', description: '  Summer  ' }).expect(201);
      expect(res.body).toEqual({
        id: expect.any(String), userId: w.owner, name: 'Road trips', description: 'Summer', isPublic: true, timelinesCount: 0,
        createdAt: expect.any(String), updatedAt: expect.any(String),
      });
      expect((await h.call('get', `/api/collections/${res.body.id}`).expect(200)).body).toEqual(res.body);
      const blank = await create({ description: '   ', isPublic: false });
      expect(blank).toMatchObject({ description: null, isPublic: false });
    });

    it('lists only the caller\'s own, newest first, page by page', async () => {
      const person = { userId: randomUUID() };
      const made: string[] = [];
      for (const name of ['one', 'two', 'three']) made.push((await create({ name }, person)).id);
      await create({ name: 'not mine' }, stranger);
      const first = await h.call('get', '/api/collections?limit=2', person).expect(200);
      expect(first.body.map((c: { name: string }) => c.name)).toEqual(['three', 'two']);
      const cursor = first.headers['x-next-cursor'] as string;
      expect(cursor).toEqual(expect.any(String));
      const second = await h.call('get', `/api/collections?limit=2&cursor=${cursor}`, person).expect(200);
      expect(second.body.map((c: { id: string }) => c.id)).toEqual([made[0]]);
      expect(second.headers['x-next-cursor']).toBeUndefined();
    });

    it('is changed by its owner only: fields left out stay, null clears the description', async () => {
      const { id } = await create({ description: 'Keep' });
      const renamed = await h.call('put', `/api/collections/${id}`, owner).send({ name: ' Renamed ' }).expect(200);
      expect(renamed.body).toMatchObject({ name: 'Renamed', description: 'Keep', isPublic: true });
      const cleared = await h.call('put', `/api/collections/${id}`, owner).send({ description: null, isPublic: false }).expect(200);
      expect(cleared.body).toMatchObject({ name: 'Renamed', description: null, isPublic: false });
      expect((await h.call('put', `/api/collections/${id}`, owner).send({ name: '  ' }).expect(400)).body.message).toBe('Collection name is required');
      expect((await h.call('put', `/api/collections/${id}`, owner).send({ name: null }).expect(400)).body.message).toBe('Collection name is required');
    });

    it('is 404 to others while private, 403 to change while public, and gone after its owner deletes it', async () => {
      const { id } = await create({ isPublic: false });
      for (const as of [{}, stranger]) expect((await h.call('get', `/api/collections/${id}`, as).expect(404)).body.message).toBe('Collection not found');
      expect((await h.call('put', `/api/collections/${id}`, stranger).send({ name: 'Mine' }).expect(404)).body.message).toBe('Collection not found');
      await h.call('put', `/api/collections/${id}`, owner).send({ isPublic: true }).expect(200);
      await h.call('get', `/api/collections/${id}`, stranger).expect(200);
      expect((await h.call('put', `/api/collections/${id}`, stranger).send({ name: 'Mine' }).expect(403)).body.message).toBe('Only the owner can change this collection');
      await h.call('delete', `/api/collections/${id}`, stranger).expect(403);
      await add(id, w.publicTimeline).expect(201);
      await h.call('delete', `/api/collections/${id}`, owner).expect(204);
      await h.call('get', `/api/collections/${id}`, owner).expect(404);
      expect(await h.query('SELECT 1 FROM collection_timelines WHERE collection_id = $1', [id])).toEqual([]);
    });
  });

  describe('timelines in a collection', () => {
    it('adds a timeline once (201, then 200 with the same item), at the end, with its summary', async () => {
      const { id } = await create();
      const first = await add(id, w.publicTimeline.toUpperCase()).expect(201);
      expect(first.body).toEqual({
        id: w.publicTimeline, title: 'Lisbon', description: 'About it', videoCount: 3, duration: 95, creatorId: w.owner, creatorName: 'Olga Owner',
        coverMediaId: null, addedAt: expect.any(String), position: 0,
      });
      const again = await add(id, w.publicTimeline).expect(200);
      expect(again.body).toEqual(first.body);
      expect(await countOf(id)).toEqual({ count: 1, rows: 1 });
      const other = await publicTimeline();
      expect((await add(id, other).expect(201)).body.position).toBe(1);
      expect(await countOf(id)).toEqual({ count: 2, rows: 2 });
    });

    it('adds only a timeline the caller may see', async () => {
      const { id } = await create({}, stranger);
      for (const timelineId of [w.privateTimeline, w.missingTimeline, 'not-a-uuid']) {
        expect((await add(id, timelineId, stranger).expect(timelineId === 'not-a-uuid' ? 400 : 404)).body.message).toBe(timelineId === 'not-a-uuid' ? 'timelineId must be an id' : 'Timeline not found');
      }
      expect(await countOf(id)).toEqual({ count: 0, rows: 0 });
    });

    it('leaves out, without a hole, what the viewer may not see, asking the timelines service only about those that are not public', async () => {
      const { id } = await create();
      await add(id, w.privateTimeline).expect(201);
      await add(id, w.publicTimeline).expect(201);
      expect((await items(id)).map((t) => t.id)).toEqual([w.privateTimeline, w.publicTimeline]);
      h.asked.length = 0;
      expect((await items(id, stranger)).map((t) => [t.id, t.position])).toEqual([[w.publicTimeline, 1]]);
      expect(await items(id, {})).toHaveLength(1);
      expect((await items(id, { userId: w.collaborator })).map((t) => t.id)).toEqual([w.privateTimeline, w.publicTimeline]);
      expect(h.asked.map((a) => a.timelineId)).toEqual([w.privateTimeline, w.privateTimeline, w.privateTimeline]);
      h.setTimelines('fail');
      expect((await h.call('get', `/api/collections/${id}/timelines`, stranger).expect(503)).body.message).toBe('Timelines service unavailable');
    });

    it('reorders with exactly the collection\'s timelines', async () => {
      const { id } = await create();
      const ids = [await publicTimeline('a'), await publicTimeline('b'), await publicTimeline('c')];
      for (const t of ids) await add(id, t).expect(201);
      await h.call('delete', `/api/collections/${id}/timelines/${ids[0]}`, owner).expect(204);
      await add(id, ids[0]!).expect(201);
      const order = (timelineIds: string[]) => h.call('put', `/api/collections/${id}/timelines/order`, owner).send({ timelineIds });
      const mismatch = 'The order must list every timeline of the collection once';
      for (const wrong of [[ids[2]!, ids[1]!], [ids[2]!, ids[1]!, ids[1]!], [ids[2]!, ids[1]!, ids[0]!, randomUUID()], [ids[2]!, ids[1]!, randomUUID()]]) {
        expect((await order(wrong).expect(400)).body.message).toBe(mismatch);
      }
      const reordered = await order([ids[2]!, ids[0]!.toUpperCase(), ids[1]!]).expect(200);
      expect(reordered.body.map((t: { id: string; position: number }) => [t.id, t.position])).toEqual([[ids[2], 0], [ids[0], 1], [ids[1], 2]]);
      expect((await items(id, {})).map((t) => t.id)).toEqual([ids[2], ids[0], ids[1]]);
      expect((await order([ids[2]!]).expect(400)).body.message).toBe(mismatch);
    });

    it('removes idempotently, counting down once', async () => {
      const { id } = await create();
      await add(id, w.publicTimeline).expect(201);
      await h.call('delete', `/api/collections/${id}/timelines/${w.publicTimeline}`, owner).expect(204);
      await h.call('delete', `/api/collections/${id}/timelines/${w.publicTimeline}`, owner).expect(204);
      expect(await countOf(id)).toEqual({ count: 0, rows: 0 });
    });

    it('keeps the count exact and positions distinct under concurrent adds and removes', async () => {
      const { id } = await create();
      const ids = await Promise.all(Array.from({ length: 8 }, (_, i) => publicTimeline(`t${i}`)));
      await Promise.all([...ids, ...ids].map((t) => add(id, t)));
      expect(await countOf(id)).toEqual({ count: 8, rows: 8 });
      expect((await items(id)).map((t) => t.position).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      await Promise.all([...ids.slice(0, 4), ...ids.slice(0, 4)].map((t) => h.call('delete', `/api/collections/${id}/timelines/${t}`, owner)));
      expect(await countOf(id)).toEqual({ count: 4, rows: 4 });
    });

    it('says for a timeline which of the caller\'s collections hold it', async () => {
      const person = { userId: randomUUID() };
      const a = await create({ name: 'A' }, person);
      const b = await create({ name: 'B' }, person);
      await add(a.id, w.publicTimeline, person).expect(201);
      const sheet = await h.call('get', `/api/timelines/${w.publicTimeline}/collections`, person).expect(200);
      expect(sheet.body.map((c: { id: string; contains: boolean }) => [c.id, c.contains])).toEqual([[b.id, false], [a.id, true]]);
      expect((await h.call('get', `/api/timelines/${w.privateTimeline}/collections`, person).expect(404)).body.message).toBe('Timeline not found');
      await h.call('get', `/api/timelines/${w.publicTimeline}/collections`).expect(401);
    });

    it('drops a deleted timeline from every collection, with the counts, and never takes it back', async () => {
      const gone = await publicTimeline('Doomed');
      const kept = await publicTimeline('Kept');
      const a = await create();
      const b = await create({}, stranger);
      await add(a.id, gone).expect(201);
      await add(a.id, kept).expect(201);
      await add(b.id, gone, stranger).expect(201);
      const eventId = await h.publish(TimelinesEvents.TimelineDeleted, { timelineId: gone, creatorId: w.owner });
      await waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [eventId])).length === 1);
      expect(await countOf(a.id)).toEqual({ count: 1, rows: 1 });
      expect(await countOf(b.id)).toEqual({ count: 0, rows: 0 });
      // The stand-in still says it can be seen: the deletion, seen here, wins.
      expect((await add(b.id, gone, stranger).expect(404)).body.message).toBe('Timeline not found');
      expect(await countOf(b.id)).toEqual({ count: 0, rows: 0 });
      // Redelivered: nothing more changes.
      await h.publish(TimelinesEvents.TimelineDeleted, { timelineId: gone, creatorId: w.owner }, eventId);
      const again = await h.publish(TimelinesEvents.TimelineDeleted, { timelineId: gone, creatorId: w.owner });
      await waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [again])).length === 1);
      expect(await countOf(a.id)).toEqual({ count: 1, rows: 1 });
    });
  });

  describe('saved items', () => {
    it('lists bookmarked posts and timelines, newest first, page by page, leaving out timelines no longer visible', async () => {
      const person = { userId: randomUUID() };
      const post = (await h.call('post', '/api/posts', owner).send({ content: 'Worth keeping' }).expect(201)).body.id as string;
      const hidden = await publicTimeline('Soon private');
      await h.call('post', `/api/timelines/${w.publicTimeline}/bookmark`, person).expect(200);
      await h.call('post', `/api/posts/${post}/bookmark`, person).expect(200);
      await h.call('post', `/api/timelines/${hidden}/bookmark`, person).expect(200);
      const all = await h.call('get', '/api/bookmarks', person).expect(200);
      expect(all.body.map((b: { type: string; id: string }) => [b.type, b.id])).toEqual([['timeline', hidden], ['post', post], ['timeline', w.publicTimeline]]);
      expect(all.body[1]).toMatchObject({ post: { id: post, content: 'Worth keeping', bookmarked: true, user: { username: 'owner' } } });
      expect(all.body[2]).toMatchObject({ bookmarkedAt: expect.any(String), timeline: { id: w.publicTimeline, title: 'Lisbon', videoCount: 3 } });

      await snapshot(hidden, { title: 'Soon private', visibility: Visibility.PRIVATE });
      h.override(hidden, false);
      const first = await h.call('get', '/api/bookmarks?limit=2', person).expect(200);
      expect(first.body.map((b: { id: string }) => b.id)).toEqual([post]);
      const second = await h.call('get', `/api/bookmarks?limit=2&cursor=${first.headers['x-next-cursor'] as string}`, person).expect(200);
      expect(second.body.map((b: { id: string }) => b.id)).toEqual([w.publicTimeline]);
      expect(second.headers['x-next-cursor']).toBeUndefined();
      await h.call('get', '/api/bookmarks').expect(401);
    });
  });
});
