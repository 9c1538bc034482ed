import { Initial1763719200000 } from './1763719200000-initial.js';
import { FollowCountVersions1764500000100 } from './1764500000100-follow-count-versions.js';
import { ProfileContentCounts1764500000200 } from './1764500000200-profile-content-counts.js';

/** In order. A new migration is appended, never edited once released. */
export const authMigrations = [Initial1763719200000, FollowCountVersions1764500000100, ProfileContentCounts1764500000200];
