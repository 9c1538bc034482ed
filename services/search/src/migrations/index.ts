import { SearchReadModel1765300000000 } from './1765300000000-search-read-model.js';
import { WordEdits1765400000000 } from './1765400000000-word-edits.js';
import { ProfileVersions1766300000000 } from './1766300000000-profile-versions.js';
import { SensitiveTimelines1766400000000 } from './1766400000000-sensitive-timelines.js';
import { CaptionCues1767100000000 } from './1767100000000-caption-cues.js';
import { PersonFilters1766600000000 } from './1766600000000-person-filters.js';
import { Moderation1766800000000 } from './1766800000000-moderation.js';
import { CoverAltText1767800000000 } from './1767800000000-cover-alt-text.js';
import { PrivateUsersIndex1768400000000 } from './1768400000000-private-users-index.js';

/** In order. A new migration is appended, never edited once released. */
export const searchMigrations = [SearchReadModel1765300000000, WordEdits1765400000000, ProfileVersions1766300000000, SensitiveTimelines1766400000000, CaptionCues1767100000000, PersonFilters1766600000000, Moderation1766800000000, CoverAltText1767800000000, PrivateUsersIndex1768400000000];
