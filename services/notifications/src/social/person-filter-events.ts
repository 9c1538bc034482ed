import { applyBlockChanged, applyMutedWordsChanged, applyMuteChanged, on } from '@timeliner/platform';
import { SocialEvents } from '@timeliner/proto';
import type { Notifier } from '../notifications/notifier.js';

/**
 * This service's copy of the blocks, mutes and muted words (platform person-filters), which the
 * notifier reads before telling anyone anything; a new block also takes back what either of the
 * two was told of the other.
 */
export const personFilterEventHandlers = (notifier: Notifier) => [
  on(SocialEvents.BlockChanged, async (e, _meta, manager) => {
    if ((await applyBlockChanged(manager, e)) && e.active) await notifier.forgetBetween(manager, e.blockerId.toLowerCase(), e.blockedId.toLowerCase());
  }),
  on(SocialEvents.MuteChanged, async (e, _meta, manager) => {
    await applyMuteChanged(manager, e);
  }),
  on(SocialEvents.MutedWordsChanged, async (e, _meta, manager) => {
    await applyMutedWordsChanged(manager, e);
  }),
];
