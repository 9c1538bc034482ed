import { copyFreeOfMutedWordsSql, copyNotBlockedSql, copyNotMutedSql } from '@timeliner/platform';
import { accountNotSuspendedSql, timelineKeptByModeratorsSql } from '../moderation/moderation-events.js';

/**
 * Blocks, mutes and muted words in search results (issue 28), over this service's copy of them
 * (platform person-filters, kept from the social service's events). `viewer` is the SQL of the
 * searcher's id; NULL (signed out) hides nothing.
 */

/** The words of a timeline as muted words see them: its title, description and hashtags ('#' kept). */
const timelineWords = (t: string) => `(${t}.title || ' ' || ${t}.description || ' ' || coalesce((SELECT string_agg('#' || h, ' ') FROM unnest(${t}.hashtags) h), ''))`;

/** A timeline shown to the viewer: its creator and the viewer have not blocked each other, not muted, no muted word in it. */
export const timelineShownSql = (viewer: string, t = 't'): string =>
  `${copyNotBlockedSql(viewer, `${t}.creator_id`)} AND ${copyNotMutedSql(viewer, `${t}.creator_id`)} AND ${copyFreeOfMutedWordsSql(viewer, timelineWords(t))}
   AND ${timelineKeptByModeratorsSql(t)}`;

/** A person shown to the viewer: no block either way (a muted person can still be found, to unmute them). */
export const personShownSql = (viewer: string, u = 'u'): string => `${copyNotBlockedSql(viewer, `${u}.id`)} AND ${accountNotSuspendedSql(`${u}.id`)}`;

/** A hashtag shown to the viewer: not muted (as '#name' or as the word). */
export const hashtagShownSql = (viewer: string, h = 'h'): string => copyFreeOfMutedWordsSql(viewer, `('#' || ${h}.name)`);
