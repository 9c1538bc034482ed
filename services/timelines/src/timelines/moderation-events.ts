import { applyAccountDeletionChanged, applyAccountSuspensionChanged, applyContentModerated, isUuid, on, Outbox, type OutboxContext } from '@timeliner/platform';
import { AuthEvents, SocialEvents } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { publishSnapshot, snapshotContext } from './snapshot.js';

/** A timeline's sensitive mark as the moderators set it, its snapshot published when it changed (a timeline deleted meanwhile, or already so, changes nothing). */
export async function markSensitiveByModerators(manager: EntityManager, timelineId: string, sensitive: boolean, context: OutboxContext): Promise<void> {
  const id = timelineId.toLowerCase();
  const [, changed] = (await manager.query('UPDATE timelines SET sensitive = $2 WHERE id = $1 AND sensitive IS DISTINCT FROM $2', [id, sensitive])) as [unknown, number];
  if (changed > 0) await publishSnapshot(manager, Outbox, id, context);
}

/**
 * The moderation desk's decisions on timelines (the social service owns them): a timeline the
 * moderators marked sensitive is sensitive here too, and its snapshot tells the read models, so
 * every card and player covers it; a decision that lifts it (restore, a granted appeal) lifts it.
 * A hidden timeline, and every timeline of a suspended account or of one waiting to be deleted
 * (auth's AccountDeletionChanged), is kept in the moderation copy (platform moderation-copy),
 * which the access policy reads (access/timeline-access.ts).
 */
export const moderationEventHandlers = [
  on(SocialEvents.ContentModerated, async (decision, meta, manager) => {
    await applyContentModerated(manager, decision);
    if (decision.contentType !== 'timeline' || !isUuid(decision.contentId)) return;
    await markSensitiveByModerators(manager, decision.contentId, decision.sensitive, snapshotContext(meta));
  }),
  on(SocialEvents.AccountSuspensionChanged, async (change, _meta, manager) => {
    await applyAccountSuspensionChanged(manager, change);
  }),
  on(AuthEvents.AccountDeletionChanged, async (change, _meta, manager) => {
    await applyAccountDeletionChanged(manager, change);
  }),
];
