import { Initial1764000000000 } from './1764000000000-initial.js';
import { TimelineVideos1764200000000 } from './1764200000000-timeline-videos.js';
import { LikeCounts1764400000100 } from './1764400000100-like-counts.js';
import { TimelineSnapshots1764800000000 } from './1764800000000-timeline-snapshots.js';
import { PersonLimits1765400000000 } from './1765400000000-person-limits.js';
import { TimelineImages1765500000000 } from './1765500000000-timeline-images.js';
import { ProfileVersions1766300000000 } from './1766300000000-profile-versions.js';
import { SensitiveTimelines1766400000100 } from './1766400000100-sensitive-timelines.js';
import { PrivateAccounts1766500000000 } from './1766500000000-private-accounts.js';
import { PersonFilters1766600000000 } from './1766600000000-person-filters.js';
import { WatchPositions1767300000000 } from './1767300000000-watch-positions.js';
import { ModerationCopy1767500000000 } from './1767500000000-moderation-copy.js';
import { CommentCountVersions1767700000000 } from './1767700000000-comment-count-versions.js';
import { TeamVersions1767700000100 } from './1767700000100-team-versions.js';

import { OutboxErasures1768100000000 } from './1768100000000-outbox-erasures.js';
import { MediaAltTexts1767800000000 } from './1767800000000-media-alt-texts.js';
/** In order. A new migration is appended, never edited once released. */
export const timelinesMigrations = [Initial1764000000000, TimelineVideos1764200000000, LikeCounts1764400000100, TimelineSnapshots1764800000000, PersonLimits1765400000000, TimelineImages1765500000000, ProfileVersions1766300000000, SensitiveTimelines1766400000100, PrivateAccounts1766500000000, PersonFilters1766600000000, WatchPositions1767300000000, ModerationCopy1767500000000, CommentCountVersions1767700000000, TeamVersions1767700000100, OutboxErasures1768100000000, MediaAltTexts1767800000000];
