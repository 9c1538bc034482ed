import { Initial1763719200000 } from './1763719200000-initial.js';
import { FollowCountVersions1764500000100 } from './1764500000100-follow-count-versions.js';
import { ProfileContentCounts1764500000200 } from './1764500000200-profile-content-counts.js';
import { EmailChanges1766200000000 } from './1766200000000-email-changes.js';
import { ProfileVersions1766300000000 } from './1766300000000-profile-versions.js';
import { TwoStep1766900000000 } from './1766900000000-two-step.js';
import { ViewingPreferences1766400000000 } from './1766400000000-viewing-preferences.js';
import { AccountSuspensions1766800000000 } from './1766800000000-account-suspensions.js';
import { PersonFilters1766600000000 } from './1766600000000-person-filters.js';
import { AccountDeletions1767100000000 } from './1767100000000-account-deletions.js';
import { PurgedAccounts1767100000100 } from './1767100000100-purged-accounts.js';
import { OutboxErasures1768100000000 } from './1768100000000-outbox-erasures.js';
import { AccountDeletionVersions1768500000000 } from './1768500000000-account-deletion-versions.js';
import { AccountDeletionVersionKept1768600000000 } from './1768600000000-account-deletion-version-kept.js';

/** In order. A new migration is appended, never edited once released. */
export const authMigrations = [Initial1763719200000, FollowCountVersions1764500000100, ProfileContentCounts1764500000200, EmailChanges1766200000000, ProfileVersions1766300000000, TwoStep1766900000000, AccountSuspensions1766800000000, PersonFilters1766600000000, ViewingPreferences1766400000000, AccountDeletions1767100000000, PurgedAccounts1767100000100, OutboxErasures1768100000000, AccountDeletionVersions1768500000000, AccountDeletionVersionKept1768600000000];
