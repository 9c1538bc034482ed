import { type EventBus, isUuid, moderationCopyReadModel, type RebuildableReadModel } from '@timeliner/platform';
import type { ReplayedModerationDecision } from '@timeliner/proto';
import { markSensitiveByModerators } from './moderation-events.js';

const CONTEXT = { requestId: 'read-model-rebuild' };

/**
 * The moderation copy (platform moderation-copy) rebuilt from the social service's replay
 * (`read-model rebuild timelines --model moderation`), which the access policy reads, applied as
 * moderation-events.ts applies the live decisions: a newer decision on a timeline also sets its
 * sensitive mark, and its snapshot tells the read models when that changed.
 */
export function moderationReadModel(bus: EventBus): RebuildableReadModel<ReplayedModerationDecision> {
  return moderationCopyReadModel(bus, {
    async applied(manager, decision) {
      if (decision.subject?.subjectType !== 'timeline' || !isUuid(decision.subject.subjectId)) return;
      await markSensitiveByModerators(manager, decision.subject.subjectId, decision.sensitive, CONTEXT);
    },
  });
}
