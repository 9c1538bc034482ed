import { Initial1765200000000 } from './1765200000000-initial.js';
import { Tombstones1766100000000 } from './1766100000000-tombstones.js';
import { ProfileVersions1766300000000 } from './1766300000000-profile-versions.js';
import { ToldOnceADay1766400000000 } from './1766400000000-told-once-a-day.js';
import { PersonFilters1766600000000 } from './1766600000000-person-filters.js';
import { ModerationCopy1767500000000 } from './1767500000000-moderation-copy.js';
import { ContentOwners1767500000100 } from './1767500000100-content-owners.js';
import { TeamVersions1767700000000 } from './1767700000000-team-versions.js';
import { OutboxErasures1768100000000 } from './1768100000000-outbox-erasures.js';
import { PrivateUsersIndex1768400000000 } from './1768400000000-private-users-index.js';

/** In order. A new migration is appended, never edited once released. */
export const notificationsMigrations = [Initial1765200000000, Tombstones1766100000000, ProfileVersions1766300000000, ToldOnceADay1766400000000, PersonFilters1766600000000, ModerationCopy1767500000000, ContentOwners1767500000100, TeamVersions1767700000000, OutboxErasures1768100000000, PrivateUsersIndex1768400000000];
