import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvents, CollaboratorRole, MediaEvents, MediaType, Reaction, SocialEvents, TargetType, TimelinesEvents, TimelineStatus, Visibility } from '@timeliner/proto';
import { type NotificationsHarness, startHarness, waitFor } from './harness.js';

/**
 * Every consumer of this service that joins an event to a copy another subject feeds (timelines,
 * collaborators, videos, people), delivered the dependent event before its dependency: the
 * outcome equals the normal order's. The dependent event is tried again (MissingReferenceError,
 * 1 s then 2 s, ...) until the dependency is in, never skipped. Real Postgres and NATS.
 */
describe('events before what they depend on', () => {
  let h: NotificationsHarness;
  let revision = 0n;
  let version = 0n;

  /** Applied, or given up: in the inbox. */
  const applied = (eventId: string, ms = 15_000) => waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [eventId])).length === 1, ms);

  /** The notifications of these people, with their ids replaced by the names given. */
  const outcome = async (people: Record<string, string>) => {
    const names = new Map(Object.entries(people).map(([name, id]) => [id, name]));
    const rows = await h.query<{ recipient_id: string; kind: string; target_type: string; target_title: string | null; count: number }>(
      'SELECT recipient_id, kind, target_type, target_title, count FROM notifications WHERE recipient_id = ANY($1) ORDER BY kind, target_type',
      [Object.values(people)],
    );
    return rows.map((r) => `${names.get(r.recipient_id)} ${r.kind} ${r.target_type} "${r.target_title}" ×${r.count}`).sort();
  };

  const snapshot = (timelineId: string, ownerId: string, title: string, visibility = Visibility.PUBLIC, wait = true) =>
    h.publish(TimelinesEvents.TimelineSnapshot, { timelineId, creatorId: ownerId, title, visibility, status: TimelineStatus.PUBLISHED, revision: ++revision }, { wait });

  type Order = 'normal' | 'reversed';
  /**
   * Runs a case in one order: `dependency` publishes what the event depends on, `dependent` the
   * event (without waiting for it); returns the dependent event's id.
   */
  const inOrder = async (order: Order, dependency: () => Promise<unknown>, dependent: (wait: boolean) => Promise<string>) => {
    if (order === 'normal') {
      await dependency();
      return dependent(true);
    }
    const id = await dependent(false);
    // It meets the missing reference at least once before the dependency comes.
    await new Promise((r) => setTimeout(r, 300));
    expect(await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [id])).toHaveLength(0);
    await dependency();
    await applied(id);
    return id;
  };

  /** The same case in both orders, on fresh people and timelines; both outcomes. */
  const bothOrders = async (run: (order: Order) => Promise<string[]>) => ({ normal: await run('normal'), reversed: await run('reversed') });

  beforeAll(async () => {
    h = await startHarness('notiforder');
  });

  afterAll(async () => {
    await h?.close();
  });

  it('a comment on a timeline (TimelineCommentAdded) before the timeline: the owner is told, with the title', async () => {
    const run = async (order: Order) => {
      const owner = await h.person(`o${order}`, 'Owner');
      const writer = await h.person(`w${order}`, 'Writer');
      const timeline = randomUUID();
      await inOrder(order, () => snapshot(timeline, owner, 'Alps'), (wait) =>
        h.publish(SocialEvents.TimelineCommentAdded, { commentId: randomUUID(), timelineId: timeline, userId: writer, mentions: [] }, { wait, actorUserId: writer }),
      );
      return outcome({ owner, writer });
    };
    const { normal, reversed } = await bothOrders(run);
    expect(normal).toEqual(['owner comment timeline "Alps" ×1']);
    expect(reversed).toEqual(normal);
  }, 30_000);

  it('a comment that names the owner, visibility and title is told at once, without the timeline', async () => {
    const owner = await h.person('oc', 'Owner');
    const writer = await h.person('wc', 'Writer');
    const timeline = randomUUID();
    await h.publish(
      SocialEvents.TimelineCommentAdded,
      { commentId: randomUUID(), timelineId: timeline, userId: writer, mentions: [], ownerId: owner, timelineVisibility: Visibility.PUBLIC, timelineTitle: 'Alps' },
      { actorUserId: writer },
    );
    expect(await outcome({ owner, writer })).toEqual(['owner comment timeline "Alps" ×1']);
  });

  it('a mention on a private timeline before its collaborator is known: told once the timeline and collaborator are in', async () => {
    const run = async (order: Order) => {
      const owner = await h.person(`po${order}`, 'Owner');
      const editor = await h.person(`pe${order}`, 'Editor');
      const writer = await h.person(`pw${order}`, 'Writer');
      const timeline = randomUUID();
      await inOrder(
        order,
        async () => {
          await snapshot(timeline, owner, 'Secret', Visibility.PRIVATE);
          await h.publish(TimelinesEvents.CollaboratorAdded, { timelineId: timeline, userId: editor, role: CollaboratorRole.EDITOR }, { actorUserId: owner });
          await h.publish(TimelinesEvents.CollaboratorAdded, { timelineId: timeline, userId: writer, role: CollaboratorRole.EDITOR }, { actorUserId: owner });
        },
        (wait) =>
          h.publish(
            SocialEvents.TimelineCommentAdded,
            { commentId: randomUUID(), timelineId: timeline, userId: writer, mentions: [`pe${order}`], ownerId: owner, timelineVisibility: Visibility.PRIVATE, timelineTitle: 'Secret' },
            { wait, actorUserId: writer },
          ),
      );
      return outcome({ owner, editor, writer });
    };
    const { normal, reversed } = await bothOrders(run);
    expect(normal).toEqual([
      'editor collaborator_added timeline "Secret" ×1',
      'editor mention timeline "Secret" ×1',
      'owner comment timeline "Secret" ×1',
      'writer collaborator_added timeline "Secret" ×1',
    ]);
    expect(reversed).toEqual(normal);
  }, 30_000);

  it('a comment on a video (CommentAdded, an older event without the timeline) before the timeline', async () => {
    const run = async (order: Order) => {
      const owner = await h.person(`vo${order}`, 'Owner');
      const writer = await h.person(`vw${order}`, 'Writer');
      const timeline = randomUUID();
      const video = randomUUID();
      await inOrder(order, () => snapshot(timeline, owner, 'Coast'), (wait) =>
        h.publish(SocialEvents.CommentAdded, { commentId: randomUUID(), targetType: TargetType.VIDEO, targetId: video, timelineId: timeline, userId: writer, content: 'nice', count: 1n, countVersion: 1n }, { wait, actorUserId: writer }),
      );
      return outcome({ owner, writer });
    };
    const { normal, reversed } = await bothOrders(run);
    expect(normal).toEqual(['owner comment video "Coast" ×1']);
    expect(reversed).toEqual(normal);
  }, 30_000);

  it('a like of a timeline (ReactionChanged, an older event without the timeline) before the timeline', async () => {
    const run = async (order: Order) => {
      const owner = await h.person(`lo${order}`, 'Owner');
      const fan = await h.person(`lf${order}`, 'Fan');
      const timeline = randomUUID();
      await inOrder(order, () => snapshot(timeline, owner, 'Lakes'), (wait) =>
        h.publish(SocialEvents.ReactionChanged, { targetType: TargetType.TIMELINE, targetId: timeline, timelineId: timeline, userId: fan, reaction: Reaction.LIKE, active: true, count: 1n, countVersion: ++version }, { wait, actorUserId: fan }),
      );
      return outcome({ owner, fan });
    };
    const { normal, reversed } = await bothOrders(run);
    expect(normal).toEqual(['owner like timeline "Lakes" ×1']);
    expect(reversed).toEqual(normal);
  }, 30_000);

  it('collaboration events (added, ownership, invitation) before the timeline', async () => {
    const run = async (order: Order) => {
      const owner = await h.person(`co${order}`, 'Owner');
      const editor = await h.person(`ce${order}`, 'Editor');
      const heir = await h.person(`ch${order}`, 'Heir');
      const guest = await h.person(`cg${order}`, 'Guest', `cg${order}@example.com`);
      const timeline = randomUUID();
      const added = await inOrder(order, () => snapshot(timeline, owner, 'Team'), (wait) =>
        h.publish(TimelinesEvents.CollaboratorAdded, { timelineId: timeline, userId: editor, role: CollaboratorRole.EDITOR }, { wait, actorUserId: owner }),
      );
      expect(added).toBeTruthy();
      const other = randomUUID();
      await inOrder(order, () => snapshot(other, owner, 'Handover', Visibility.PRIVATE), (wait) =>
        h.publish(TimelinesEvents.OwnershipTransferred, { timelineId: other, previousOwnerId: owner, newOwnerId: heir }, { wait, actorUserId: owner }),
      );
      const third = randomUUID();
      await inOrder(order, () => snapshot(third, owner, 'Party'), (wait) =>
        h.publish(TimelinesEvents.InvitationCreated, { invitationId: randomUUID(), timelineId: third, email: `cg${order}@example.com`, role: CollaboratorRole.VIEWER, inviterId: owner }, { wait, actorUserId: owner }),
      );
      return outcome({ owner, editor, heir, guest });
    };
    const { normal, reversed } = await bothOrders(run);
    expect(normal).toEqual([
      'editor collaborator_added timeline "Team" ×1',
      'guest invitation invitation "Party" ×1',
      'heir ownership_transferred timeline "Handover" ×1',
    ]);
    expect(reversed).toEqual(normal);
  }, 60_000);

  it('a collaborator removed from a private timeline before the timeline: loses what they were told about it', async () => {
    const run = async (order: Order) => {
      const owner = await h.person(`ro${order}`, 'Owner');
      const editor = await h.person(`re${order}`, 'Editor');
      const timeline = randomUUID();
      // Told about a comment while a collaborator (the event names the timeline; no copy needed).
      await h.publish(TimelinesEvents.CollaboratorAdded, { timelineId: timeline, userId: editor, role: CollaboratorRole.EDITOR }, { wait: false, actorUserId: owner });
      await snapshot(timeline, owner, 'Closed', Visibility.PRIVATE);
      await waitFor(async () => (await outcome({ editor })).length === 1, 15_000);
      await h.publish(
        SocialEvents.TimelineCommentAdded,
        { commentId: randomUUID(), timelineId: timeline, userId: owner, mentions: [`re${order}`], ownerId: owner, timelineVisibility: Visibility.PRIVATE, timelineTitle: 'Closed' },
        { actorUserId: owner },
      );
      const removal = () => h.publish(TimelinesEvents.CollaboratorRemoved, { timelineId: timeline, userId: editor }, { wait: order === 'normal' });
      if (order === 'normal') await removal();
      else {
        // The copy forgets the timeline (as a fresh copy that is behind would not know it) ...
        await h.query('DELETE FROM timelines WHERE id = $1', [timeline]);
        const id = await removal();
        await new Promise((r) => setTimeout(r, 300));
        expect(await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [id])).toHaveLength(0);
        // ... until the timeline's snapshot is in again.
        await snapshot(timeline, owner, 'Closed', Visibility.PRIVATE);
        await applied(id);
      }
      return outcome({ owner, editor });
    };
    const { normal, reversed } = await bothOrders(run);
    expect(normal).toEqual([]);
    expect(reversed).toEqual(normal);
  }, 60_000);

  it('a video processed (VideoProcessed) before its upload (UploadCompleted) and its timeline', async () => {
    const run = async (order: Order) => {
      const owner = await h.person(`mo${order}`, 'Owner');
      const timeline = randomUUID();
      const video = randomUUID();
      await inOrder(
        order,
        async () => {
          await snapshot(timeline, owner, 'Clips');
          await h.publish(MediaEvents.UploadCompleted, { mediaId: video, timelineId: timeline, uploaderId: owner, mediaType: MediaType.VIDEO, originalName: 'dive.mp4' });
        },
        (wait) => h.publish(MediaEvents.VideoProcessed, { mediaId: video, timelineId: timeline, duration: 3 }, { wait }),
      );
      return outcome({ owner });
    };
    const { normal, reversed } = await bothOrders(run);
    expect(normal).toEqual(['owner video_processed video "dive.mp4" ×1']);
    expect(reversed).toEqual(normal);
  }, 30_000);

  it('an export completed (ExportCompleted) before its timeline', async () => {
    const run = async (order: Order) => {
      const owner = await h.person(`eo${order}`, 'Owner');
      const timeline = randomUUID();
      await inOrder(order, () => snapshot(timeline, owner, 'Reel', Visibility.PRIVATE), (wait) =>
        h.publish(MediaEvents.ExportCompleted, { exportId: randomUUID(), timelineId: timeline, requesterId: owner, fileName: 'reel.mp4' }, { wait }),
      );
      return outcome({ owner });
    };
    const { normal, reversed } = await bothOrders(run);
    expect(normal).toEqual(['owner export_ready export "Reel" ×1']);
    expect(reversed).toEqual(normal);
  }, 30_000);

  it('a profile change (UserUpdated) before the registration: the copy ends with the change', async () => {
    const run = async (order: Order) => {
      const userId = randomUUID();
      await inOrder(order, () => h.publish(AuthEvents.UserRegistered, { userId, username: `u${order}`, displayName: 'First', email: `u${order}@example.com` }), (wait) =>
        h.publish(AuthEvents.UserUpdated, { userId, displayName: 'Second' }, { wait }),
      );
      const [row] = await h.query<{ display_name: string }>('SELECT display_name FROM users WHERE id = $1', [userId]);
      return [row?.display_name ?? 'missing'];
    };
    const { normal, reversed } = await bothOrders(run);
    expect(normal).toEqual(['Second']);
    expect(reversed).toEqual(normal);
  }, 30_000);

  it('profile versions: an older change handled after a newer one changes nothing', async () => {
    const userId = randomUUID();
    const profile = (version: number, name: string) => ({ userId, username: 'versioned', displayName: name, avatar: '', isPrivate: false, email: 'v@example.com', profileVersion: BigInt(version) });
    await h.publish(AuthEvents.UserRegistered, { userId, username: 'versioned', displayName: 'One', email: 'v@example.com', profileVersion: 1n });
    await h.publish(AuthEvents.UserUpdated, profile(3, 'Three'));
    await h.publish(AuthEvents.UserUpdated, profile(2, 'Two'));
    await h.publish(AuthEvents.UserRegistered, { userId, username: 'versioned', displayName: 'One', email: 'v@example.com', profileVersion: 1n });
    const [row] = await h.query<{ display_name: string; v: number }>('SELECT display_name, profile_version::int AS v FROM users WHERE id = $1', [userId]);
    expect(row).toEqual({ display_name: 'Three', v: 3 });
  }, 30_000);

  it('a deletion before its addition (comment, video comment, post, invitation): nobody told, as in the normal order', async () => {
    const run = async (order: Order) => {
      const owner = await h.person(`do${order}`, 'Owner');
      const writer = await h.person(`dw${order}`, 'Writer');
      const guest = await h.person(`dg${order}`, 'Guest', `dg${order}@example.com`);
      const timeline = randomUUID();
      await snapshot(timeline, owner, 'Undone');
      const comment = randomUUID();
      const videoComment = randomUUID();
      const post = randomUUID();
      const invitation = randomUUID();
      const additions = [
        () => h.publish(SocialEvents.TimelineCommentAdded, { commentId: comment, timelineId: timeline, userId: writer, mentions: [`dg${order}`], ownerId: owner, timelineVisibility: Visibility.PUBLIC, timelineTitle: 'Undone' }, { actorUserId: writer }),
        () => h.publish(SocialEvents.CommentAdded, { commentId: videoComment, targetType: TargetType.VIDEO, targetId: randomUUID(), timelineId: timeline, ownerId: owner, userId: writer, content: 'x', count: 1n, countVersion: 1n }, { actorUserId: writer }),
        () => h.publish(SocialEvents.PostCreated, { postId: post, userId: writer, content: `hi @dg${order}`, mentions: [`dg${order}`] }, { actorUserId: writer }),
        () => h.publish(TimelinesEvents.InvitationCreated, { invitationId: invitation, timelineId: timeline, email: `dg${order}@example.com`, role: CollaboratorRole.VIEWER, inviterId: owner }, { actorUserId: owner }),
      ];
      const deletions = [
        () => h.publish(SocialEvents.TimelineCommentDeleted, { commentId: comment, timelineId: timeline }),
        () => h.publish(SocialEvents.CommentDeleted, { commentId: videoComment, targetType: TargetType.VIDEO, timelineId: timeline, userId: writer }),
        () => h.publish(SocialEvents.PostDeleted, { postId: post, userId: writer }),
        () => h.publish(TimelinesEvents.InvitationCancelled, { invitationId: invitation, timelineId: timeline }),
      ];
      for (const step of order === 'normal' ? [...additions, ...deletions] : [...deletions, ...additions]) await step();
      return outcome({ owner, writer, guest });
    };
    const { normal, reversed } = await bothOrders(run);
    expect(normal).toEqual([]);
    expect(reversed).toEqual(normal);
  }, 30_000);

  it('events about a deleted timeline are moot at once, and a late snapshot does not bring it back', async () => {
    const owner = await h.person('go', 'Owner');
    const writer = await h.person('gw', 'Writer');
    const timeline = randomUUID();
    await snapshot(timeline, owner, 'Gone');
    const late = revision + 1n;
    await h.publish(TimelinesEvents.TimelineDeleted, { timelineId: timeline, creatorId: owner });
    const started = Date.now();
    await h.publish(SocialEvents.TimelineCommentAdded, { commentId: randomUUID(), timelineId: timeline, userId: writer, mentions: [] }, { actorUserId: writer });
    await h.publish(TimelinesEvents.TimelineSnapshot, { timelineId: timeline, creatorId: owner, title: 'Gone', visibility: Visibility.PUBLIC, status: TimelineStatus.PUBLISHED, revision: late });
    await h.publish(MediaEvents.ExportCompleted, { exportId: randomUUID(), timelineId: timeline, requesterId: owner, fileName: 'gone.mp4' });
    expect(Date.now() - started).toBeLessThan(900); // no retry waited
    expect(await h.query('SELECT 1 FROM timelines WHERE id = $1', [timeline])).toHaveLength(0);
    expect(await outcome({ owner, writer })).toEqual([]);
  });
});
