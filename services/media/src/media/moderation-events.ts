import { isUuid, on } from '@timeliner/platform';
import { SocialEvents } from '@timeliner/proto';
import type { MediaRepository } from './media.repository.js';

/**
 * The moderation desk's decisions on a video or image (the social service owns them): hidden, it is
 * gone for everyone but the timeline's owner and editors; marked sensitive, it is covered. A
 * decision older than the one applied (redelivered late) changes nothing.
 */
export const moderationEventHandlers = (media: MediaRepository) => [
  on(SocialEvents.ContentModerated, async (decision, _meta, manager) => {
    if (decision.contentType !== 'video' || !isUuid(decision.contentId)) return;
    await media.applyModeration(manager, decision.contentId.toLowerCase(), { hidden: decision.hidden, sensitive: decision.sensitive }, decision.version);
  }),
];
