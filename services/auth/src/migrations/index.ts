import { Initial1763719200000 } from './1763719200000-initial.js';
import { FollowCountVersions1764500000100 } from './1764500000100-follow-count-versions.js';

/** In order. A new migration is appended, never edited once released. */
export const authMigrations = [Initial1763719200000, FollowCountVersions1764500000100];
