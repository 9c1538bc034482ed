import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  MediaEvents,
  MediaType,
  type NotificationEntry,
  Reaction,
  SocialEvents,
  TargetType,
  TimelinesEvents,
  TimelineStatus,
  Visibility,
} from '@timeliner/proto';
import { type NotificationsHarness, startHarness, waitFor } from './harness.js';

/**
 * What notifies whom, from the events other services publish, on a real Postgres and NATS:
 * grouping, redelivery, undo before read, and never about what the recipient may not see.
 */
describe('notifications from events', () => {
  let h: NotificationsHarness;
  let ana: string, ben: string, cy: string, dee: string;
  let trip: string;
  let likeVersion = 0n;

  const list = async (userId: string): Promise<NotificationEntry[]> => {
    const response = await h.call('get', '/api/notifications?limit=50', { userId }).expect(200);
    return response.body as NotificationEntry[];
  };
  const unread = async (userId: string): Promise<number> => ((await h.call('get', '/api/notifications/unread-count', { userId }).expect(200)).body as { count: number }).count;

  const snapshot = (timelineId: string, ownerId: string, title: string, visibility: Visibility, revision: bigint) =>
    h.publish(TimelinesEvents.TimelineSnapshot, { timelineId, creatorId: ownerId, title, visibility, status: TimelineStatus.PUBLISHED, revision });

  const like = (targetType: TargetType, targetId: string, ownerId: string, userId: string, active: boolean, options: { occurredAt?: Date; id?: string; version?: bigint } = {}) =>
    h.publish(
      SocialEvents.ReactionChanged,
      {
        targetType,
        targetId,
        timelineId: targetType === TargetType.TIMELINE ? targetId : '',
        ownerId,
        userId,
        reaction: Reaction.LIKE,
        active,
        count: 1n,
        countVersion: options.version ?? ++likeVersion,
        ...(options.occurredAt ? { at: timestampFromDate(options.occurredAt) } : {}),
      },
      { ...(options.occurredAt ? { occurredAt: options.occurredAt } : {}), ...(options.id ? { id: options.id } : {}), actorUserId: userId },
    );

  beforeAll(async () => {
    h = await startHarness('notif');
    ana = await h.person('ana', 'Ana');
    ben = await h.person('ben', 'Ben');
    cy = await h.person('cy', 'Cy');
    dee = await h.person('dee', 'Dee');
    trip = randomUUID();
    await snapshot(trip, ana, 'Trip', Visibility.PUBLIC, 1n);
  });

  afterAll(async () => {
    await h?.close();
  });

  describe('likes', () => {
    it('tells the owner, live, and nobody else', async () => {
      const anaLive = await h.listen(ana);
      const benLive = await h.listen(ben);
      await like(TargetType.TIMELINE, trip, ana, ben, true);
      const [entry] = await list(ana);
      expect(entry).toMatchObject({
        type: 'like',
        kind: 'like',
        userId: ana,
        actorId: ben,
        targetType: 'timeline',
        targetId: trip,
        message: 'Ben liked your timeline "Trip"',
        count: 1,
        read: false,
        link: `/watch/${trip}`,
        text: 'Ben liked your timeline "Trip"',
        target: { type: 'timeline', id: trip, timelineId: trip, title: 'Trip' },
        actors: [{ id: ben, username: 'ben', displayName: 'Ben', avatar: null }],
      });
      expect(await unread(ana)).toBe(1);
      await waitFor(() => anaLive.length === 1);
      expect(anaLive[0]).toMatchObject({ type: 'notification', unreadCount: 1, notification: { id: entry!.id, count: 1 } });
      expect(benLive).toEqual([]);
      expect(await list(ben)).toEqual([]);
    });

    it('never tells people about their own likes', async () => {
      await like(TargetType.TIMELINE, trip, ana, ana, true);
      expect((await list(ana))[0]!.count).toBe(1);
    });

    it('groups likes of one target within 12 hours into one entry with the latest three people', async () => {
      await like(TargetType.TIMELINE, trip, ana, cy, true);
      await like(TargetType.TIMELINE, trip, ana, dee, true);
      const entries = (await list(ana)).filter((e) => e.kind === 'like');
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ count: 3, text: 'Dee, Cy and Ben liked your timeline "Trip"' });
      expect(entries[0]!.actors.map((a) => a.id)).toEqual([dee, cy, ben]);
      expect(await unread(ana)).toBe(1);
    });

    it('applies a redelivered or replayed like once', async () => {
      const eve = await h.person('eve', 'Eve');
      const id = await like(TargetType.TIMELINE, trip, ana, eve, true, { version: 1_000n });
      await like(TargetType.TIMELINE, trip, ana, eve, true, { id, version: 1_000n });
      // The same change published again under a new id (a replay): its version is not newer.
      await like(TargetType.TIMELINE, trip, ana, eve, true, { version: 1_000n });
      likeVersion = 1_000n;
      const [entry] = (await list(ana)).filter((e) => e.kind === 'like');
      expect(entry).toMatchObject({ count: 4, text: 'Eve, Dee and 2 others liked your timeline "Trip"' });
      expect((await h.query('SELECT count(*)::int AS n FROM notification_activities WHERE notification_id = $1', [entry!.id]))[0]).toEqual({ n: 4 });
    });

    it('shrinks an unread entry when a like is taken back, and drops it when nobody is left', async () => {
      const post = randomUUID();
      await like(TargetType.POST, post, dee, ben, true);
      await like(TargetType.POST, post, dee, cy, true);
      await like(TargetType.POST, post, dee, ben, false);
      const [entry] = await list(dee);
      // A post opens on its own page, not on its author's (the recipient's own) profile.
      expect(entry).toMatchObject({ kind: 'like', count: 1, link: `/post/${post}`, text: 'Cy liked your post' });
      await like(TargetType.POST, post, dee, cy, false);
      expect(await list(dee)).toEqual([]);
      expect(await unread(dee)).toBe(0);
    });

    it('ignores an undo older than the like it would undo', async () => {
      const post = randomUUID();
      await like(TargetType.POST, post, cy, ben, true, { version: 5_000n });
      await like(TargetType.POST, post, cy, ben, false, { version: 4_999n });
      expect((await list(cy)).filter((e) => e.target.id === post)).toHaveLength(1);
      likeVersion = 5_000n;
    });

    it('keeps a read entry as it was read when a like is taken back', async () => {
      const post = randomUUID();
      await like(TargetType.POST, post, ben, cy, true);
      const [entry] = (await list(ben)).filter((e) => e.target.id === post);
      await h.call('post', `/api/notifications/${entry!.id}/read`, { userId: ben }).expect(200);
      await like(TargetType.POST, post, ben, cy, false);
      expect((await list(ben)).find((e) => e.id === entry!.id)).toMatchObject({ count: 1, read: true });
    });

    it('starts a new entry once the 12-hour window has passed, and a grown read entry is unread again', async () => {
      const post = randomUUID();
      const start = new Date(Date.now() - 20 * 3600_000);
      await like(TargetType.POST, post, cy, ben, true, { occurredAt: start });
      await like(TargetType.POST, post, cy, dee, true, { occurredAt: new Date(start.getTime() + 13 * 3600_000) });
      const entries = (await list(cy)).filter((e) => e.target.id === post);
      expect(entries.map((e) => e.count)).toEqual([1, 1]);
      expect(entries[0]!.actors[0]!.id).toBe(dee);

      await h.call('post', '/api/notifications/read-all', { userId: cy }).expect(200);
      await like(TargetType.POST, post, cy, ana, true, { occurredAt: new Date(start.getTime() + 14 * 3600_000) });
      const [grown] = (await list(cy)).filter((e) => e.target.id === post);
      expect(grown).toMatchObject({ count: 2, read: false, text: 'Ana and Dee liked your post' });
    });
  });

  describe('comments, replies and mentions', () => {
    let video: string;

    beforeAll(async () => {
      video = randomUUID();
      await h.publish(MediaEvents.UploadCompleted, { mediaId: video, timelineId: trip, uploaderId: ana, mediaType: MediaType.VIDEO, originalName: 'beach.mp4', mimeType: 'video/mp4', size: 10n });
    });

    const comment = (commentId: string, userId: string, extra: { parentCommentId?: string; parentAuthorId?: string; mentions?: string[] } = {}) =>
      h.publish(
        SocialEvents.CommentAdded,
        { commentId, targetType: TargetType.VIDEO, targetId: video, timelineId: trip, ownerId: ana, userId, content: 'nice', mentions: [], ...extra },
        { actorUserId: userId },
      );

    it('tells the owner of a comment, the author of the comment replied to, and the people mentioned, once each', async () => {
      const benComment = randomUUID();
      await comment(benComment, ben);
      const reply = randomUUID();
      await comment(reply, cy, { parentCommentId: benComment, parentAuthorId: ben, mentions: ['dee', 'ana', 'cy', 'nobody'] });

      const [onVideo] = (await list(ana)).filter((e) => e.kind === 'comment');
      // The video is named by its own name, not its timeline's.
      expect(onVideo).toMatchObject({ count: 2, link: `/watch/${trip}?video=${video}`, text: 'Cy and Ben commented on your video "beach.mp4"', target: { type: 'video', id: video, title: 'beach.mp4' } });
      expect((await list(ana)).filter((e) => e.kind === 'mention')).toEqual([]);
      const [replied] = await list(ben);
      expect(replied).toMatchObject({ kind: 'reply', count: 1, text: 'Cy replied to your comment', target: { type: 'comment', id: benComment } });
      const [mention] = await list(dee);
      expect(mention).toMatchObject({ kind: 'mention', text: 'Cy mentioned you', link: `/watch/${trip}?video=${video}` });
      expect((await list(cy)).filter((e) => e.kind === 'mention')).toEqual([]);
    });

    it('names a liked video by its own name, or by its timeline when its name is not known', async () => {
      const likeVideo = (targetId: string) =>
        h.publish(
          SocialEvents.ReactionChanged,
          { targetType: TargetType.VIDEO, targetId, timelineId: trip, ownerId: ana, userId: dee, reaction: Reaction.LIKE, active: true, count: 1n, countVersion: ++likeVersion },
          { actorUserId: dee },
        );
      await likeVideo(video);
      const unnamed = randomUUID();
      await likeVideo(unnamed);
      const likes = (await list(ana)).filter((e) => e.kind === 'like' && e.target.type === 'video');
      expect(likes.find((e) => e.target.id === video)).toMatchObject({ text: 'Dee liked your video "beach.mp4"', link: `/watch/${trip}?video=${video}` });
      expect(likes.find((e) => e.target.id === unnamed)).toMatchObject({ text: 'Dee liked your video in "Trip"', target: { title: null } });
    });

    it('takes a deleted comment back from every unread entry it made', async () => {
      const cyComment = randomUUID();
      const benComment = randomUUID();
      await comment(benComment, ben);
      await comment(cyComment, cy, { parentCommentId: benComment, parentAuthorId: ben });
      const before = (await list(ana)).find((e) => e.kind === 'comment')!.count;
      await h.publish(SocialEvents.CommentDeleted, { commentId: cyComment, targetType: TargetType.VIDEO, targetId: video, timelineId: trip, userId: cy });
      expect((await list(ana)).find((e) => e.kind === 'comment')!.count).toBe(before);
      expect((await h.query('SELECT 1 FROM notification_activities WHERE source_key = $1', [`comment:${cyComment}`])).length).toBe(0);
    });

    it('tells the owner of a timeline and the people mentioned about comments on it, and takes a deleted one back', async () => {
      const commentId = randomUUID();
      await h.publish(SocialEvents.TimelineCommentAdded, { commentId, timelineId: trip, userId: dee, mentions: ['cy', 'ana'] });
      const entry = (await list(ana)).find((e) => e.kind === 'comment' && e.target.type === 'timeline');
      expect(entry).toMatchObject({ text: 'Dee commented on your timeline "Trip"', link: `/watch/${trip}` });
      expect((await list(ana)).filter((e) => e.kind === 'mention' && e.target.id === trip)).toEqual([]);
      expect((await list(cy)).find((e) => e.kind === 'mention' && e.target.id === trip)).toMatchObject({ text: 'Dee mentioned you', link: `/watch/${trip}` });
      await h.publish(SocialEvents.TimelineCommentDeleted, { commentId, timelineId: trip });
      expect((await list(ana)).find((e) => e.kind === 'comment' && e.target.type === 'timeline')).toBeUndefined();
      expect((await list(cy)).find((e) => e.kind === 'mention' && e.target.id === trip)).toBeUndefined();
    });

    it('tells the people a post mentions by username, never its author, and again only for new names after an edit', async () => {
      const postId = randomUUID();
      await h.publish(SocialEvents.PostCreated, { postId, userId: dee, content: 'hi @Ben @dee', hashtags: [], mentions: ['ben', 'dee'] });
      await h.publish(SocialEvents.PostUpdated, { postId, userId: dee, content: 'hi @ben @cy', hashtags: [], mentions: ['ben', 'cy'] });
      expect((await list(ben)).filter((e) => e.kind === 'mention')).toEqual([expect.objectContaining({ text: 'Dee mentioned you', link: `/post/${postId}` })]);
      expect((await list(cy)).filter((e) => e.kind === 'mention')).toHaveLength(1);
      expect((await list(dee)).filter((e) => e.kind === 'mention' && e.target.id === postId)).toEqual([]);
      await h.publish(SocialEvents.PostDeleted, { postId, userId: dee });
      expect((await list(ben)).filter((e) => e.target.id === postId)).toEqual([]);
    });
  });

  describe('follows', () => {
    it('groups new followers and takes an unfollow back', async () => {
      const follow = (followerId: string, active: boolean, version: bigint) =>
        h.publish(SocialEvents.FollowChanged, { followerId, followeeId: dee, active, followersCount: 1n, followersVersion: version, followingCount: 1n, followingVersion: version });
      await follow(ben, true, 1n);
      await follow(cy, true, 2n);
      expect((await list(dee)).find((e) => e.kind === 'follow')).toMatchObject({ count: 2, text: 'Cy and Ben followed you', link: `/profile/${dee}` });
      await follow(ben, false, 3n);
      expect((await list(dee)).find((e) => e.kind === 'follow')).toMatchObject({ count: 1, text: 'Cy followed you' });
    });
  });

  describe('collaboration', () => {
    it('tells an invited person who has an account, and nobody for an unknown address', async () => {
      const invitationId = randomUUID();
      await h.publish(TimelinesEvents.InvitationCreated, { invitationId, timelineId: trip, email: 'Dee@Example.com', inviterId: ana }, { actorUserId: ana });
      await h.publish(TimelinesEvents.InvitationCreated, { invitationId: randomUUID(), timelineId: trip, email: 'stranger@example.com', inviterId: ana }, { actorUserId: ana });
      expect((await list(dee)).find((e) => e.kind === 'invitation')).toMatchObject({ text: 'Ana invited you to collaborate on "Trip"', link: `/invite/${invitationId}` });
      expect(await h.query("SELECT 1 FROM notifications WHERE kind = 'invitation'")).toHaveLength(1);
    });

    it('tells a person added as a collaborator, but not one who joined by accepting', async () => {
      const other = randomUUID();
      await snapshot(other, ana, 'Other', Visibility.PUBLIC, 1n);
      await h.publish(TimelinesEvents.CollaboratorAdded, { timelineId: other, userId: cy }, { actorUserId: ana });
      await h.publish(TimelinesEvents.CollaboratorAdded, { timelineId: other, userId: ben }, { actorUserId: ben });
      expect((await list(cy)).find((e) => e.kind === 'collaborator_added')).toMatchObject({ text: 'Ana added you as a collaborator on "Other"' });
      expect((await list(ben)).find((e) => e.kind === 'collaborator_added')).toBeUndefined();
    });

    it('tells the new owner of a timeline', async () => {
      const given = randomUUID();
      await snapshot(given, ana, 'Given', Visibility.PRIVATE, 1n);
      await h.publish(TimelinesEvents.OwnershipTransferred, { timelineId: given, previousOwnerId: ana, newOwnerId: cy }, { actorUserId: ana });
      expect((await list(cy)).find((e) => e.kind === 'ownership_transferred')).toMatchObject({ text: 'Ana made you the owner of "Given"', link: `/watch/${given}` });
    });
  });

  describe('videos and exports', () => {
    it('tells the uploader when processing ends, once however often the event comes', async () => {
      const video = randomUUID();
      await h.publish(MediaEvents.UploadCompleted, { mediaId: video, timelineId: trip, uploaderId: ben, mediaType: MediaType.VIDEO, originalName: 'clip.mp4', mimeType: 'video/mp4', size: 10n });
      await h.publish(MediaEvents.VideoProcessed, { mediaId: video, timelineId: trip, duration: 3, width: 640, height: 360, renditions: [360] });
      await h.publish(MediaEvents.VideoProcessed, { mediaId: video, timelineId: trip, duration: 3, width: 640, height: 360, renditions: [360] });
      const processed = (await list(ben)).filter((e) => e.kind === 'video_processed');
      expect(processed).toEqual([expect.objectContaining({ count: 1, actors: [], text: 'Your video "clip.mp4" is ready to watch', link: `/watch/${trip}?video=${video}` })]);
      const broken = randomUUID();
      await h.publish(MediaEvents.UploadCompleted, { mediaId: broken, timelineId: trip, uploaderId: ben, mediaType: MediaType.VIDEO, originalName: 'bad.mp4', mimeType: 'video/mp4', size: 10n });
      await h.publish(MediaEvents.VideoFailed, { mediaId: broken, timelineId: trip, reason: 'unreadable' });
      expect((await list(ben)).find((e) => e.kind === 'video_failed')).toMatchObject({ text: 'Your video "bad.mp4" could not be processed' });
    });

    it("groups the processing of one person's videos on one timeline, so a batch does not bury what people did", async () => {
      const batch = randomUUID();
      await snapshot(batch, dee, 'Batch', Visibility.PUBLIC, 1n);
      const videos = [randomUUID(), randomUUID(), randomUUID()];
      for (const [i, id] of videos.entries()) {
        await h.publish(MediaEvents.UploadCompleted, { mediaId: id, timelineId: batch, uploaderId: dee, mediaType: MediaType.VIDEO, originalName: `part${i + 1}.mp4`, mimeType: 'video/mp4', size: 10n });
      }
      await h.publish(MediaEvents.VideoProcessed, { mediaId: videos[0]!, timelineId: batch, duration: 3, width: 640, height: 360, renditions: [360] });
      let [entry] = (await list(dee)).filter((e) => e.target.timelineId === batch);
      expect(entry).toMatchObject({ kind: 'video_processed', count: 1, text: 'Your video "part1.mp4" is ready to watch', link: `/watch/${batch}?video=${videos[0]}` });
      for (const id of videos.slice(1)) await h.publish(MediaEvents.VideoProcessed, { mediaId: id, timelineId: batch, duration: 3, width: 640, height: 360, renditions: [360] });
      const entries = (await list(dee)).filter((e) => e.target.timelineId === batch);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ id: entry!.id, count: 3, actors: [], text: '3 of your videos in "Batch" are ready to watch', link: `/watch/${batch}?video=${videos[0]}` });
      // A deleted video leaves the others; the entry leads to the next one.
      await h.publish(MediaEvents.MediaDeleted, { mediaId: videos[0]!, timelineId: batch, mediaType: MediaType.VIDEO });
      [entry] = (await list(dee)).filter((e) => e.target.timelineId === batch);
      expect(entry).toMatchObject({ count: 2, text: '2 of your videos in "Batch" are ready to watch', link: `/watch/${batch}?video=${videos[1]}`, target: { id: videos[1] } });
    });

    it('tells the requester an export is ready, with its download link', async () => {
      const exportId = randomUUID();
      await h.publish(MediaEvents.ExportCompleted, { exportId, timelineId: trip, requesterId: cy, fileName: 'Trip.mp4' }, { actorUserId: cy });
      // The app's export page downloads the file (the player would not).
      expect((await list(cy)).find((e) => e.kind === 'export_ready')).toMatchObject({
        type: 'export_ready', actorId: null, text: 'Your export "Trip" is ready to download', link: `/exports/${exportId}`, target: { type: 'export', id: exportId },
      });
    });
  });

  describe('never about what the recipient may no longer see', () => {
    it('drops a removed collaborator\'s notifications about a private timeline', async () => {
      const secret = randomUUID();
      await snapshot(secret, ana, 'Secret', Visibility.PRIVATE, 1n);
      await h.publish(TimelinesEvents.CollaboratorAdded, { timelineId: secret, userId: dee }, { actorUserId: ana });
      const video = randomUUID();
      await h.publish(MediaEvents.UploadCompleted, { mediaId: video, timelineId: secret, uploaderId: dee, mediaType: MediaType.VIDEO, originalName: 'x.mp4', mimeType: 'video/mp4', size: 1n });
      await h.publish(MediaEvents.VideoProcessed, { mediaId: video, timelineId: secret, duration: 1, width: 2, height: 2, renditions: [] });
      expect((await list(dee)).filter((e) => e.target.timelineId === secret).map((e) => e.kind).sort()).toEqual(['collaborator_added', 'video_processed']);
      await h.publish(TimelinesEvents.CollaboratorRemoved, { timelineId: secret, userId: dee });
      expect((await list(dee)).filter((e) => e.target.timelineId === secret)).toEqual([]);
      // Nor is anything new about it said to them.
      await h.publish(SocialEvents.CommentAdded, { commentId: randomUUID(), targetType: TargetType.VIDEO, targetId: video, timelineId: secret, ownerId: ana, userId: ana, mentions: ['dee'] });
      expect((await list(dee)).filter((e) => e.target.timelineId === secret)).toEqual([]);
    });

    it('drops outsiders\' notifications when a timeline becomes private, and everyone\'s when it is deleted', async () => {
      const shared = randomUUID();
      await snapshot(shared, ana, 'Shared', Visibility.PUBLIC, 1n);
      const video = randomUUID();
      await h.publish(MediaEvents.UploadCompleted, { mediaId: video, timelineId: shared, uploaderId: ben, mediaType: MediaType.VIDEO, originalName: 'y.mp4', mimeType: 'video/mp4', size: 1n });
      await h.publish(MediaEvents.VideoProcessed, { mediaId: video, timelineId: shared, duration: 1, width: 2, height: 2, renditions: [] });
      await like(TargetType.TIMELINE, shared, ana, cy, true);
      const benLive = await h.listen(ben);
      await snapshot(shared, ana, 'Shared', Visibility.PRIVATE, 2n);
      expect((await list(ben)).filter((e) => e.target.timelineId === shared)).toEqual([]);
      await waitFor(() => benLive.some((m) => m.type === 'notification_count'));
      expect((await list(ana)).filter((e) => e.target.timelineId === shared)).toHaveLength(1);
      await h.publish(TimelinesEvents.TimelineDeleted, { timelineId: shared, creatorId: ana });
      expect((await list(ana)).filter((e) => e.target.timelineId === shared)).toEqual([]);
    });
  });
});
