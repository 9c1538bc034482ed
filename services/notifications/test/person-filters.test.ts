import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { MediaEvents, MediaType, type NotificationEntry, type RealtimeMessage, SocialEvents, TargetType, TimelinesEvents, TimelineStatus, Visibility } from '@timeliner/proto';
import { type NotificationsHarness, startHarness } from './harness.js';

/**
 * Blocks, mutes and muted words in notifications (issue 28), from the social service's events:
 * nothing from someone blocked either way or muted, nor with a muted word, is stored, counted or
 * sent to a socket; a block takes back what either was told of the other; an expired word hides
 * nothing.
 */
describe('notifications apply blocks, mutes and muted words', () => {
  let h: NotificationsHarness;
  let ana: string, ben: string, cy: string, dee: string;
  let trip: string, video: string;
  let version = 0n;
  let followVersion = 0n;
  const next = () => (version += 1n);

  const list = async (userId: string): Promise<NotificationEntry[]> => (await h.call('get', '/api/notifications?limit=50', { userId }).expect(200)).body as NotificationEntry[];
  const unread = async (userId: string): Promise<number> => ((await h.call('get', '/api/notifications/unread-count', { userId }).expect(200)).body as { count: number }).count;
  const follow = (followerId: string, followeeId: string) => {
    followVersion += 1n;
    return h.publish(SocialEvents.FollowChanged, { followerId, followeeId, active: true, followersCount: 1n, followersVersion: followVersion, followingCount: 1n, followingVersion: followVersion }, { actorUserId: followerId });
  };
  const comment = (userId: string, content: string, mentions: string[] = []) =>
    h.publish(SocialEvents.CommentAdded, { commentId: randomUUID(), targetType: TargetType.VIDEO, targetId: video, timelineId: trip, ownerId: ana, userId, content, mentions }, { actorUserId: userId });
  const at = () => timestampFromDate(new Date());

  beforeAll(async () => {
    h = await startHarness('notiffilters');
    ana = await h.person('ana', 'Ana');
    ben = await h.person('ben', 'Ben');
    cy = await h.person('cy', 'Cy');
    dee = await h.person('dee', 'Dee');
    trip = randomUUID();
    video = randomUUID();
    await h.publish(TimelinesEvents.TimelineSnapshot, { timelineId: trip, creatorId: ana, title: 'Trip', visibility: Visibility.PUBLIC, status: TimelineStatus.PUBLISHED, revision: 1n });
    await h.publish(MediaEvents.UploadCompleted, { mediaId: video, timelineId: trip, uploaderId: ana, mediaType: MediaType.VIDEO, originalName: 'beach.mp4', mimeType: 'video/mp4', size: 10n });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('takes back what a blocked pair were told of each other, and tells neither anything more', async () => {
    await follow(ben, ana);
    await comment(ben, 'lovely', ['ana']);
    await follow(ana, ben);
    expect((await list(ana)).map((e) => e.kind).sort()).toEqual(['comment', 'follow']);
    expect((await list(ben)).map((e) => e.kind)).toEqual(['follow']);
    const sockets = await h.listen(ana);

    await h.publish(SocialEvents.BlockChanged, { blockerId: ana, blockedId: ben, active: true, version: next(), at: at() });
    expect(await list(ana)).toEqual([]);
    expect(await list(ben)).toEqual([]);
    expect(await unread(ana)).toBe(0);

    await comment(ben, 'still here', ['ana']);
    await follow(ben, ana);
    expect(await list(ana)).toEqual([]);
    // Nothing reached Ana's sockets but the count going down at the block.
    expect(sockets.filter((m: RealtimeMessage) => m.type !== 'notification_count')).toEqual([]);
    // A lifted block: later actions notify again.
    await h.publish(SocialEvents.BlockChanged, { blockerId: ana, blockedId: ben, active: false, version: next(), at: at() });
    await comment(ben, 'hello again');
    expect((await list(ana)).map((e) => e.kind)).toEqual(['comment']);
  });

  it("stops a muted account's actions notifying the muter only", async () => {
    await h.publish(SocialEvents.MuteChanged, { muterId: dee, mutedId: cy, active: true, version: next(), at: at() });
    await follow(cy, dee);
    await follow(ben, dee);
    expect((await list(dee)).flatMap((e) => e.actors.map((a) => a.id))).toEqual([ben]);
    await follow(cy, ben);
    expect((await list(ben)).some((e) => e.kind === 'follow' && e.actors.some((a) => a.id === cy))).toBe(true);
  });

  it('says nothing of a comment with a muted word until the word expires', async () => {
    const before = (await list(ana)).length;
    await h.publish(SocialEvents.MutedWordsChanged, { userId: ana, words: [{ id: randomUUID(), word: 'spoiler', expiresAt: timestampFromDate(new Date(Date.now() + 86_400_000)) }], version: next() });
    await comment(cy, 'Huge SPOILER: it ends well');
    expect((await list(ana)).length).toBe(before);
    await comment(cy, 'spoilers are words of their own');
    expect((await list(ana)).flatMap((e) => e.actors.map((a) => a.id))).toContain(cy);
    await h.query(`UPDATE muted_words SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [ana]);
    await comment(dee, 'another spoiler');
    expect((await list(ana)).flatMap((e) => e.actors.map((a) => a.id))).toContain(dee);
  });
});
