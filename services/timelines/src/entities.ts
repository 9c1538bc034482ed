import { busEntities, moderationCopyEntities, personFilterCopyEntities, personLimitEntities } from '@timeliner/platform';
import { TimelineEngagement, TimelineView } from './analytics/timeline-view.entity.js';
import { Collaborator } from './collaborators/collaborator.entity.js';
import { Invitation } from './invitations/invitation.entity.js';
import { Timeline } from './timelines/timeline.entity.js';
import { TimelineImage } from './timelines/timeline-image.entity.js';
import { MediaAltText } from './timelines/media-alt-text.entity.js';
import { TimelineVideo } from './timelines/timeline-video.entity.js';
import { AccountFollow } from './private-accounts/account-follow.entity.js';
import { UserRecord } from './users/user.entity.js';
import { WatchPosition } from './watch-positions/watch-position.entity.js';

export const timelinesEntities = [Timeline, Collaborator, Invitation, UserRecord, TimelineView, TimelineEngagement, TimelineVideo, TimelineImage, MediaAltText, AccountFollow, WatchPosition, ...busEntities, ...personLimitEntities, ...personFilterCopyEntities, ...moderationCopyEntities];
