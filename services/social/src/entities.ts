import { busEntities } from '@timeliner/platform';
import { TimelineComment } from './timeline-comments/timeline-comment.entity.js';
import { UserRecord } from './users/user.entity.js';

export const socialEntities = [UserRecord, TimelineComment, ...busEntities];
