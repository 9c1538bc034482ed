import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { AuthEvents, MediaEvents, MediaType, type NotificationEntry, SocialEvents, TargetType, TimelinesEvents, TimelineStatus, Visibility } from '@timeliner/proto';
import { type NotificationsHarness, startHarness } from './harness.js';

/**
 * Notifications about what the recipient may no longer see (issue 28): nothing about content the
 * moderators hid, nothing from or about a suspended person, nothing about a private account's
 * content for someone who is not (or no longer) one of its followers; what was told before goes
 * when that changes. The content's owner still hears about their own.
 */
describe('notifications follow what the recipient may see', () => {
  let h: NotificationsHarness;
  let ana: string, ben: string, cy: string;
  let trip: string, video: string;
  let version = 0n;
  let followVersion = 0n;
  let profileVersion = 1n;
  const next = () => (version += 1n);
  const at = () => timestampFromDate(new Date());

  const list = async (userId: string): Promise<NotificationEntry[]> => (await h.call('get', '/api/notifications?limit=50', { userId }).expect(200)).body as NotificationEntry[];
  const follow = (followerId: string, followeeId: string, active = true) => {
    followVersion += 1n;
    return h.publish(SocialEvents.FollowChanged, { followerId, followeeId, active, followersCount: 1n, followersVersion: followVersion, followingCount: 1n, followingVersion: followVersion }, { actorUserId: followerId });
  };
  const comment = (userId: string, content: string, mentions: string[] = [], commentId = randomUUID()) =>
    h.publish(SocialEvents.CommentAdded, { commentId, targetType: TargetType.VIDEO, targetId: video, timelineId: trip, ownerId: ana, userId, content, mentions }, { actorUserId: userId });
  const post = (userId: string, mentions: string[], postId = randomUUID()) =>
    h.publish(SocialEvents.PostCreated, { postId, userId, content: `hello ${mentions.map((m) => `@${m}`).join(' ')}`, mentions }, { actorUserId: userId });
  const moderate = (contentType: string, contentId: string, authorId: string, hidden: boolean) =>
    h.publish(SocialEvents.ContentModerated, { actionId: randomUUID(), contentType, contentId, authorId, hidden, sensitive: false, version: next(), at: at() });
  const suspend = (userId: string, active: boolean) => h.publish(SocialEvents.AccountSuspensionChanged, { actionId: randomUUID(), userId, active, reason: 'Spam', version: next(), at: at() });
  const makePrivate = (userId: string, username: string, isPrivate: boolean) => {
    profileVersion += 1n;
    return h.publish(AuthEvents.UserUpdated, { userId, displayName: username, username, avatar: '', isPrivate, profileVersion });
  };

  beforeAll(async () => {
    h = await startHarness('notifreach');
    ana = await h.person('ana', 'Ana');
    ben = await h.person('ben', 'Ben');
    cy = await h.person('cy', 'Cy');
    trip = randomUUID();
    video = randomUUID();
    await h.publish(TimelinesEvents.TimelineSnapshot, { timelineId: trip, creatorId: ana, title: 'Trip', visibility: Visibility.PUBLIC, status: TimelineStatus.PUBLISHED, revision: 1n });
    await h.publish(MediaEvents.UploadCompleted, { mediaId: video, timelineId: trip, uploaderId: ana, mediaType: MediaType.VIDEO, originalName: 'beach.mp4', mimeType: 'video/mp4', size: 10n });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('takes back what others were told about a hidden timeline, and tells them nothing more of it', async () => {
    await comment(ben, 'see this', ['cy']);
    expect((await list(cy)).map((e) => e.kind)).toEqual(['mention']);
    expect((await list(ana)).map((e) => e.kind)).toEqual(['comment']);

    await moderate('timeline', trip, ana, true);
    expect(await list(cy)).toEqual([]);
    await comment(ben, 'again', ['cy']);
    expect(await list(cy)).toEqual([]);
    // Its owner still hears of her own timeline.
    expect((await list(ana)).map((e) => e.kind)).toEqual(['comment']);
    expect((await list(ana))[0]!.count).toBe(1);

    await moderate('timeline', trip, ana, false);
    await comment(ben, 'restored', ['cy']);
    expect((await list(cy)).map((e) => e.kind)).toEqual(['mention']);
  });

  it('takes back what a hidden comment told, and a hidden post', async () => {
    const dee = await h.person('dee', 'Dee');
    const commentId = randomUUID();
    await comment(ben, 'rude', ['dee'], commentId);
    expect((await list(dee)).map((e) => e.kind)).toEqual(['mention']);
    await moderate('video_comment', commentId, ben, true);
    expect(await list(dee)).toEqual([]);

    const postId = randomUUID();
    await post(cy, ['dee'], postId);
    expect((await list(dee)).map((e) => e.target.id)).toEqual([postId]);
    await moderate('post', postId, cy, true);
    expect(await list(dee)).toEqual([]);
  });

  it('says nothing from or about a suspended person, and takes back what they caused', async () => {
    const eve = await h.person('eve', 'Eve');
    const fay = await h.person('fay', 'Fay');
    await follow(eve, fay);
    await post(eve, ['fay']);
    expect((await list(fay)).map((e) => e.kind).sort()).toEqual(['follow', 'mention']);

    await suspend(eve, true);
    expect(await list(fay)).toEqual([]);
    await post(eve, ['fay']);
    expect(await list(fay)).toEqual([]);

    await suspend(eve, false);
    await post(eve, ['fay']);
    expect((await list(fay)).map((e) => e.kind)).toEqual(['mention']);
  });

  it('says nothing new from a person waiting for their account to be deleted, and speaks for them again once they cancel', async () => {
    const kit = await h.person('kit', 'Kit');
    const lou = await h.person('lou', 'Lou');
    await post(kit, ['lou']);
    expect((await list(lou)).map((e) => e.kind)).toEqual(['mention']);

    await h.publish(AuthEvents.AccountDeletionChanged, { userId: kit, pending: true, version: next(), at: at() });
    await post(kit, ['lou']);
    // What Lou was told stays (a cancellation brings the person back); nothing new comes.
    expect((await list(lou)).map((e) => e.kind)).toEqual(['mention']);

    await h.publish(AuthEvents.AccountDeletionChanged, { userId: kit, pending: false, version: next(), at: at() });
    await post(kit, ['lou']);
    expect((await list(lou)).map((e) => e.kind)).toEqual(['mention', 'mention']);
  });

  it("tells only a private account's followers of its content, and takes it back from a follower removed", async () => {
    const gus = await h.person('gus', 'Gus');
    const hal = await h.person('hal', 'Hal');
    const ivy = await h.person('ivy', 'Ivy');
    await makePrivate(gus, 'gus', true);
    await follow(hal, gus);
    await post(gus, ['hal', 'ivy']);
    // Hal follows Gus; Ivy does not.
    expect((await list(hal)).map((e) => e.kind)).toEqual(['mention']);
    expect(await list(ivy)).toEqual([]);

    // Hal is removed as a follower: what he was told of Gus's posts goes.
    await follow(hal, gus, false);
    expect(await list(hal)).toEqual([]);
    await post(gus, ['hal']);
    expect(await list(hal)).toEqual([]);

    // A public account made private: its outsiders lose what they were told of its content.
    await makePrivate(gus, 'gus', false);
    await post(gus, ['ivy']);
    expect((await list(ivy)).map((e) => e.kind)).toEqual(['mention']);
    await makePrivate(gus, 'gus', true);
    expect(await list(ivy)).toEqual([]);
  });
});
