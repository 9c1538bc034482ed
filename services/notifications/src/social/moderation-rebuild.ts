import { timestampDate } from '@bufbuild/protobuf/wkt';
import { type EventBus, idOf, moderationCopyReadModel, type RebuildableReadModel } from '@timeliner/platform';
import type { ReplayedModerationDecision } from '@timeliner/proto';
import type { Notifier } from '../notifications/notifier.js';
import { forgetHiddenItem, forgetSuspendedActor } from './moderation-events.js';

/**
 * The moderation copy (platform moderation-copy) rebuilt from the social service's replay
 * (`read-model rebuild notifications --model moderation`), which content-access.ts reads, applied
 * as moderation-events.ts applies the live decisions: a newer hide also takes away what others
 * were told of the item, a newer suspension in force what anyone was told of the person.
 */
export function moderationReadModel(bus: EventBus, notifier: Notifier): RebuildableReadModel<ReplayedModerationDecision> {
  return moderationCopyReadModel(bus, {
    async applied(manager, decision) {
      const { subjectType, subjectId } = decision.subject!;
      if (!decision.hidden) return;
      if (subjectType === 'account') await forgetSuspendedActor(notifier, manager, subjectId, decision.until ? timestampDate(decision.until) : null);
      else await forgetHiddenItem(notifier, manager, subjectType, subjectId, idOf(decision.authorId));
    },
  });
}
