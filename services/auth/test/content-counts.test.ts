import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { create, type DescMessage, type MessageInitShape, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { consumeEvents } from '@timeliner/platform';
import {
  type EventDefinition,
  Reaction,
  SocialEvents,
  TargetType,
  TimelinesEvents,
  TimelineStatus,
  Visibility,
} from '@timeliner/proto';
import { DataSource } from 'typeorm';
import { authEventHandlers, CONSUMER_GROUP } from '../src/service.js';
import { type AuthHarness, newUser, startHarness } from './harness.js';

const waitFor = async (check: () => Promise<boolean>, ms = 10_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

interface Counts {
  totalLikes: number;
  totalViews: number;
  timelines: number;
  publicTimelines: number;
}

type ReactionInit = MessageInitShape<typeof SocialEvents.ReactionChanged.schema>;
type SnapshotInit = MessageInitShape<typeof TimelinesEvents.TimelineSnapshot.schema>;

/**
 * totalLikes, totalViews and timelinesCount of profiles come from the social service's
 * ReactionChanged / PostDeleted and the timelines service's TimelineSnapshot / TimelineDeleted:
 * absolute values with versions, so only a newer version changes anything and the counters are
 * always the sums over the stored per-target rows.
 */
describe('profile content counts from events', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startHarness('authcontent');
  });
  afterAll(async () => {
    await h.close();
  });

  const register = async () => {
    const res = await h.call('post', '/api/auth/register').send(newUser()).expect(201);
    const id = res.body.user.id as string;
    const [session] = await h.query<{ id: string }>('SELECT id FROM sessions WHERE user_id = $1', [id]);
    return { id, as: { userId: id, sessionId: session!.id } };
  };

  /** Publishes as the producer's relay would (same id = a redelivery); does not wait. */
  const publish = async <S extends DescMessage>(definition: EventDefinition<S>, payload: MessageInitShape<S>, id: string = randomUUID()) => {
    await h.bus.publish({
      subject: definition.subject,
      meta: { id, type: definition.type, version: definition.version, occurredAt: new Date().toISOString() },
      data: toBinary(definition.schema, create(definition.schema, payload)),
    });
    return id;
  };
  /** Waits until every event id is in the auth group's inbox (applied, or found already applied). */
  const applied = async (ids: string[], ms?: number) => {
    const unique = [...new Set(ids)];
    await waitFor(async () => {
      const [row] = await h.query<{ n: string }>('SELECT count(*) AS n FROM inbox WHERE consumer = $1 AND event_id = ANY($2::uuid[])', [CONSUMER_GROUP, unique]);
      return Number(row!.n) === unique.length;
    }, ms);
  };
  const deliver = async <S extends DescMessage>(definition: EventDefinition<S>, payload: MessageInitShape<S>, id?: string) => {
    const sent = await publish(definition, payload, id);
    await applied([sent]);
    // A redelivery is handled after its first delivery was recorded: let it pass through too.
    if (id) await new Promise((r) => setTimeout(r, 50));
    return sent;
  };

  const like = (targetType: TargetType, targetId: string, ownerId: string, count: number, version: number, extra: { reaction?: Reaction; active?: boolean } = {}): ReactionInit => ({
    targetType,
    targetId,
    timelineId: targetType === TargetType.POST ? '' : targetId,
    ownerId,
    userId: randomUUID(),
    reaction: Reaction.LIKE,
    active: true,
    count: BigInt(count),
    countVersion: BigInt(version),
    at: timestampFromDate(new Date()),
    ...extra,
  });
  const snapshot = (timelineId: string, creatorId: string, revision: number, views: number, visibility: Visibility, status: TimelineStatus): SnapshotInit => ({
    timelineId,
    creatorId,
    creatorName: 'Someone',
    title: 'A timeline',
    visibility,
    status,
    views: BigInt(views),
    revision: BigInt(revision),
  });
  const PUBLIC = Visibility.PUBLIC;
  const PRIVATE = Visibility.PRIVATE;
  const PUBLISHED = TimelineStatus.PUBLISHED;
  const DRAFT = TimelineStatus.DRAFT;

  const counts = async (userId: string): Promise<Counts> => {
    const [row] = await h.query<{ total_likes: string; total_views: string; timelines_count: number; public_timelines_count: number }>(
      'SELECT total_likes, total_views, timelines_count, public_timelines_count FROM users WHERE id = $1',
      [userId],
    );
    return { totalLikes: Number(row!.total_likes), totalViews: Number(row!.total_views), timelines: row!.timelines_count, publicTimelines: row!.public_timelines_count };
  };
  /** The same counts computed afresh from the per-target rows: the counters never drift from them. */
  const recount = async (userId: string): Promise<Counts> => {
    const [likes] = await h.query<{ n: string }>('SELECT coalesce(sum(likes), 0) AS n FROM like_targets WHERE owner_id = $1 AND NOT deleted', [userId]);
    const [tl] = await h.query<{ views: string; all: string; public: string }>(
      'SELECT coalesce(sum(views), 0) AS views, count(*) AS all, count(*) FILTER (WHERE is_public) AS public FROM profile_timelines WHERE creator_id = $1 AND NOT deleted AND revision > 0',
      [userId],
    );
    return { totalLikes: Number(likes!.n), totalViews: Number(tl!.views), timelines: Number(tl!.all), publicTimelines: Number(tl!.public) };
  };
  const expectCounts = async (userId: string, expected: Counts) => {
    expect(await counts(userId)).toEqual(expected);
    expect(await recount(userId)).toEqual(expected);
  };
  const profile = async (of: string, as: { userId: string; sessionId: string }) => (await h.call('get', `/api/users/${of}/profile`, as).expect(200)).body as Record<string, unknown>;

  it('counts likes on posts and timelines, newest version only; repeats, bookmarks and video likes change nothing', async () => {
    const [ada, bob] = [await register(), await register()];
    const [post, timeline] = [randomUUID(), randomUUID()];
    // The post went 1, 2, 1 likes (v1..v3); the timeline 1, 2, 3 (v1..v3). Delivered out of order.
    const sent = [
      like(TargetType.POST, post, ada.id, 1, 1),
      like(TargetType.POST, post, ada.id, 2, 2),
      like(TargetType.POST, post, ada.id, 1, 3, { active: false }),
      like(TargetType.TIMELINE, timeline, ada.id, 1, 1),
      like(TargetType.TIMELINE, timeline, ada.id, 2, 2),
      like(TargetType.TIMELINE, timeline, ada.id, 3, 3),
    ];
    const order = [2, 0, 5, 3, 1, 4];
    const ids: string[] = [];
    for (const i of order) ids.push(await deliver(SocialEvents.ReactionChanged, sent[i]!));
    await expectCounts(ada.id, { totalLikes: 4, totalViews: 0, timelines: 0, publicTimelines: 0 });

    // Redelivered under the same ids, replayed under new ids: nothing moves.
    for (let k = 0; k < 3; k++) await deliver(SocialEvents.ReactionChanged, sent[order[k]!]!, ids[k]);
    for (const change of sent) await deliver(SocialEvents.ReactionChanged, change);
    // Not likes on a post or timeline: bookmarks, video likes, unknown kinds, malformed ids.
    await deliver(SocialEvents.ReactionChanged, like(TargetType.POST, post, ada.id, 9, 99, { reaction: Reaction.BOOKMARK }));
    await deliver(SocialEvents.ReactionChanged, like(TargetType.VIDEO, randomUUID(), ada.id, 7, 1));
    await deliver(SocialEvents.ReactionChanged, like(TargetType.UNSPECIFIED, randomUUID(), ada.id, 7, 1));
    await deliver(SocialEvents.ReactionChanged, like(TargetType.POST, 'not-a-uuid', ada.id, 7, 1));
    await expectCounts(ada.id, { totalLikes: 4, totalViews: 0, timelines: 0, publicTimelines: 0 });

    expect(await profile(ada.id, bob.as)).toMatchObject({ totalLikes: 4, totalViews: 0, timelinesCount: 0 });
    expect(await profile(ada.id, ada.as)).toMatchObject({ totalLikes: 4 });
    await expectCounts(bob.id, { totalLikes: 0, totalViews: 0, timelines: 0, publicTimelines: 0 });
  });

  it('a like reaches the profile from its event alone (no request to another service)', async () => {
    const [ada, bob] = [await register(), await register()];
    await publish(SocialEvents.ReactionChanged, like(TargetType.POST, randomUUID(), ada.id, 3, 1));
    // Usually within tens of milliseconds; the bound is generous so a loaded machine does not fail it.
    await waitFor(async () => (await profile(ada.id, bob.as)).totalLikes === 3, 10_000);
  });

  it('counts timelines and views from the newest snapshot; others see only public published timelines', async () => {
    const [ada, bob] = [await register(), await register()];
    const [open, secret, draft] = [randomUUID(), randomUUID(), randomUUID()];
    // Revisions out of order: the open one went 10 → 20 → 30 views (r1..r3), arriving r3, r1, r2.
    await deliver(TimelinesEvents.TimelineSnapshot, snapshot(open, ada.id, 3, 30, PUBLIC, PUBLISHED));
    const r1 = await deliver(TimelinesEvents.TimelineSnapshot, snapshot(open, ada.id, 1, 10, PRIVATE, DRAFT));
    await deliver(TimelinesEvents.TimelineSnapshot, snapshot(open, ada.id, 2, 20, PUBLIC, DRAFT));
    await deliver(TimelinesEvents.TimelineSnapshot, snapshot(secret, ada.id, 1, 5, PRIVATE, PUBLISHED));
    await deliver(TimelinesEvents.TimelineSnapshot, snapshot(draft, ada.id, 4, 0, PUBLIC, DRAFT));
    await deliver(TimelinesEvents.TimelineSnapshot, snapshot(open, ada.id, 1, 10, PRIVATE, DRAFT), r1);
    await deliver(TimelinesEvents.TimelineSnapshot, snapshot(open, ada.id, 2, 20, PUBLIC, DRAFT));
    await expectCounts(ada.id, { totalLikes: 0, totalViews: 35, timelines: 3, publicTimelines: 1 });

    expect(await profile(ada.id, ada.as)).toMatchObject({ timelinesCount: 3, totalViews: 35 });
    expect(await profile(ada.id, bob.as)).toMatchObject({ timelinesCount: 1, totalViews: 35 });

    // The private one is made public (a newer revision): others now count it too.
    await deliver(TimelinesEvents.TimelineSnapshot, snapshot(secret, ada.id, 2, 6, PUBLIC, PUBLISHED));
    await expectCounts(ada.id, { totalLikes: 0, totalViews: 36, timelines: 3, publicTimelines: 2 });
    expect(await profile(ada.id, bob.as)).toMatchObject({ timelinesCount: 2 });
    expect(await profile(ada.id, ada.as)).toMatchObject({ timelinesCount: 3 });
  });

  it('a deleted post or timeline leaves the counts, and nothing after the deletion brings it back', async () => {
    const [ada] = [await register()];
    const [post, timeline, other] = [randomUUID(), randomUUID(), randomUUID()];
    await deliver(SocialEvents.ReactionChanged, like(TargetType.POST, post, ada.id, 5, 5));
    await deliver(TimelinesEvents.TimelineSnapshot, snapshot(timeline, ada.id, 7, 40, PUBLIC, PUBLISHED));
    await deliver(SocialEvents.ReactionChanged, like(TargetType.TIMELINE, timeline, ada.id, 2, 2));
    await deliver(TimelinesEvents.TimelineSnapshot, snapshot(other, ada.id, 1, 1, PUBLIC, PUBLISHED));
    await expectCounts(ada.id, { totalLikes: 7, totalViews: 41, timelines: 2, publicTimelines: 2 });

    const postGone = await deliver(SocialEvents.PostDeleted, { postId: post, userId: ada.id });
    const timelineGone = await deliver(TimelinesEvents.TimelineDeleted, { timelineId: timeline, creatorId: ada.id });
    await expectCounts(ada.id, { totalLikes: 0, totalViews: 1, timelines: 1, publicTimelines: 1 });

    // Late events: newer like versions, a newer snapshot, the deletions again (redelivered and replayed).
    await deliver(SocialEvents.ReactionChanged, like(TargetType.POST, post, ada.id, 6, 6));
    await deliver(SocialEvents.ReactionChanged, like(TargetType.TIMELINE, timeline, ada.id, 3, 3));
    await deliver(TimelinesEvents.TimelineSnapshot, snapshot(timeline, ada.id, 8, 50, PUBLIC, PUBLISHED));
    await deliver(SocialEvents.PostDeleted, { postId: post, userId: ada.id }, postGone);
    await deliver(TimelinesEvents.TimelineDeleted, { timelineId: timeline, creatorId: ada.id }, timelineGone);
    await deliver(SocialEvents.PostDeleted, { postId: post, userId: ada.id });
    await deliver(TimelinesEvents.TimelineDeleted, { timelineId: timeline, creatorId: ada.id });
    await expectCounts(ada.id, { totalLikes: 0, totalViews: 1, timelines: 1, publicTimelines: 1 });

    // A deletion that overtakes every other event of its post.
    const early = randomUUID();
    await deliver(SocialEvents.PostDeleted, { postId: early, userId: ada.id });
    await deliver(SocialEvents.ReactionChanged, like(TargetType.POST, early, ada.id, 4, 1));
    await expectCounts(ada.id, { totalLikes: 0, totalViews: 1, timelines: 1, publicTimelines: 1 });
  });

  it('a timeline whose creator changes takes its likes, views and count to the new owner', async () => {
    const [ada, bob, cy] = [await register(), await register(), await register()];
    const timeline = randomUUID();
    // Likes before any snapshot: owned as social says.
    await deliver(SocialEvents.ReactionChanged, like(TargetType.TIMELINE, timeline, ada.id, 4, 4));
    await expectCounts(ada.id, { totalLikes: 4, totalViews: 0, timelines: 0, publicTimelines: 0 });
    await deliver(TimelinesEvents.TimelineSnapshot, snapshot(timeline, ada.id, 10, 100, PUBLIC, PUBLISHED));
    await expectCounts(ada.id, { totalLikes: 4, totalViews: 100, timelines: 1, publicTimelines: 1 });

    // Ownership moves to bob (r11); an older snapshot naming ada (r9) arrives afterwards.
    await deliver(TimelinesEvents.TimelineSnapshot, snapshot(timeline, bob.id, 11, 101, PUBLIC, PUBLISHED));
    await deliver(TimelinesEvents.TimelineSnapshot, snapshot(timeline, ada.id, 9, 99, PUBLIC, PUBLISHED));
    await expectCounts(ada.id, { totalLikes: 0, totalViews: 0, timelines: 0, publicTimelines: 0 });
    await expectCounts(bob.id, { totalLikes: 4, totalViews: 101, timelines: 1, publicTimelines: 1 });

    // Social still names ada on a newer like: the snapshot's creator wins.
    await deliver(SocialEvents.ReactionChanged, like(TargetType.TIMELINE, timeline, ada.id, 5, 5));
    await expectCounts(ada.id, { totalLikes: 0, totalViews: 0, timelines: 0, publicTimelines: 0 });
    await expectCounts(bob.id, { totalLikes: 5, totalViews: 101, timelines: 1, publicTimelines: 1 });
    expect(await profile(bob.id, cy.as)).toMatchObject({ totalLikes: 5, totalViews: 101, timelinesCount: 1 });
    expect(await profile(ada.id, cy.as)).toMatchObject({ totalLikes: 0, totalViews: 0, timelinesCount: 0 });

    // A snapshot naming a creator different from what social said before any snapshot moves the likes too.
    const another = randomUUID();
    await deliver(SocialEvents.ReactionChanged, like(TargetType.TIMELINE, another, ada.id, 2, 1));
    await deliver(TimelinesEvents.TimelineSnapshot, snapshot(another, cy.id, 1, 3, PRIVATE, PUBLISHED));
    await expectCounts(ada.id, { totalLikes: 0, totalViews: 0, timelines: 0, publicTimelines: 0 });
    await expectCounts(cy.id, { totalLikes: 2, totalViews: 3, timelines: 1, publicTimelines: 0 });
    expect(await profile(cy.id, cy.as)).toMatchObject({ timelinesCount: 1 });
    expect(await profile(cy.id, bob.as)).toMatchObject({ timelinesCount: 0 });
  });

  it('many events for the same people handled in parallel, shuffled and repeated, add up exactly', async () => {
    const [ada, bob, viewer] = [await register(), await register(), await register()];
    // A replica of the consumer group with 8 handlers at once, beside the service's own.
    const dataSource = h.service.app.get(DataSource);
    const replica = await consumeEvents(h.bus, { durable: CONSUMER_GROUP, dataSource, concurrency: 8 }, authEventHandlers);
    try {
      const events: Array<(id?: string) => Promise<string>> = [];
      const ids: string[] = [];
      const expected = new Map<string, Counts>([ada.id, bob.id].map((id) => [id, { totalLikes: 0, totalViews: 0, timelines: 0, publicTimelines: 0 }]));
      const add = (userId: string, c: Partial<Counts>) => {
        const e = expected.get(userId)!;
        for (const key of Object.keys(c) as Array<keyof Counts>) e[key] += c[key]!;
      };

      // 12 posts of ada's, each liked up to 1..8 times; every 4th one deleted at the end.
      for (let p = 0; p < 12; p++) {
        const post = randomUUID();
        const versions = 1 + (p % 8);
        for (let v = 1; v <= versions; v++) {
          const change = like(TargetType.POST, post, ada.id, v * 2 - (v % 3), v);
          events.push((id) => publish(SocialEvents.ReactionChanged, change, id));
        }
        if (p % 4 === 3) events.push((id) => publish(SocialEvents.PostDeleted, { postId: post, userId: ada.id }, id));
        else add(ada.id, { totalLikes: versions * 2 - (versions % 3) });
      }
      // 8 timelines passed back and forth between ada and bob: their likes, views and counts follow
      // the newest snapshot's creator; one of them is deleted.
      for (let t = 0; t < 8; t++) {
        const timeline = randomUUID();
        const revisions = 3 + t;
        for (let r = 1; r <= revisions; r++) {
          const creator = r % 2 === 0 ? bob.id : ada.id;
          const visibility = r % 3 === 0 ? PRIVATE : PUBLIC;
          events.push((id) => publish(TimelinesEvents.TimelineSnapshot, snapshot(timeline, creator, r, r * 10, visibility, PUBLISHED), id));
        }
        const likes = 2 + t;
        for (let v = 1; v <= likes; v++) events.push((id) => publish(SocialEvents.ReactionChanged, like(TargetType.TIMELINE, timeline, ada.id, v, v), id));
        if (t === 5) {
          events.push((id) => publish(TimelinesEvents.TimelineDeleted, { timelineId: timeline, creatorId: ada.id }, id));
          continue;
        }
        const owner = revisions % 2 === 0 ? bob.id : ada.id;
        add(owner, { totalLikes: likes, totalViews: revisions * 10, timelines: 1, publicTimelines: revisions % 3 === 0 ? 0 : 1 });
      }

      // Shuffled, then a quarter of them sent again under the same id (redelivery) and a quarter
      // again under a new id (replay), all at once.
      for (let i = events.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [events[i], events[j]] = [events[j]!, events[i]!];
      }
      const first = await Promise.all(events.map((send) => send()));
      ids.push(...first);
      await Promise.all(events.map((send, i) => (i % 4 === 0 ? send(first[i]) : null)));
      const replays = await Promise.all(events.filter((_, i) => i % 4 === 1).map((send) => send()));
      ids.push(...replays);
      await applied(ids, 30_000);

      for (const [userId, c] of expected) await expectCounts(userId, c);
      const adaSelf = await profile(ada.id, ada.as);
      const adaSeen = await profile(ada.id, viewer.as);
      const e = expected.get(ada.id)!;
      expect(adaSelf).toMatchObject({ totalLikes: e.totalLikes, totalViews: e.totalViews, timelinesCount: e.timelines });
      expect(adaSeen).toMatchObject({ totalLikes: e.totalLikes, totalViews: e.totalViews, timelinesCount: e.publicTimelines });
      expect(e.timelines).not.toBe(e.publicTimelines);
    } finally {
      await replica.unsubscribe();
    }
  });
});
