import { busEntities, moderationCopyEntities, personFilterCopyEntities } from '@timeliner/platform';
import { VideoRecord } from './media/video.entity.js';
import { Notification, NotificationActivity } from './notifications/notification.entity.js';
import { ToldOnce } from './notifications/told-once.entity.js';
import { Preference } from './preferences/preference.entity.js';
import { PushSubscription } from './push/push-subscription.entity.js';
import { ReactionState } from './social/reaction-state.entity.js';
import { TimelineMember, TimelineMemberRemoval, TimelineRecord } from './timelines/timeline.entity.js';
import { UserRecord } from './users/user.entity.js';

export const notificationsEntities = [
  UserRecord,
  TimelineRecord,
  TimelineMember,
  TimelineMemberRemoval,
  VideoRecord,
  ReactionState,
  Notification,
  NotificationActivity,
  ToldOnce,
  Preference,
  PushSubscription,
  ...personFilterCopyEntities,
  ...moderationCopyEntities,
  ...busEntities,
];
