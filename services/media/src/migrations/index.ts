import { Initial1764100000000 } from './1764100000000-initial.js';
import { Exports1764200000000 } from './1764200000000-exports.js';
import { ExportLimits1764400000000 } from './1764400000000-export-limits.js';
import { Avatars1765100000000 } from './1765100000000-avatars.js';
import { StorageUsage1765400000000 } from './1765400000000-storage-usage.js';
import { ProcessingTurns1765500000000 } from './1765500000000-processing-turns.js';
import { DataExports1767000000000 } from './1767000000000-data-exports.js';
import { VideoCaptions1767100000000 } from './1767100000000-video-captions.js';
import { AltText1767400000000 } from './1767400000000-alt-text.js';
import { MediaSensitive1767600000000 } from './1767600000000-media-sensitive.js';

import { OutboxErasures1768100000000 } from './1768100000000-outbox-erasures.js';
import { AltTextVersions1767800000000 } from './1767800000000-alt-text-versions.js';
/** In order. A new migration is appended, never edited once released. */
export const mediaMigrations = [Initial1764100000000, Exports1764200000000, ExportLimits1764400000000, Avatars1765100000000, StorageUsage1765400000000, ProcessingTurns1765500000000, DataExports1767000000000, VideoCaptions1767100000000, AltText1767400000000, MediaSensitive1767600000000, OutboxErasures1768100000000, AltTextVersions1767800000000];
