import { Initial1764000000000 } from './1764000000000-initial.js';
import { TimelineVideos1764200000000 } from './1764200000000-timeline-videos.js';
import { LikeCounts1764400000100 } from './1764400000100-like-counts.js';
import { TimelineSnapshots1764800000000 } from './1764800000000-timeline-snapshots.js';

/** In order. A new migration is appended, never edited once released. */
export const timelinesMigrations = [Initial1764000000000, TimelineVideos1764200000000, LikeCounts1764400000100, TimelineSnapshots1764800000000];
