import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { FollowRequestState, type NotificationEntry, SocialEvents } from '@timeliner/proto';
import { type NotificationsHarness, startHarness } from './harness.js';

/** A private account's owner is told "X asked to follow you" (leading to Follow requests), taken back once it is answered. */
describe('follow request notifications', () => {
  let h: NotificationsHarness;
  let pia: string, ray: string;
  let version = 0n;
  const list = async (userId: string): Promise<NotificationEntry[]> => (await h.call('get', '/api/notifications?limit=50', { userId }).expect(200)).body as NotificationEntry[];
  const request = (state: FollowRequestState, pending: bigint) => {
    version += 1n;
    return h.publish(SocialEvents.FollowRequestChanged, { requesterId: ray, targetId: pia, state, pendingCount: pending, version, at: timestampFromDate(new Date()) }, { actorUserId: ray });
  };

  beforeAll(async () => {
    h = await startHarness('notiffollowrequests');
    pia = await h.person('pia', 'Pia');
    ray = await h.person('ray', 'Ray');
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('tells the owner, with a link to the follow requests, and takes it back when the request is answered', async () => {
    await request(FollowRequestState.REQUESTED, 1n);
    const [entry] = await list(pia);
    expect(entry).toMatchObject({ kind: 'follow_request', link: '/follow-requests', text: 'Ray asked to follow you' });
    expect(await list(ray)).toEqual([]);

    await request(FollowRequestState.APPROVED, 0n);
    expect(await list(pia)).toEqual([]);
  });
});
