import { Initial1763805600000 } from './1763805600000-initial.js';
import { SocialCore1764400000000 } from './1764400000000-social-core.js';
import { FeedKeys1764600000000 } from './1764600000000-feed-keys.js';
import { Collections1764900000000 } from './1764900000000-collections.js';
import { FollowingIndex1765000000000 } from './1765000000000-following-index.js';
import { Activities1765100000000 } from './1765100000000-activities.js';
import { FollowingInbox1765200000000 } from './1765200000000-following-inbox.js';

/** In order. A new migration is appended, never edited once released. */
export const socialMigrations = [Initial1763805600000, SocialCore1764400000000, FeedKeys1764600000000, Collections1764900000000, FollowingIndex1765000000000, Activities1765100000000, FollowingInbox1765200000000];
