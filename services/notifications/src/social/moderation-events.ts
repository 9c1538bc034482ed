import { timestampDate } from '@bufbuild/protobuf/wkt';
import { applyAccountDeletionChanged, applyAccountSuspensionChanged, applyContentModerated, clipCodePoints, idOf, on } from '@timeliner/platform';
import { AuthEvents, SocialEvents } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import type { Notifier } from '../notifications/notifier.js';

/** The longest sentence a notification keeps (notifications.target_title). */
const MAX_TEXT = 255;

/** What was told of an item the moderators hid: nobody but its author keeps it (for a comment, nobody). */
export async function forgetHiddenItem(notifier: Notifier, manager: EntityManager, contentType: string, contentId: string, authorId: string | null): Promise<void> {
  const id = contentId.toLowerCase();
  if (contentType === 'timeline') await notifier.dropWhere(manager, 'timeline_id = $1 AND recipient_id IS DISTINCT FROM $2::uuid', [id, authorId]);
  else if (contentType === 'post' || contentType === 'video') await notifier.dropWhere(manager, 'target_type = $1 AND target_id = $2 AND recipient_id IS DISTINCT FROM $3::uuid', [contentType, id, authorId]);
  else await notifier.forgetSource(manager, `comment:${id}`);
}

/** What anyone was told of a suspended person's actions or content goes, while the suspension lasts. */
export async function forgetSuspendedActor(notifier: Notifier, manager: EntityManager, userId: string, until: Date | null): Promise<void> {
  if (until && until <= new Date()) return;
  await notifier.forgetActor(manager, userId.toLowerCase());
}

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

  // A hidden item: nobody but its author keeps what they were told about it (or, for a comment,
  // of it); later activities on it tell nobody but its author (content-access.ts).
  on(SocialEvents.ContentModerated, async (decision, _meta, manager) => {
    if (!(await applyContentModerated(manager, decision)) || !decision.hidden) return;
    await forgetHiddenItem(notifier, manager, decision.contentType, decision.contentId, idOf(decision.authorId));
  }),

  // A suspension: what anyone was told of the person's actions or content goes; while it lasts,
  // nothing of theirs tells anyone anything (content-access.ts).
  on(SocialEvents.AccountSuspensionChanged, async (change, _meta, manager) => {
    if (!(await applyAccountSuspensionChanged(manager, change)) || !change.active) return;
    await forgetSuspendedActor(notifier, manager, change.userId, change.until ? timestampDate(change.until) : null);
  }),

  // A deletion asked for: while it is pending, nothing of the person's tells anyone anything
  // (content-access.ts); what others were told stays, for a cancellation brings the person back.
  on(AuthEvents.AccountDeletionChanged, async (change, _meta, manager) => {
    await applyAccountDeletionChanged(manager, change);
  }),
];
