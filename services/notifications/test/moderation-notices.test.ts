import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { type NotificationEntry, SocialEvents } from '@timeliner/proto';
import { type NotificationsHarness, startHarness, waitFor } from './harness.js';

/**
 * The moderation desk's notices: a reporter is told the outcome, an author what was done and why;
 * each its own entry, never switched off, never naming the moderator.
 */
describe('moderation notices', () => {
  let h: NotificationsHarness;
  let rita: string, arlo: string;
  const list = async (userId: string): Promise<NotificationEntry[]> => (await h.call('get', '/api/notifications?limit=50', { userId }).expect(200)).body as NotificationEntry[];
  const notice = (recipientId: string, role: 'reporter' | 'author', text: string, noticeId = randomUUID()) =>
    h.publish(SocialEvents.ModerationNotice, { noticeId, recipientId, role, actionId: randomUUID(), contentType: 'post', contentId: randomUUID(), text, at: timestampFromDate(new Date()) }, { actorUserId: randomUUID() });

  beforeAll(async () => {
    h = await startHarness('notifmoderation');
    rita = await h.person('rita', 'Rita');
    arlo = await h.person('arlo', 'Arlo');
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('tells the reporter the outcome and the author what was done, each once', async () => {
    // Even with every switch off: the notice is about the person's own report or content.
    await h.call('put', '/api/notifications/preferences', { userId: arlo }).send({ likes: { inApp: false, push: false }, comments: { inApp: false, push: false } });
    const id = randomUUID();
    await notice(rita, 'reporter', 'Moderators removed the post you reported. Thank you for reporting it', id);
    await notice(rita, 'reporter', 'Moderators removed the post you reported. Thank you for reporting it', id);
    await notice(arlo, 'author', 'Removed by moderators: your post. Reason: Spam links. You may appeal once');
    await waitFor(async () => (await list(rita)).some((e) => e.kind === 'moderation') && (await list(arlo)).some((e) => e.kind === 'moderation'));
    const toRita = (await list(rita)).filter((e) => e.kind === 'moderation');
    expect(toRita).toHaveLength(1);
    expect(toRita[0]).toMatchObject({ text: 'Moderators removed the post you reported. Thank you for reporting it', link: '/notifications', actorId: null, read: false });
    expect((await list(arlo)).find((e) => e.kind === 'moderation')).toMatchObject({ text: 'Removed by moderators: your post. Reason: Spam links. You may appeal once', link: '/moderation/notices', targetType: 'moderation' });
  });

  it('keeps a long reason readable within the entry', async () => {
    await notice(arlo, 'author', `Moderators warned you about your post. Reason: ${'x'.repeat(600)}`);
    await waitFor(async () => (await list(arlo)).filter((e) => e.kind === 'moderation').length === 2);
    const long = (await list(arlo)).find((e) => e.kind === 'moderation' && e.text.startsWith('Moderators warned'))!;
    expect(Array.from(long.text)).toHaveLength(255);
    expect(long.text.endsWith('…')).toBe(true);
  });
});
