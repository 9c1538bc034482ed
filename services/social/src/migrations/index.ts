import { Initial1763805600000 } from './1763805600000-initial.js';
import { SocialCore1764400000000 } from './1764400000000-social-core.js';
import { FeedKeys1764600000000 } from './1764600000000-feed-keys.js';
import { Collections1764900000000 } from './1764900000000-collections.js';
import { FollowingIndex1765000000000 } from './1765000000000-following-index.js';
import { Activities1765100000000 } from './1765100000000-activities.js';
import { FollowingInbox1765200000000 } from './1765200000000-following-inbox.js';
import { DeletedUsers1766100000000 } from './1766100000000-deleted-users.js';
import { ProfileVersions1766300000000 } from './1766300000000-profile-versions.js';
import { SensitiveFeedTimelines1766400000000 } from './1766400000000-sensitive-feed-timelines.js';
import { FollowRequests1766500000000 } from './1766500000000-follow-requests.js';
import { BlocksMutes1766600000000 } from './1766600000000-blocks-mutes.js';
import { ModerationDesk1766800000000 } from './1766800000000-moderation-desk.js';
import { CommentControls1766700000000 } from './1766700000000-comment-controls.js';
import { CommentCountVersions1767700000000 } from './1767700000000-comment-count-versions.js';
import { ReportedMediaSensitivePosts1767600000000 } from './1767600000000-reported-media-sensitive-posts.js';
import { ErasableAudit1767100000000 } from './1767100000000-erasable-audit.js';

import { OutboxErasures1768100000000 } from './1768100000000-outbox-erasures.js';
import { DeletedUserDigests1768100000100 } from './1768100000100-deleted-user-digests.js';
import { FeedCoverAltText1767800000000 } from './1767800000000-feed-cover-alt-text.js';
import { ReportableImages1768200000000 } from './1768200000000-reportable-images.js';
import { DeletionPending1768500000000 } from './1768500000000-deletion-pending.js';
import { AuditTextRemovable1768500000100 } from './1768500000100-audit-text-removable.js';
import { PrivateUsersIndex1768400000000 } from './1768400000000-private-users-index.js';
/** In order. A new migration is appended, never edited once released. */
export const socialMigrations = [Initial1763805600000, SocialCore1764400000000, FeedKeys1764600000000, Collections1764900000000, FollowingIndex1765000000000, Activities1765100000000, FollowingInbox1765200000000, DeletedUsers1766100000000, ProfileVersions1766300000000, SensitiveFeedTimelines1766400000000, FollowRequests1766500000000, BlocksMutes1766600000000, ModerationDesk1766800000000, CommentControls1766700000000, ReportedMediaSensitivePosts1767600000000, CommentCountVersions1767700000000, ErasableAudit1767100000000, OutboxErasures1768100000000, DeletedUserDigests1768100000100, FeedCoverAltText1767800000000, ReportableImages1768200000000, PrivateUsersIndex1768400000000, DeletionPending1768500000000, AuditTextRemovable1768500000100];
