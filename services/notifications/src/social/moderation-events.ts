import { timestampDate } from '@bufbuild/protobuf/wkt';
import { clipCodePoints, idOf, on } from '@timeliner/platform';
import { SocialEvents } from '@timeliner/proto';
import type { Notifier } from '../notifications/notifier.js';

/** The longest sentence a notification keeps (notifications.target_title). */
const MAX_TEXT = 255;

/**
 * The moderation desk's notices (social's ModerationNotice): a reporter is told the outcome of
 * their report (never who decided), an author what was done and why. Each is its own entry, never
 * grouped, and cannot be switched off: it is about the person's own report or content.
 */
export const moderationEventHandlers = (notifier: Notifier) => [
  on(SocialEvents.ModerationNotice, async (notice, meta, manager) => {
    const recipientId = idOf(notice.recipientId);
    const noticeId = idOf(notice.noticeId);
    if (!recipientId || !noticeId || !notice.text) return;
    const text = notice.text.length > MAX_TEXT ? `${clipCodePoints(notice.text, MAX_TEXT - 1)}…` : notice.text;
    await notifier.add(manager, {
      recipientId,
      kind: 'moderation',
      // An author's notice leads to what moderators did about their content, where they may appeal.
      target: { type: 'moderation', id: noticeId, timelineId: null, title: text, ownerId: notice.role === 'author' ? recipientId : null },
      sourceKey: `moderation:${noticeId}`,
      actorId: null,
      occurredAt: notice.at ? timestampDate(notice.at) : new Date(meta.occurredAt),
    });
  }),
];
