import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { type NotificationEntry, SocialEvents, TargetType, TimelinesEvents, TimelineStatus, Visibility } from '@timeliner/proto';
import { type NotificationsHarness, startHarness } from './harness.js';

/**
 * Comment controls in notifications: the owner of an item is told once that comments wait for
 * approval (not once per held comment), and the author of a held comment when it is approved.
 */
describe('notifications of held and approved comments', () => {
  let h: NotificationsHarness;
  let ana: string, ben: string, cy: string;
  let trip: string;
  const list = async (userId: string): Promise<NotificationEntry[]> => (await h.call('get', '/api/notifications?limit=50', { userId }).expect(200)).body as NotificationEntry[];
  const held = (userId: string, targetType: TargetType, targetId: string, heldCount: bigint, timelineTitle?: string) =>
    h.publish(SocialEvents.CommentHeld, { commentId: randomUUID(), targetType, targetId, ownerId: ana, userId, heldCount, at: timestampFromDate(new Date()), ...(timelineTitle ? { timelineTitle } : {}) }, { actorUserId: userId });

  beforeAll(async () => {
    h = await startHarness('notifcommentcontrols');
    ana = await h.person('ana', 'Ana');
    ben = await h.person('ben', 'Ben');
    cy = await h.person('cy', 'Cy');
    trip = randomUUID();
    await h.publish(TimelinesEvents.TimelineSnapshot, { timelineId: trip, creatorId: ana, title: 'Trip', visibility: Visibility.PUBLIC, status: TimelineStatus.PUBLISHED, revision: 1n });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('tells the owner once when comments start to wait, leading to the studio queue', async () => {
    await held(ben, TargetType.TIMELINE, trip, 1n, 'Trip');
    await held(cy, TargetType.TIMELINE, trip, 2n, 'Trip');
    await held(ben, TargetType.TIMELINE, trip, 3n, 'Trip');
    const entries = (await list(ana)).filter((e) => e.kind === 'comments_held');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ link: `/timeline/${trip}`, text: 'Ben commented on your timeline "Trip": waiting for your approval', targetType: 'held_comments' });
  });

  it("leads to the post for a post's held comments", async () => {
    const post = randomUUID();
    await held(cy, TargetType.POST, post, 1n);
    const entry = (await list(ana)).find((e) => e.kind === 'comments_held' && e.targetId === post);
    expect(entry).toMatchObject({ link: `/post/${post}`, text: 'Cy commented on your post: waiting for your approval' });
  });

  it('tells the author when their comment is approved', async () => {
    const commentId = randomUUID();
    await h.publish(SocialEvents.CommentApproved, { commentId, targetType: TargetType.TIMELINE, targetId: trip, timelineId: trip, userId: ben, approvedBy: ana, at: timestampFromDate(new Date()) }, { actorUserId: ana });
    const entry = (await list(ben)).find((e) => e.kind === 'comment_approved');
    expect(entry).toMatchObject({ link: `/watch/${trip}`, text: 'Your comment on "Trip" was approved' });
    const post = randomUUID();
    await h.publish(SocialEvents.CommentApproved, { commentId: randomUUID(), targetType: TargetType.POST, targetId: post, timelineId: '', userId: cy, approvedBy: ana, at: timestampFromDate(new Date()) }, { actorUserId: ana });
    expect((await list(cy)).find((e) => e.kind === 'comment_approved')).toMatchObject({ link: `/post/${post}`, text: 'Your comment was approved' });
  });
});
